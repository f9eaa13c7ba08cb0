// @ts-check
// The table's board: what it shows of the store (the position with the steps made, the
// checkers that can move, the points they reach, the dice, the cube, the hint's or the last
// move's arrows), the table's looks, the animation of a play, and taps: a tap counts only on
// the table it began on, and rolls when rolling is all that is left.
import { createBoard } from "./board.js";
import { t } from "./i18n.js";
import { applyLooks } from "./looks.js";
import { usedDice } from "./selection.js";
import { boardText, describe, fill } from "./speech.js";
import { nameOf } from "./table-names.js";

/**
 * @import { Board, BoardState } from "./types.js"
 * @import { TableStore } from "./table-store.js"
 * @import { Frame } from "./table-views.js"
 */

const STEP_MS = 300;

/**
 * @param {TableStore} store
 * @param {{ tapHint: () => HTMLElement, looksHost: () => HTMLElement }} where the "tap to roll"
 *   line and the element the looks are set on (both drawn again on a change of language)
 */
export function createBoardView(store, where) {
  const v = store.state;
  const board = createBoard({
    onTarget: (p) => {
      if (pressedOn === v.version) store.tap(p);
    },
    label: t("board.label"),
  });

  // A tap on the board counts only on the table it began on: `pressedOn` is the version at
  // pointerdown, so a tap started just before the table changed (the dice came, the opponent
  // played) neither picks a checker nor rolls.
  /** @type {number | null} */
  let pressedOn = null;
  board.svg.addEventListener("pointerdown", (event) => {
    pressedOn = event.isPrimary ? v.version : null;
  });
  board.svg.addEventListener("click", () => {
    if (pressedOn === v.version && store.tapRolls()) store.act("roll"); // never a double
  });

  /** @param {Board} b @returns {BoardState} */
  function boardState(b) {
    const tb = v.table;
    const opts = store.currentOptions();
    const dests = v.selected !== null ? opts.get(v.selected) || null : null;
    let dice = null;
    if (v.diceOverride) dice = v.diceOverride;
    else if (tb?.dice) {
      const mine = tb.turn === (v.seat ?? 0);
      dice = {
        faces: mine && v.seat !== null ? usedDice(tb.dice, v.made) : usedDice(tb.dice, []),
        side: mine ? /** @type {const} */ ("me") : /** @type {const} */ ("them"),
      };
    }
    const viewer = tb ? tb.viewer : 0;
    const cube = tb?.cube.in_use
      ? {
          value: tb.cube.value,
          where:
            tb.cube.owner === null
              ? /** @type {const} */ ("center")
              : tb.cube.owner === viewer
                ? /** @type {const} */ ("me")
                : /** @type {const} */ ("them"),
          offered: tb.cube.offered,
        }
      : null;
    const arrows = v.hintArrows || (v.made.length ? null : v.lastArrows);
    return {
      board: b,
      movable: new Set(opts.keys()),
      selected: v.selected,
      dests,
      dice,
      cube,
      arrows: arrows || [],
      cursor: v.cursor,
    };
  }

  /** The board in words (speech.js), as it stands with the steps made so far. */
  const text = boardText();
  function lines() {
    const tb = v.table;
    if (!tb) return [];
    const state = boardState(store.currentBoard());
    const mine = tb.viewer;
    const words = describe(state.board, {
      dice: state.dice ? tb.dice : null,
      diceMine: state.dice?.side === "me",
      cube: state.cube,
      score: [tb.score[mine], tb.score[1 - mine]],
      length: tb.length,
    });
    // A spectator sees the board from seat 0's side: say whose "yours" is.
    return v.seat === null ? [t("sr.watching", { name: nameOf(v, mine) }), ...words] : words;
  }

  function render() {
    if (!v.table) return;
    board.render(boardState(store.currentBoard()));
    text.setAttribute("aria-label", t("sr.board"));
    fill(text, lines());
    board.svg.dataset.turn = String(v.table.turn ?? "");
    board.svg.dataset.phase = v.table.phase;
    board.svg.dataset.version = String(v.version);
    board.svg.dataset.made = v.made.map((s0) => s0.join("/")).join(" ");
    board.svg.classList.toggle("tap-roll", store.tapRolls());
    where.tapHint().classList.toggle("hidden", !store.tapRolls());
  }

  /** The viewer's board theme and each seat's checkers (the viewer's seat, or seat 0, is "me"). */
  async function paintLooks() {
    board.setTexture(await applyLooks(where.looksHost(), v.seats, v.seat));
  }

  /** The keyboard's cursor on the point it stands on. */
  function markCursor() {
    for (const node of board.svg.querySelectorAll(".hit.cursor")) node.classList.remove("cursor");
    if (v.cursor !== null) {
      const node = board.svg.querySelector(`.hit[data-point="${v.cursor}"]`);
      if (node) node.classList.add("cursor");
    }
  }

  /** Play the steps of a play that the viewer did not make here, one by one. */
  async function animate(/** @type {Frame[]} */ frames, /** @type {boolean} */ slowly) {
    for (const frame of frames) {
      board.render(boardState(frame.before));
      await board.animateStep(frame.before, frame.after, frame, slowly ? STEP_MS : 0);
    }
  }

  return { svg: board.svg, text, lines, render, paintLooks, markCursor, animate };
}

/** @typedef {ReturnType<typeof createBoardView>} BoardView */
