// @ts-check
// Building a play step by step from the server's `legal_plays` (rules.md 10). Nothing here
// decides legality: a step is offered only if some legal play of the roll contains it, given the
// steps made so far. Points are the player's own numbering: 25 = bar, 0 = off.

/**
 * @import { Board, Die, LegalPlay, Options, Step } from "./types.js"
 * @typedef {number[]} Pair a step made here, `[start, end]`
 */

export const BAR = 25;
export const OFF = 0;

const key = (/** @type {Pair | Step} */ step) => `${step[0]}/${step[1]}`;

/**
 * The server lists each legal play once, with `alternatives` when several sets of steps reach
 * the same position (24/18/13 or 24/19/13): every way becomes an entry of its own here, so any
 * of them can be built by tapping.
 * @param {LegalPlay[] | null | undefined} plays
 * @returns {LegalPlay[]}
 */
export function expandPlays(plays) {
  const expanded = [];
  for (const play of plays || []) {
    expanded.push(play);
    for (const steps of play.alternatives || []) {
      const same =
        steps.length === play.steps.length &&
        steps.every((step, i) => step[0] === play.steps[i][0] && step[1] === play.steps[i][1]);
      if (!same) expanded.push({ ...play, steps });
    }
  }
  return expanded;
}

/**
 * The steps of `play` left after `made` (a multiset difference), or null if `made` does not fit.
 * @param {LegalPlay} play
 * @param {Pair[]} made
 * @returns {Pair[] | null}
 */
export function remainingSteps(play, made) {
  const left = play.steps.map((step) => [step[0], step[1]]);
  for (const step of made) {
    const index = left.findIndex((s) => s[0] === step[0] && s[1] === step[1]);
    if (index < 0) return null;
    left.splice(index, 1);
  }
  return left;
}

/** Legal plays that contain every step made so far. */
export function consistentPlays(/** @type {LegalPlay[]} */ plays, /** @type {Pair[]} */ made) {
  return plays.filter((play) => remainingSteps(play, made) !== null);
}

/** Whether the steps made so far are a whole legal play (OK may be pressed). */
export function isComplete(/** @type {LegalPlay[]} */ plays, /** @type {Pair[]} */ made) {
  return plays.some((play) => play.steps.length === made.length && remainingSteps(play, made));
}

function hasChecker(/** @type {Board} */ board, /** @type {number} */ point) {
  return point === BAR ? board.bar[0] > 0 : point >= 1 && point <= 24 && board.points[point - 1] > 0;
}

/**
 * What can be moved now: Map(start -> Map(end -> steps)), where `steps` is the shortest list of
 * steps that carries one checker from start to end (two or more steps when only the combined
 * destination is tapped).
 * @param {LegalPlay[]} plays
 * @param {Pair[]} made
 * @param {Board} board
 * @returns {Options}
 */
export function options(plays, made, board) {
  /** @type {Options} */
  const result = new Map();
  const add = (/** @type {number} */ start, /** @type {number} */ end, /** @type {Pair[]} */ steps) => {
    let ends = result.get(start);
    if (!ends) {
      ends = new Map();
      result.set(start, ends);
    }
    const known = ends.get(end);
    if (!known || known.length > steps.length) ends.set(end, steps);
  };
  for (const play of plays) {
    const left = remainingSteps(play, made);
    if (!left || left.length === 0) continue;
    /** @type {(start: number, at: number, path: Pair[], unused: Pair[]) => void} */
    const walk = (start, at, path, unused) => {
      for (let i = 0; i < unused.length; i += 1) {
        const step = unused[i];
        if (step[0] !== at) continue;
        const next = [...path, step];
        add(start, step[1], next);
        if (step[1] !== OFF)
          walk(
            start,
            step[1],
            next,
            unused.filter((_, j) => j !== i),
          );
      }
    };
    const starts = new Set(left.map((step) => step[0]).filter((p) => hasChecker(board, p)));
    for (const start of starts) walk(start, start, [], left);
  }
  return result;
}

/** A copy of `board` (viewer's side) after one step of the viewer's checker (display only). */
export function applyMine(/** @type {Board} */ board, /** @type {Pair} */ step) {
  const next = cloneBoard(board);
  const [start, end] = step;
  if (start === BAR) next.bar[0] -= 1;
  else next.points[start - 1] -= 1;
  if (end === OFF) next.off[0] += 1;
  else {
    if (next.points[end - 1] === -1) {
      next.points[end - 1] = 0;
      next.bar[1] += 1;
    }
    next.points[end - 1] += 1;
  }
  return next;
}

/** A copy of `board` after one step of the opponent, given in the opponent's numbering. */
export function applyTheirs(/** @type {Board} */ board, /** @type {Pair} */ step) {
  const next = cloneBoard(board);
  const [start, end] = step.map((p) => (p === BAR || p === OFF ? p : 25 - p));
  if (start === BAR) next.bar[1] -= 1;
  else next.points[start - 1] += 1;
  if (end === OFF) next.off[1] += 1;
  else {
    if (next.points[end - 1] === 1) {
      next.points[end - 1] = 0;
      next.bar[0] += 1;
    }
    next.points[end - 1] -= 1;
  }
  return next;
}

/** @param {Board} board @returns {Board} */
export function cloneBoard(board) {
  return { points: [...board.points], bar: [...board.bar], off: [...board.off] };
}

/**
 * Which dice the steps made so far have used (display only: exact distances first).
 * @param {number[] | null} dice
 * @param {Pair[]} made
 * @returns {Die[]}
 */
export function usedDice(dice, made) {
  if (!dice) return [];
  const faces = dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : [...dice];
  const used = faces.map(() => false);
  const distances = made.map(([s, e]) => (s === BAR ? 25 : s) - e);
  const pending = [];
  for (const d of distances) {
    const i = faces.findIndex((f, j) => !used[j] && f === d);
    if (i >= 0) used[i] = true;
    else pending.push(d);
  }
  for (const d of pending) {
    let best = -1;
    faces.forEach((f, j) => {
      if (!used[j] && f >= d && (best < 0 || f < faces[best])) best = j;
    });
    if (best >= 0) used[best] = true;
  }
  return faces.map((face, i) => ({ face, used: used[i] }));
}

export { key as stepKey };
