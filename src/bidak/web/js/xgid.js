// @ts-check

/** @import { Board } from "./types.js" */
// Reading the XGID text the review gives for each decision, only to draw it (formats.md 3).
// XGID's board is the bottom player's view; in Bidak's XGIDs the bottom player is seat 1.
// Nothing is computed about the position: it is drawn as written.

const LETTERS = "ABCDEFGHIJKLMNOP";

function count(/** @type {string} */ char) {
  if (char === "-") return 0;
  const up = LETTERS.indexOf(char);
  if (up >= 0) return up + 1;
  const low = LETTERS.toLowerCase().indexOf(char);
  if (low >= 0) return -(low + 1);
  throw new Error(`bad XGID board character ${char}`);
}

/**
 * The board of `xgid` as seat `viewer` sees it: {points, bar, off}, plus dice and turn.
 * @param {string} xgid
 * @param {number} viewer
 * @returns {{ board: Board, dice: number[] | null, turn: number }}
 */
export function boardFromXgid(xgid, viewer) {
  const body = xgid.replace(/^XGID=/i, "");
  const fields = body.split(":");
  const counts = [...fields[0]].map(count);
  if (counts.length !== 26) throw new Error("an XGID board has 26 characters");
  // counts[1..24]: seat 1's points 1..24 (positive seat 1); counts[25]: seat 1's bar;
  // counts[0]: seat 0's bar (negative).
  let points, bar;
  if (viewer === 1) {
    points = counts.slice(1, 25);
    bar = [counts[25], -counts[0]];
  } else {
    points = Array.from({ length: 24 }, (_, i) => -counts[24 - i]);
    bar = [-counts[0], counts[25]];
  }
  const mine = points.reduce((a, n) => a + Math.max(n, 0), 0) + bar[0];
  const theirs = points.reduce((a, n) => a + Math.max(-n, 0), 0) + bar[1];
  const decision = fields[4] || "00";
  const dice = /^[1-6]{2}$/.test(decision) ? [Number(decision[0]), Number(decision[1])] : null;
  const turn = Number(fields[3]) === 1 ? 1 : 0;
  return { board: { points, bar, off: [15 - mine, 15 - theirs] }, dice, turn };
}
