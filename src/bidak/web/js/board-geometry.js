// @ts-check
// The board's geometry, in its own units, from the viewer's side: their home board bottom right
// (points 1-6), the opponent's home board top right (their 1-6 = the viewer's 19-24), bar in the
// middle, trays on the right; where each checker sits or lands. board-draw.js draws with it,
// board-taps.js reads a tap with it and board.js animates with it.
import { BAR, OFF } from "./selection.js";

/** @import { Board } from "./types.js" */
/** @typedef {{ x: number, y: number }} At a place on the board, in its own units */

export const G = (() => {
  const F = 14,
    FT = 36,
    PW = 66,
    BARW = 64,
    TRAY = 84,
    R = 30;
  const xL = F,
    xBar = xL + 6 * PW,
    xR = xBar + BARW,
    xEnd = xR + 6 * PW;
  const xTray = xEnd + F,
    W = xTray + TRAY + F;
  const top = FT,
    H = 728,
    bottom = H - FT,
    mid = H / 2;
  return {
    F,
    FT,
    PW,
    BARW,
    TRAY,
    R,
    xL,
    xBar,
    xR,
    xEnd,
    xTray,
    W,
    top,
    H,
    bottom,
    mid,
    barX: xBar + BARW / 2,
    trayX: xTray + TRAY / 2,
    half: (bottom - top) / 2,
    tri: 278,
    slab: 12,
  };
})();

/** Column centre and whether the point is on the bottom row (viewer's numbering). */
export function pointX(/** @type {number} */ p) {
  if (p <= 6) return { x: G.xR + (6 - p) * G.PW + G.PW / 2, low: true };
  if (p <= 12) return { x: G.xL + (12 - p) * G.PW + G.PW / 2, low: true };
  if (p <= 18) return { x: G.xL + (p - 13) * G.PW + G.PW / 2, low: false };
  return { x: G.xR + (p - 19) * G.PW + G.PW / 2, low: false };
}

function spacing(/** @type {number} */ count) {
  const room = G.half - 8 - 2 * G.R;
  return count <= 5 ? 2 * G.R : Math.min(2 * G.R, room / (count - 1));
}

/** Centre of the k-th checker (0 = at the edge) of a stack of `count` on point p. */
/** @param {number} p @param {number} k @param {number} [count] @returns {At} */
export function checkerAt(p, k, count = k + 1) {
  const { x, low } = pointX(p);
  const d = spacing(Math.max(count, k + 1));
  return { x, y: low ? G.bottom - G.R - k * d : G.top + G.R + k * d };
}

/** Centre of the k-th checker on the bar, `mine` below the middle, the opponent's above. */
/** @param {boolean} mine @param {number} k @returns {At} */
export function barAt(mine, k) {
  const d = 2 * G.R - 4;
  return { x: G.barX, y: mine ? G.mid + 44 + G.R + k * d : G.mid - 44 - G.R - k * d };
}

/** @param {boolean} mine @param {number} k @returns {At} */
export function trayAt(mine, k) {
  const y = mine ? G.bottom - 10 - (k + 1) * G.slab : G.top + 10 + k * G.slab;
  return { x: G.trayX, y: y + G.slab / 2 };
}

/** Where a checker of `mine` sits or lands at `point` (25 bar, 0 off) given the board. */
/** @param {Board} board @param {number} point @param {boolean} mine @returns {At} */
export function landing(board, point, mine, arriving = true) {
  if (point === BAR) return barAt(mine, Math.max(0, board.bar[mine ? 0 : 1] - (arriving ? 0 : 1)));
  if (point === OFF) return trayAt(mine, Math.max(0, board.off[mine ? 0 : 1] - (arriving ? 0 : 1)));
  const n = Math.abs(board.points[point - 1]);
  const own = mine ? board.points[point - 1] > 0 : board.points[point - 1] < 0;
  const k = arriving ? (own ? n : 0) : Math.max(0, n - 1);
  return checkerAt(point, k, arriving ? k + 1 : n);
}
