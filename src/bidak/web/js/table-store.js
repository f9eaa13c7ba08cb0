// @ts-check
// The table's state, and the only place that changes it: the server's messages are applied in
// order by its queue (table-queue.js), the viewer's own steps of a play not yet sent here (kept
// by table-made.js), and what the state implies is read through table-views.js. The server's
// `table` is the truth. Views subscribe and draw again on a change.
import { isComplete } from "./selection.js";
import { saveMade } from "./table-made.js";
import { createMessageQueue } from "./table-queue.js";
import { complete, currentBoard, currentOptions, myMove, tapRolls } from "./table-views.js";

/**
 * @import { Hooks } from "./table-queue.js"
 * @import { Action, Arrow, Change, HintState, TableView } from "./types.js"
 */

/** Intents the server applies whatever the table's version (docs/protocol.md, `stale`). */
const POSITION_FREE = new Set(["forfeit", "resign", "autoplay"]);

/**
 * The store of one table. `present` shows an event (awaited before the next one);
 * `paintLooks()` colours the table for a snapshot's seats (awaited: the table is drawn in its
 * looks from the start); `onError(code)` says a refusal; `forward(message)` takes the room's other messages (talk,
 * rematch); `onMatchOver()` runs when a snapshot finds the match over; `history(match, since)`
 * asks for the log's events after `since` (the move list before a snapshot).
 * @param {string} code
 * @param {Hooks} hooks
 */
export function createTableStore(code, hooks) {
  /** @type {TableView} */
  const v = {
    code,
    info: null,
    seat: null,
    seats: [],
    kind: null,
    moveSeconds: null,
    match: null,
    table: null,
    version: 0,
    deadline: null,
    offset: 0,
    shown: null,
    made: [],
    selected: null,
    cursor: null,
    queue: Promise.resolve(),
    log: [],
    hint: null,
    hintArrows: null,
    lastArrows: null,
    ownPlay: null,
    ownRoll: false,
    autoRolled: false,
    timedOut: null,
    sending: false,
    ended: null,
    matchOverShown: false,
    connection: null,
    status: "connecting",
    diceOverride: null,
  };
  /** @type {Set<(change: Change) => void>} */
  const listeners = new Set();

  /** @param {Change} change */
  function emit(change) {
    for (const listener of listeners) listener(change);
  }

  /** @param {(change: Change) => void} listener */
  function subscribe(listener) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }

  const receive = createMessageQueue(v, hooks, emit);

  // -- the viewer's own play, step by step -------------------------------------------------------------
  /** A tap (or a key) on point `p`: pick a checker, or move the picked one there. */
  function tap(/** @type {number} */ p) {
    if (!myMove(v) || !v.table) return;
    const opts = currentOptions(v);
    if (v.selected !== null) {
      const dests = opts.get(v.selected);
      const steps = dests?.get(p);
      if (p === v.selected) v.selected = null;
      else if (steps) {
        v.made.push(...steps);
        v.selected = null;
        v.cursor = null;
        saveMade(v);
        const after = currentOptions(v);
        if (after.size === 1 && !isComplete(v.table.legal_plays, v.made)) {
          v.selected = [...after.keys()][0];
        }
      } else if (opts.has(p)) v.selected = p;
      else v.selected = null;
    } else if (opts.has(p)) {
      v.selected = p;
    }
    emit("play");
  }

  function undo() {
    if (!v.made.length || v.sending) return;
    v.made.pop();
    v.selected = null;
    saveMade(v);
    emit("play");
  }

  /** Make the whole play `steps` at once (a play typed in notation, typed.js). */
  function setPlay(/** @type {number[][]} */ steps) {
    if (!myMove(v)) return;
    v.made = steps.map(([s0, e0]) => [s0, e0]);
    v.selected = null;
    v.cursor = null;
    saveMade(v);
    emit("play");
  }

  /** Let go of the picked checker and the keyboard's cursor. */
  function release() {
    v.selected = null;
    v.cursor = null;
    emit("play");
  }

  /** @param {number | null} point */
  function setCursor(point) {
    v.cursor = point;
  }

  /** Send the play made, once it is a whole legal play. */
  function submit() {
    if (!myMove(v) || !complete(v) || !v.connection) return;
    const steps = v.made.map(([s0, e0]) => [s0, e0]);
    v.ownPlay = steps;
    v.sending = true;
    v.selected = null;
    v.connection.intent({ type: "play", steps }, v.version);
    emit("controls");
  }

  /**
   * Any other action (roll, double, take, resign...).
   * @param {string} type
   * @param {Omit<Action, "type">} [extra]
   */
  function act(type, extra = {}) {
    // Resigning does not depend on the position: it goes even while another intent is on its
    // way (the server never refuses it as stale either), instead of a press that does nothing.
    if ((v.sending && !POSITION_FREE.has(type)) || !v.connection) return;
    if (type === "roll") v.ownRoll = true;
    if (type !== "autoplay") v.sending = true; // until the table answers (no double sends)
    v.connection.intent({ type, ...extra }, v.version);
    emit("controls");
  }

  /** @param {HintState | null} hint @param {Arrow[] | null} arrows */
  function setHint(hint, arrows) {
    v.hint = hint;
    v.hintArrows = arrows;
    emit("hint");
  }

  return {
    state: v,
    subscribe,
    emit,
    receive,
    myMove: () => myMove(v),
    tapRolls: () => tapRolls(v),
    currentBoard: () => currentBoard(v),
    currentOptions: () => currentOptions(v),
    complete: () => complete(v),
    tap,
    undo,
    release,
    setPlay,
    setCursor,
    submit,
    act,
    setHint,
  };
}

/** @typedef {ReturnType<typeof createTableStore>} TableStore */
