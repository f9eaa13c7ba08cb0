// @ts-check
// What a table looks like: the viewer's own board theme, and each seat's checker set as the
// server says every screen shows it (snapshot `seats[i].checkers`). Colours come from the shop
// catalogue (GET /api/shop) and are set as CSS variables on the element holding the board
// (CSSOM setProperty, which the page policy allows), so styles.css keeps the drawing rules and
// nothing is written into a style attribute of the markup.
import { api } from "./api.js";

/** @import { Seat, Shop } from "./types.js" */

/** @type {Promise<Shop | null> | null} */
let catalogue = null;

/** Forget the catalogue, after a purchase or a change of what the player wears. */
export function forgetLooks() {
  catalogue = null;
}

/** Start fetching the catalogue (a table does so while it connects). */
export function preloadLooks() {
  if (!catalogue) {
    const pending = api.shop().catch(() => {
      if (catalogue === pending) catalogue = null; // try again at the next table
      return null;
    });
    catalogue = pending;
  }
  return catalogue;
}

const BOARD_VARS = {
  frame: "--wood",
  bar: "--wood-2",
  surface: "--felt",
  point_a: "--pt-a",
  point_b: "--pt-b",
  label: "--label",
};
const SET_VARS = { body: "", edge: "-edge", text: "-text" };

/**
 * Colour `host` (an element around the board) for `viewerSeat` (0, 1, or null for a spectator,
 * who sees seat 0's side as "me") at a table whose seats wear `seats[i].checkers`. Returns the
 * board theme's texture name, or null.
 * @param {HTMLElement | null} host
 * @param {Seat[]} seats
 * @param {number | null} viewerSeat
 */
export async function applyLooks(host, seats, viewerSeat) {
  const shop = await preloadLooks();
  if (!shop || !host) return null;
  const byId = new Map(shop.items.map((item) => [item.id, item]));
  const theme = byId.get(shop.board);
  if (theme && theme.kind === "board") {
    for (const [name, variable] of Object.entries(BOARD_VARS)) {
      if (theme.colours[name]) host.style.setProperty(variable, theme.colours[name]);
    }
  }
  const mine = viewerSeat === 1 ? 1 : 0;
  /** @type {[string, string | undefined][]} */
  const sides = [
    ["--me", seats?.[mine]?.checkers],
    ["--them", seats?.[1 - mine]?.checkers],
  ];
  for (const [prefix, id] of sides) {
    const set = byId.get(id || "");
    if (set?.kind !== "checkers") continue;
    for (const [name, suffix] of Object.entries(SET_VARS))
      host.style.setProperty(`${prefix}${suffix}`, set.colours[name]);
  }
  host.classList.add("looks");
  host.dataset.board = theme ? theme.id : "classic";
  host.dataset.checkers = sides.map(([, id]) => id || "").join(" ");
  const texture = theme?.texture ? theme.texture : null;
  host.dataset.texture = texture || "";
  return texture;
}
