// @ts-check
// Answering a position on the board, shared by the daily drill (drill.js) and puzzles (puzzles.js):
// a checker question is answered by making one of its legal plays (tap a checker, then a point;
// Undo; "Check my play" sends the Position ID the play reaches), a cube question with its two
// buttons. The board is drawn from the side of the seat given with the position. Keys, as at the
// table: the arrow keys and Enter (or a point number, B bar, O off) to pick a checker and its
// point, U/Backspace undo, Esc let go, Enter send a whole play, S read the board (speech.js), T
// the field where a play is typed in notation (typed.js).
import { createBoard } from "./board.js";
import { button, h, tx } from "./dom.js";
import { t } from "./i18n.js";
import { applyMine, BAR, cloneBoard, isComplete, OFF, options, remainingSteps, usedDice } from "./selection.js";
import { announce, describe } from "./speech.js";
import { readPlay, typedField } from "./typed.js";
import { boardFromXgid } from "./xgid.js";

/** @import { Board, DrillPlay } from "./types.js" */

/**
 * @typedef {{ kind: "checker" | "cube", seat: number, xgid: string, dice: number[] | null,
 *   legal_plays: DrillPlay[] | null, decider: "doubler" | "taker" | null }} Question
 */

/**
 * @param {{ send: (answer: Record<string, string>) => void, redraw: () => void }} hooks
 */
export function createAnswering({ send, redraw }) {
  /** @type {{ question: Question | null, made: number[][], selected: number | null, done: boolean,
   *   cursor: number | null }} */
  const v = { question: null, made: [], selected: null, done: false, cursor: null };
  const board = createBoard({ onTarget: tap, label: t("board.label") });

  /** A new question (or none); `done`: answered, the board takes no more taps. */
  function show(/** @type {Question | null} */ question) {
    v.question = question;
    v.made = [];
    v.selected = null;
    v.done = false;
    v.cursor = null;
    typedText = "";
  }

  /** What was typed in the notation field, kept while the answer is drawn again. */
  let typedText = "";
  function typedPanel(/** @type {Question} */ question) {
    const field = typedField(
      typedText,
      (text) =>
        v.done
          ? null
          : readPlay(
              text,
              boardFromXgid(question.xgid, question.seat).board,
              question.legal_plays || [],
              question.dice || [],
            ),
      (play) => {
        typedText = "";
        v.made = play.steps.map((step) => [Number(step[0]), Number(step[1])]);
        v.selected = null;
        redraw();
        submitPlay();
      },
    );
    field.input.addEventListener("input", () => {
      typedText = field.input.value;
    });
    return field.form;
  }

  function finish() {
    v.done = true;
  }

  /** @returns {Board | null} the position with the steps made so far */
  function shown() {
    if (!v.question) return null;
    let b = cloneBoard(boardFromXgid(v.question.xgid, v.question.seat).board);
    for (const step of v.made) b = applyMine(b, step);
    return b;
  }

  const plays = () =>
    (v.question?.legal_plays || []).map((p) => ({ ...p, steps: p.steps.map((s) => [Number(s[0]), Number(s[1])]) }));

  function tap(/** @type {number} */ p) {
    const b = shown();
    if (!b || v.done || v.question?.kind !== "checker") return;
    const opts = options(/** @type {any} */ (plays()), v.made, b);
    if (v.selected !== null) {
      const steps = opts.get(v.selected)?.get(p);
      if (p === v.selected) v.selected = null;
      else if (steps) {
        v.made.push(...steps);
        v.selected = null;
      } else v.selected = opts.has(p) ? p : null;
    } else if (opts.has(p)) v.selected = p;
    redraw();
  }

  function submitPlay() {
    const found = plays().find((play) => {
      const left = remainingSteps(/** @type {any} */ (play), v.made);
      return left !== null && left.length === 0;
    });
    if (found) send({ type: "play", result: found.result });
  }

  /** Draw the board (call before putting `board.svg` in the page). */
  function render() {
    const b = shown();
    const question = v.question;
    if (!b || !question) return;
    const opts = v.done ? new Map() : options(/** @type {any} */ (plays()), v.made, b);
    board.render({
      board: b,
      movable: new Set(opts.keys()),
      selected: v.selected,
      dests: v.selected !== null ? opts.get(v.selected) || null : null,
      dice: question.dice ? { faces: usedDice(question.dice, v.made), side: "me" } : null,
      arrows: [],
    });
    board.svg.setAttribute("aria-label", `${t("board.label")}. ${sentences(b).join(". ")}`);
    for (const node of board.svg.querySelectorAll(".hit.cursor")) node.classList.remove("cursor");
    if (v.cursor !== null) board.svg.querySelector(`.hit[data-point="${v.cursor}"]`)?.classList.add("cursor");
  }

  /** The position in words (speech.js), the board's accessible name too. */
  function sentences(/** @type {Board} */ b) {
    const dice = v.question?.dice;
    return describe(b, { dice, diceMine: true });
  }

  // -- keys ----------------------------------------------------------------------------------
  let digits = "";
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let digitTimer;
  function onKey(/** @type {KeyboardEvent} */ event) {
    const target = /** @type {Element | null} */ (event.target);
    if (!board.svg.isConnected || target?.closest?.("input, textarea, select, .dialog, .sheet")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const b = shown();
    if (!b || v.done || v.question?.kind !== "checker") return;
    const k = event.key;
    const opts = options(/** @type {any} */ (plays()), v.made, b);
    if (k === "s" || k === "S") announce(sentences(b).join(". "));
    else if (k === "t" || k === "T") {
      const input = document.getElementById("typed-input");
      if (input) {
        event.preventDefault();
        input.focus();
      }
    } else if (k === "u" || k === "U" || k === "Backspace") {
      v.made.pop();
      v.selected = null;
      redraw();
    } else if (k === "Escape") {
      v.selected = null;
      v.cursor = null;
      redraw();
    } else if (k === "b" || k === "B") tap(BAR);
    else if (k === "o" || k === "O") tap(OFF);
    else if (/^[0-9]$/.test(k)) {
      digits += k;
      clearTimeout(digitTimer);
      const commit = () => {
        const n = Number(digits);
        digits = "";
        if (n >= 1 && n <= 24) tap(n);
      };
      if (Number(digits) * 10 > 24 || digits.length >= 2) commit();
      else digitTimer = setTimeout(commit, 650);
    } else if (k.startsWith("Arrow")) {
      const dests = v.selected !== null ? opts.get(v.selected) : undefined;
      const list = (dests ? [...dests.keys()] : [...opts.keys()]).sort((x, y) => y - x);
      if (!list.length) return;
      const i = v.cursor === null ? -1 : list.indexOf(v.cursor);
      const step = k === "ArrowLeft" || k === "ArrowUp" ? 1 : -1;
      v.cursor = list[(i + step + list.length) % list.length];
      event.preventDefault();
      redraw();
    } else if (k === "Enter" || k === " ") {
      if (target?.closest?.("button, a")) return; // the focused button's own press
      event.preventDefault();
      if (v.cursor !== null) {
        const c = v.cursor;
        v.cursor = null;
        tap(c);
      } else if (isComplete(/** @type {any} */ (plays()), v.made)) submitPlay();
    }
  }
  document.addEventListener("keydown", onKey);
  function stop() {
    document.removeEventListener("keydown", onKey);
    clearTimeout(digitTimer);
  }

  /** The question's words and its buttons. */
  function controls() {
    const question = /** @type {Question} */ (v.question);
    if (question.kind === "checker") {
      const complete = isComplete(/** @type {any} */ (plays()), v.made);
      return h(
        "div",
        { class: "drill-actions" },
        tx("drill.question.play", { dice: (question.dice || []).join("-") }, "p", { id: "drill-question" }),
        h(
          "div",
          { class: "row" },
          button(
            "drill.undo",
            () => {
              v.made.pop();
              v.selected = null;
              redraw();
            },
            { class: "btn ghost", id: "drill-undo", disabled: !v.made.length },
          ),
          button("drill.submit", submitPlay, { class: "btn primary", id: "drill-submit", disabled: !complete }),
        ),
        typedPanel(question),
      );
    }
    const choices = question.decider === "taker" ? ["take", "drop"] : ["double", "no_double"];
    return h(
      "div",
      { class: "drill-actions" },
      tx(`drill.question.${question.decider}`, null, "p", { id: "drill-question" }),
      h(
        "div",
        { class: "row" },
        choices.map((choice) =>
          button(`drill.${choice}`, () => send({ type: "cube", choice }), {
            class: "btn primary",
            id: `drill-${choice}`,
          }),
        ),
      ),
    );
  }

  return { board, show, finish, render, controls, stop };
}

/**
 * The card shown when nothing is left to answer (the drill's `drill-empty`, the puzzles'
 * `puzzle-empty`): a title, why, and the way back to the lobby.
 * @param {string} prefix the ids' start, `drill` or `puzzle`
 * @param {string} keys the catalog keys' start: `<keys>.none` and `<keys>.none_body`
 * @param {() => void} back
 */
export function nothingLeft(prefix, keys, back) {
  return h(
    "section",
    { class: "card", id: `${prefix}-empty` },
    tx(`${keys}.none`, null, "h2"),
    tx(`${keys}.none_body`, null, "p", { class: "muted" }),
    button("drill.back", back, { class: "btn primary", id: `${prefix}-back` }),
  );
}
