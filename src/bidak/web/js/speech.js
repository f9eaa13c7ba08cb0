// @ts-check
// The board in words, for assistive technology (issue 40): each occupied point from the
// listener's side with its owner and count, the bar, the borne-off checkers, the dice, the cube,
// the pip counts and the score, in the page's language. `describe` gives the sentences; the
// table keeps them in a list screen readers read (`#board-text`), and `announce` says a change
// in the polite live region `#announcer` ("read the board" says them all there at once).
import { h, raw } from "./dom.js";
import { t } from "./i18n.js";
import { BAR, OFF } from "./selection.js";

/** @import { Board, Step } from "./types.js" */

/**
 * What the words say beyond the checkers: the dice and whose they are, the cube, the score.
 * @typedef {{ dice?: number[] | null, diceMine?: boolean, cube?: { value: number,
 *   where: "me" | "them" | "center" } | null, score?: number[] | null, length?: number | null }} Extra
 */

/** Pip counts `[mine, theirs]` of a board (each checker's distance home, the bar 25). */
export function pips(/** @type {Board} */ b) {
  let mine = b.bar[0] * 25;
  let theirs = b.bar[1] * 25;
  b.points.forEach((n, i) => {
    if (n > 0) mine += n * (i + 1);
    else if (n < 0) theirs += -n * (24 - i);
  });
  return [mine, theirs];
}

/**
 * The board in sentences, in the current language, from the listener's side (their point 1 is
 * their ace point, the opponent's checkers on the listener's numbers).
 * @param {Board} b
 * @param {Extra} [extra]
 * @returns {string[]}
 */
export function describe(b, extra = {}) {
  const lines = [];
  const [mine, theirs] = pips(b);
  if (extra.score && extra.length) {
    lines.push(t("sr.score", { mine: extra.score[0], theirs: extra.score[1], length: extra.length }));
  }
  if (extra.dice?.length) {
    lines.push(t(extra.diceMine ? "sr.dice_mine" : "sr.dice_theirs", { dice: extra.dice.join(t("sr.and")) }));
  } else lines.push(t("sr.no_dice"));
  if (extra.cube) lines.push(t(`sr.cube_${extra.cube.where}`, { value: extra.cube.value }));
  lines.push(t("sr.pips", { mine, theirs }));
  for (let p = 24; p >= 1; p -= 1) {
    const n = b.points[p - 1];
    if (n > 0) lines.push(t("sr.point_mine", { n: p, count: n }));
    else if (n < 0) lines.push(t("sr.point_theirs", { n: p, count: -n }));
  }
  lines.push(t("sr.bar", { mine: b.bar[0], theirs: b.bar[1] }));
  lines.push(t("sr.off", { mine: b.off[0], theirs: b.off[1] }));
  return lines;
}

/**
 * A play in words from the listener's side: "from 8 to 5, from 6 to 5, hitting".
 * @param {Step[] | number[][]} steps in the mover's numbering
 * @param {boolean} mine the listener's own play (else the opponent's, whose numbers are turned)
 */
export function playInWords(steps, mine) {
  const name = (/** @type {number} */ p) => (mine ? p : 25 - p);
  return steps
    .map((step) => {
      const [from, to, hit] = step;
      const words =
        from === BAR
          ? t("sr.step_bar", { to: name(to) })
          : to === OFF
            ? t("sr.step_off", { from: name(from) })
            : t("sr.step", { from: name(from), to: name(to) });
      return hit ? words + t("sr.hitting") : words;
    })
    .join(", ");
}

/** The list screen readers read as the board (drawn again by `fill`). */
export function boardText() {
  return h("section", { class: "sr-only", id: "board-text", "aria-label": t("sr.board") }, h("ul", {}));
}

/** Put `lines` in the list `node` made by `boardText`. */
export function fill(/** @type {HTMLElement} */ node, /** @type {string[]} */ lines) {
  const list = node.querySelector("ul");
  if (list) list.replaceChildren(...lines.map((line) => h("li", {}, raw(line))));
}

/** The polite live region (one per page, made on first use). */
function announcer() {
  let node = document.getElementById("announcer");
  if (!node) {
    node = h("div", { id: "announcer", class: "sr-only", role: "status", "aria-live": "polite" });
    document.body.append(node);
  }
  return node;
}

/** Say `text` in the live region (a screen reader reads each addition when it is free; the
 * last few stay, so none is taken away before it was read). */
export function announce(/** @type {string} */ text) {
  const node = announcer();
  node.append(raw(text, "p"));
  while (node.childElementCount > 4) node.firstElementChild?.remove();
}
