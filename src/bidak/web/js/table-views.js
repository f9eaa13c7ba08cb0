// @ts-check
// What the table's state implies, read and never written: whether the viewer may play or roll by
// a tap now, the board with the steps made so far and the points each checker can reach, whether
// the play is whole, and the boards a play goes through (what the board animates).
import { applyMine, applyTheirs, BAR, cloneBoard, isComplete, OFF, options } from "./selection.js";

/** @import { Board, Options, Step, Table, TableView } from "./types.js" */

/**
 * One step of a play to animate: the board before and after it, in the viewer's numbering.
 * @typedef {{ before: Board, after: Board, start: number, end: number, mine: boolean, hit: boolean }} Frame
 */

/**
 * The boards a play goes through, step by step, in the viewer's numbering.
 * @param {Board} board
 * @param {Step[]} steps
 * @param {boolean} mine
 * @returns {Frame[]}
 */
export function framesOf(board, steps, mine) {
  const frames = [];
  let b = board;
  for (const [start, end, hit] of steps) {
    const next = mine ? applyMine(b, [start, end]) : applyTheirs(b, [start, end]);
    const flip = (/** @type {number} */ p) => (mine || p === BAR || p === OFF ? p : 25 - p);
    frames.push({ before: b, after: next, start: flip(start), end: flip(end), mine, hit: !!hit });
    b = next;
  }
  return frames;
}

/** @param {TableView} v */
export function myMove(v) {
  const tb = v.table;
  return (
    !!tb &&
    v.seat !== null &&
    tb.phase === "move" &&
    tb.turn === v.seat &&
    tb.allowed.includes("play") &&
    !v.sending &&
    !tb.autoplay[v.seat]
  );
}

/** Rolling (or rolling and doubling) is all that is left: a tap on the board rolls. */
/** @param {TableView} v */
export function tapRolls(v) {
  const tb = v.table;
  return (
    !!tb &&
    v.seat !== null &&
    tb.phase === "roll" &&
    tb.turn === v.seat &&
    tb.allowed.includes("roll") &&
    !v.sending &&
    !tb.autoplay[v.seat]
  );
}

/** The board with the steps made so far. */
/** @param {TableView} v */
export function currentBoard(v) {
  let b = cloneBoard(v.shown || boardOf(/** @type {Table} */ (v.table)));
  for (const step of v.made) b = applyMine(b, step);
  return b;
}

/** @param {TableView} v @returns {Options} */
export function currentOptions(v) {
  if (!myMove(v) || !v.table) return new Map();
  return options(v.table.legal_plays, v.made, currentBoard(v));
}

/** The steps made are a whole legal play. */
/** @param {TableView} v */
export function complete(v) {
  return isComplete(v.table ? v.table.legal_plays : [], v.made);
}

/** @param {Board} tb */
export function boardOf(tb) {
  return { points: [...tb.points], bar: [...tb.bar], off: [...tb.off] };
}
