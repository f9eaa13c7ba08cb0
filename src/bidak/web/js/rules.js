// @ts-check
// The rules, readable at any time (rules.md 10), with step-by-step examples on partial boards
// drawn by the same SVG board component as the table; then strategy tips, beginner mistakes
// (the same position twice: the mistaken play, then the better one) and questions players ask.
import { createBoard } from "./board.js";
import { button, clear, h, raw, tx } from "./dom.js";
import { onLanguage, t } from "./i18n.js";
import { BAR, OFF } from "./selection.js";

/**
 * @import { Arrow, Board, DiceShown } from "./types.js"
 * @typedef {{ board: Board, dice: DiceShown | null, arrows: Arrow[], text: string, theirs?: boolean, bearoffArrow?: boolean }} Frame
 *   one picture of an example, with the text under it
 * @typedef {{ key: string, frames: Frame[] }} Example
 * @typedef {{ id: string, board?: Board, dice?: number[], wrong?: Arrow[], right?: Arrow[] }} Mistake
 */

/** @returns {number[]} */
const empty = () => Array(24).fill(0);
/**
 * A board from the reader's side: point -> checkers, the reader's and the opponent's.
 * @param {Record<number, number>} mine
 * @param {Record<number, number>} [theirs]
 */
function board(mine, theirs = {}, bar = [0, 0], off = [0, 0]) {
  const points = empty();
  for (const [p, n] of Object.entries(mine)) points[Number(p) - 1] = n;
  for (const [p, n] of Object.entries(theirs)) points[Number(p) - 1] = -n;
  return { points, bar, off };
}
/** @param {number} a @param {number} b @param {number[]} [used] @returns {DiceShown} */
const dice = (a, b, used = []) => ({ side: "me", faces: [a, b].map((face, i) => ({ face, used: used.includes(i) })) });
/** @param {number} a @param {number} b @returns {DiceShown} */
const theirDice = (a, b) => ({ side: "them", faces: [a, b].map((face) => ({ face, used: false })) });

/**
 * Each example: frames of {board, dice, arrows, text key}. Positions from the reader's side.
 * @type {Example[]}
 */
export const EXAMPLES = [
  {
    key: "ex.run",
    frames: [
      {
        board: board({ 24: 2, 13: 5 }, { 19: 5, 17: 3 }),
        dice: dice(6, 5),
        arrows: [
          { from: 24, to: 18 },
          { from: 18, to: 13 },
        ],
        text: "ex.run.1",
      },
      {
        board: board({ 24: 1, 18: 1, 13: 5 }, { 19: 5, 17: 3 }),
        dice: dice(6, 5, [0]),
        arrows: [{ from: 18, to: 13 }],
        text: "ex.run.2",
      },
      { board: board({ 24: 1, 13: 6 }, { 19: 5, 17: 3 }), dice: dice(6, 5, [0, 1]), arrows: [], text: "ex.run.3" },
    ],
  },
  {
    key: "ex.hit",
    frames: [
      {
        board: board({ 13: 3, 6: 3, 5: 2 }, { 9: 1, 19: 4, 17: 3 }),
        dice: dice(4, 1),
        arrows: [
          { from: 13, to: 9 },
          { from: 6, to: 5 },
        ],
        text: "ex.hit.1",
      },
      {
        board: board({ 13: 2, 9: 1, 6: 2, 5: 3 }, { 19: 4, 17: 3 }, [0, 1]),
        dice: dice(4, 1, [0, 1]),
        arrows: [],
        text: "ex.hit.2",
      },
      {
        board: board({ 13: 2, 9: 1, 6: 2, 5: 3 }, { 19: 4, 17: 3 }, [0, 1]),
        dice: theirDice(5, 3),
        arrows: [{ from: 25, to: 22, mine: false }],
        text: "ex.hit.3",
        theirs: true,
      },
      {
        board: board({ 13: 2, 9: 1, 6: 2, 5: 3 }, { 19: 4, 17: 3, 3: 1 }),
        dice: theirDice(5, 3),
        arrows: [],
        text: "ex.hit.4",
      },
    ],
  },
  {
    key: "ex.bearoff",
    frames: [
      {
        board: board({ 5: 1, 4: 2, 2: 2 }, { 20: 3, 21: 4 }, [0, 0], [10, 8]),
        dice: dice(6, 3),
        arrows: [],
        text: "ex.bearoff.1",
      },
      {
        board: board({ 4: 2, 2: 2 }, { 20: 3, 21: 4 }, [0, 0], [11, 8]),
        dice: dice(6, 3, [0]),
        arrows: [{ from: 4, to: 1 }],
        text: "ex.bearoff.2",
      },
      {
        board: board({ 4: 1, 2: 2, 1: 1 }, { 20: 3, 21: 4 }, [0, 0], [11, 8]),
        dice: dice(6, 3, [0, 1]),
        arrows: [],
        text: "ex.bearoff.3",
      },
    ],
  },
];

const START = { 24: 2, 13: 5, 8: 3, 6: 5 };
const START_THEIRS = { 1: 2, 12: 5, 17: 3, 19: 5 };

/**
 * A tip's picture: one frame, no steps.
 * @type {Record<string, Frame>}
 */
export const TIP_BOARDS = {
  "tip.prime": {
    board: board({ 13: 3, 9: 2, 8: 2, 7: 2, 6: 2, 5: 2, 4: 2 }, { 2: 1, 17: 2, 19: 5, 20: 4, 21: 3 }),
    dice: null,
    arrows: [],
    text: "tip.prime.caption",
  },
};

/**
 * Beginner mistakes: full positions whose ranking the engine confirms (bidak hint, 2-ply):
 * `wrong` (dashed arrows) against `right` (gold arrows), or a notation example when `board` is
 * absent. Steps are in the reader's numbering.
 * @type {Mistake[]}
 */
export const MISTAKES = [
  {
    id: "mistake.point",
    board: board(START, START_THEIRS),
    dice: [3, 1], // 8/5 6/5 +0.233, 13/9 -0.031
    wrong: [{ from: 13, to: 9 }],
    right: [
      { from: 8, to: 5 },
      { from: 6, to: 5 },
    ],
  },
  {
    id: "mistake.stack",
    board: board(START, START_THEIRS),
    dice: [5, 2], // 13/11 13/8 -0.005, 8/6 8/3 -0.336
    wrong: [
      { from: 8, to: 6 },
      { from: 8, to: 3 },
    ],
    right: [
      { from: 13, to: 11 },
      { from: 13, to: 8 },
    ],
  },
  {
    id: "mistake.hit",
    board: board(START, { 1: 1, 5: 1, 12: 4, 15: 1, 17: 3, 19: 5 }),
    dice: [3, 1], // 8/5* 6/5 +0.288, 24/23 24/21 -0.260
    wrong: [
      { from: 24, to: 21 },
      { from: 24, to: 23 },
    ],
    right: [
      { from: 8, to: 5 },
      { from: 6, to: 5 },
    ],
  },
  {
    id: "mistake.bearoff",
    board: board({ 6: 3, 5: 3, 4: 3, 3: 2, 2: 2 }, { 1: 2, 19: 4, 20: 4, 21: 3, 22: 2 }, [0, 0], [2, 0]),
    dice: [6, 3], // 6/off 5/2 1.064, 6/off 3/off 0.656
    wrong: [
      { from: 6, to: OFF },
      { from: 3, to: OFF },
    ],
    right: [
      { from: 6, to: OFF },
      { from: 5, to: 2 },
    ],
  },
  { id: "mistake.bar" },
  { id: "mistake.drop" },
];

/** @param {Frame} frame @returns {Arrow[]} */
function arrowsOf(frame) {
  // Arrows of the opponent are given in their own numbering.
  return frame.arrows.map((a) =>
    a.mine === false
      ? { from: a.from === BAR ? BAR : 25 - a.from, to: a.to === OFF ? OFF : 25 - a.to, kind: "hint", mine: false }
      : { kind: "hint", ...a, mine: true },
  );
}

function example(/** @type {Example} */ spec) {
  const view = createBoard({ label: t(`${spec.key}.title`) });
  let index = 0;
  const caption = h("p", { class: "ex-caption" });
  const counter = h("span", { class: "ex-counter" });
  const prev = button("btn.prev", () => go(index - 1), { class: "btn small" });
  const next = button("btn.next", () => go(index + 1), { class: "btn small primary" });
  function go(/** @type {number} */ i) {
    index = Math.max(0, Math.min(spec.frames.length - 1, i));
    const frame = spec.frames[index];
    const arrows = frame.bearoffArrow ? [] : arrowsOf(frame);
    if (spec.key === "ex.bearoff" && index === 0) arrows.push({ from: 5, to: OFF, kind: "hint", mine: true });
    view.render({ board: frame.board, dice: frame.dice, arrows, labels: true });
    clear(caption).append(tx(frame.text));
    clear(counter).append(raw(`${index + 1} / ${spec.frames.length}`));
    prev.disabled = index === 0;
    next.disabled = index === spec.frames.length - 1;
  }
  go(0);
  return h(
    "figure",
    { class: "example", "data-example": spec.key },
    tx(`${spec.key}.title`, null, "h4"),
    view.svg,
    caption,
    h("div", { class: "ex-nav" }, prev, counter, next),
  );
}

/** A still picture (a tip's) drawn like the examples. */
function still(/** @type {Frame} */ frame, /** @type {string} */ label) {
  const view = createBoard({ label: t(label) });
  view.render({ board: frame.board, dice: frame.dice, arrows: arrowsOf(frame), labels: true });
  return h("figure", { class: "example still" }, view.svg, tx(frame.text, null, "figcaption", { class: "ex-caption" }));
}

function tips() {
  const keys = ["tip.points", "tip.prime", "tip.run", "tip.bearoff", "tip.pips", "tip.cube", "tip.blots"];
  return h(
    "section",
    { class: "rules-section", id: "rules-tips" },
    tx("rules.tips.title", null, "h3"),
    ...keys.map((k) =>
      h(
        "div",
        { class: "tip", "data-tip": k },
        tx(`${k}.title`, null, "h4"),
        tx(`${k}.body`, null, "p"),
        TIP_BOARDS[k] ? still(TIP_BOARDS[k], `${k}.title`) : null,
      ),
    ),
  );
}

function mistake(/** @type {Mistake} */ m) {
  const { board: position, dice: roll, wrong, right } = m;
  if (!position || !roll || !wrong || !right) {
    return h(
      "figure",
      { class: "example mistake", "data-mistake": m.id },
      tx(`${m.id}.title`, null, "h4"),
      tx(`${m.id}.body`, null, "p"),
      tx(`${m.id}.example`, null, "pre", { class: "notation-example" }),
    );
  }
  const dice2 = (/** @type {number[]} */ used) => dice(roll[0], roll[1], used);
  const node = example({
    key: m.id,
    frames: [
      { board: position, dice: dice2([]), arrows: wrong.map((a) => ({ ...a, kind: "last" })), text: `${m.id}.wrong` },
      { board: position, dice: dice2([]), arrows: right, text: `${m.id}.right` },
    ],
  });
  node.classList.add("mistake");
  node.dataset.mistake = m.id;
  node.insertBefore(tx(`${m.id}.body`, null, "p"), node.querySelector("svg"));
  return node;
}

function faq() {
  const keys = ["faq.forced", "faq.illegal", "faq.crawford", "faq.dice", "faq.coins", "faq.account", "faq.undo"];
  return h(
    "section",
    { class: "rules-section", id: "rules-faq" },
    tx("rules.faq.title", null, "h3"),
    ...keys.map((k) =>
      h("details", { class: "faq", "data-faq": k }, tx(`${k}.q`, null, "summary"), tx(`${k}.a`, null, "p")),
    ),
  );
}

function section(/** @type {string} */ title, /** @type {string[]} */ keys) {
  return h("section", { class: "rules-section" }, tx(title, null, "h3"), ...keys.map((k) => tx(k, null, "p")));
}

function content() {
  const range = (/** @type {string} */ prefix, /** @type {number} */ n) =>
    Array.from({ length: n }, (_, i) => `${prefix}.${i + 1}`);
  return h(
    "div",
    { class: "rules-body" },
    tx("rules.intro", null, "p", { class: "lead" }),
    section("rules.basics.title", range("rules.basics", 11)),
    h(
      "section",
      { class: "rules-section" },
      tx("rules.examples.title", null, "h3"),
      tx("rules.examples.note", null, "p", { class: "muted small" }),
      ...EXAMPLES.map(example),
    ),
    section("rules.scoring.title", range("rules.scoring", 5)),
    section("rules.cube.title", range("rules.cube", 4)),
    section("rules.controls.title", range("rules.controls", 6)),
    section("rules.account.title", range("rules.account", 3)),
    tips(),
    h(
      "section",
      { class: "rules-section", id: "rules-mistakes" },
      tx("rules.mistakes.title", null, "h3"),
      tx("rules.mistakes.note", null, "p", { class: "muted small" }),
      ...MISTAKES.map(mistake),
    ),
    faq(),
  );
}

/** @type {{ backdrop: HTMLElement, off: () => void, onKey: (e: KeyboardEvent) => void } | null} */
let open = null;

export function openRules() {
  if (open) return;
  const body = h("div", { class: "sheet-scroll" });
  const head = h("header", { class: "sheet-head" });
  const sheet = h(
    "div",
    { class: "sheet", role: "dialog", "aria-modal": "true", id: "rules-sheet", tabIndex: -1 },
    head,
    body,
  );
  const backdrop = h("div", { class: "backdrop sheet-backdrop" }, sheet);
  backdrop.addEventListener("click", (e) => e.target === backdrop && closeRules());
  const onKey = (/** @type {KeyboardEvent} */ e) => {
    if (e.key === "Escape") {
      e.stopPropagation();
      closeRules();
    }
  };
  document.addEventListener("keydown", onKey, true);
  const draw = () => {
    clear(head).append(
      tx("rules.title", null, "h2"),
      button("btn.close", () => closeRules(), { class: "btn ghost small", id: "close-rules" }),
    );
    clear(body).append(content());
  };
  const off = onLanguage(draw);
  draw();
  document.body.append(backdrop);
  sheet.focus();
  open = { backdrop, off, onKey };
}

export function closeRules() {
  if (!open) return;
  open.backdrop.remove();
  open.off();
  document.removeEventListener("keydown", open.onKey, true);
  open = null;
}
