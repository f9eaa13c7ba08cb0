// @ts-check
// The viewer's steps of a play not yet sent, kept in sessionStorage for the same table version,
// so a reload in the middle of a turn shows the same table and the same steps.
import { consistentPlays } from "./selection.js";
import { myMove } from "./table-views.js";

/** @import { TableView } from "./types.js" */

/** @param {TableView} v */
const madeKey = (v) => `bidak.made.${v.code}`;

/** Keep the steps made (or forget them when there are none). */
/** @param {TableView} v */
export function saveMade(v) {
  if (v.made.length) sessionStorage.setItem(madeKey(v), JSON.stringify({ version: v.version, made: v.made }));
  else sessionStorage.removeItem(madeKey(v));
}

/** Take back the steps kept for this table version, if they still begin a legal play now. */
/** @param {TableView} v */
export function restoreMade(v) {
  v.made = [];
  v.selected = null;
  try {
    const saved = JSON.parse(sessionStorage.getItem(madeKey(v)) || "null");
    if (
      saved &&
      saved.version === v.version &&
      myMove(v) &&
      v.table &&
      consistentPlays(v.table.legal_plays, saved.made).length
    )
      v.made = saved.made;
  } catch {
    v.made = [];
  }
}
