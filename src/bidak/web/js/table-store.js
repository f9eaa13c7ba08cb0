// @ts-check
// The table's state, and the only place that changes it: the server's messages (snapshot,
// events, error) are applied here, in order (one queue), and so are the viewer's own steps of a
// play not yet sent (kept in sessionStorage for the same table version, so a reload in the
// middle of a turn keeps them). The server's `table` is the truth. Views subscribe and draw
// again on a change; what an event shows meanwhile (a toast, an animation) is the presenter's
// (table-events.js), awaited here between one event and the next.
// Over 400 lines since Biome formats one argument a line: the model and every change made to it
// are kept together on purpose, so that nothing else writes the table's state.
import {
  applyMine,
  applyTheirs,
  BAR,
  cloneBoard,
  consistentPlays,
  expandPlays,
  isComplete,
  OFF,
  options,
} from "./selection.js";
import { prefersReducedMotion } from "./ui.js";

/**
 * @import { Action, Arrow, Board, Change, Deadline, ErrorMessage, EventsMessage, HintState, LoggedEvent,
 *   MatchEvent, Options, ServerMessage, SnapshotMessage, Step, Table, TableView } from "./types.js"
 */

/**
 * One step of a play to animate: the board before and after it, in the viewer's numbering.
 * @typedef {{ before: Board, after: Board, start: number, end: number, mine: boolean, hit: boolean }} Frame
 */

/**
 * What the presenter is told of an event as it is applied: whose it was (`mine`: the viewer's,
 * or seat 0's for a spectator), whether the viewer sent this very play (`own`), whether a
 * timeout's toast told it already (`timedOut`), and a play's steps to animate.
 * @typedef {{ mine: boolean, own: boolean, timedOut: boolean, animate: boolean, frames: Frame[] }} Shown
 * @typedef {(event: MatchEvent, shown: Shown) => Promise<void>} Presenter
 */

const KNOWN_ERRORS = [
  "illegal",
  "stale",
  "busy",
  "not_started",
  "match_over",
  "not_seated",
  "rate_limited",
  "not_found",
];

/**
 * The store of one table. `present` shows an event (awaited before the next one);
 * `paintLooks()` colours the table for a snapshot's seats (awaited: the table is drawn in its
 * looks from the start); `onError(code)` says a refusal; `forward(message)` takes the room's other messages (talk,
 * rematch); `onMatchOver()` runs when a snapshot finds the match over.
 * @param {string} code
 * @param {{ present: Presenter, paintLooks: () => Promise<void>, onError: (code: string) => void, forward: (message: ServerMessage) => void,
 *   onMatchOver: () => void }} hooks
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

  // -- the server's messages ---------------------------------------------------------------------
  /** @param {ServerMessage} message */
  function receive(message) {
    if (message.type === "snapshot") {
      v.queue = v.queue.then(() => applySnapshot(message));
    } else if (message.type === "events") {
      v.queue = v.queue.then(() => applyEvents(message)).catch((e) => console.warn(e));
    } else if (message.type === "error") {
      applyError(message);
    } else {
      hooks.forward(message);
    }
  }

  /** @param {{ now?: number, deadline: Deadline | null }} message */
  function setClock(message) {
    if (typeof message.now === "number") v.offset = message.now - Date.now() / 1000;
    v.deadline = message.deadline || null;
  }

  /** @param {ErrorMessage} message */
  function applyError(message) {
    v.sending = false;
    v.ownPlay = null;
    hooks.onError(KNOWN_ERRORS.includes(message.code) ? message.code : "generic");
    if (message.code === "stale" || message.code === "illegal") {
      v.made = [];
      v.selected = null;
      saveMade();
    }
    emit("all");
  }

  /** @param {Table} table */
  function setTable(table) {
    v.table = { ...table, legal_plays: expandPlays(table.legal_plays) };
  }

  /** @param {SnapshotMessage} message */
  async function applySnapshot(message) {
    v.seat = message.seat;
    v.seats = message.seats || [];
    v.kind = message.kind;
    v.moveSeconds = message.move_seconds;
    v.match = message.match;
    setClock(message);
    for (const item of message.missed || []) addLog(item);
    await hooks.paintLooks();
    if (!message.table) {
      v.table = null;
      emit("all");
      return;
    }
    setTable(message.table);
    v.version = message.version;
    v.shown = boardOf(message.table);
    v.diceOverride = null;
    v.sending = false;
    v.ownPlay = null;
    restoreMade();
    emit("all");
    if (message.table.phase === "match_over") hooks.onMatchOver();
  }

  /** @param {EventsMessage} message */
  async function applyEvents(message) {
    if (message.match !== v.match || message.version <= v.version) return;
    const animate = !prefersReducedMotion();
    for (const item of message.events) {
      addLog(item);
      await applyEvent(item.event, animate);
    }
    setClock(message);
    setTable(message.table);
    v.version = message.version;
    v.shown = boardOf(message.table);
    v.diceOverride = null;
    if (v.ownPlay === null || message.table.phase !== "move") {
      v.made = [];
      v.selected = null;
    }
    v.ownPlay = null;
    v.sending = false;
    v.hint = null;
    v.hintArrows = null;
    saveMade();
    emit("all");
  }

  /** @param {LoggedEvent} item */
  function addLog(item) {
    v.log.push(item);
    if (v.log.length > 200) v.log.shift();
  }

  /**
   * What one event changes here; the presenter shows it meanwhile.
   * @param {MatchEvent} event
   * @param {boolean} animate
   */
  async function applyEvent(event, animate) {
    const mine = event.player === v.seat || (v.seat === null && event.player === 0);
    /** @type {Shown} */
    const shown = { mine, own: false, timedOut: false, animate, frames: [] };
    switch (event.type) {
      case "game_started":
        v.lastArrows = null;
        v.diceOverride = null;
        break;
      case "opening_rolled": {
        const [zero, one] = event.dice || [];
        const meFirst = (v.seat ?? 0) === 0;
        const faces = meFirst ? [zero, one] : [one, zero];
        v.diceOverride = {
          faces: faces.map((face) => ({ face, used: false })),
          side: event.starter === (v.seat ?? 0) ? "me" : "them",
        };
        emit("board");
        break;
      }
      case "dice_rolled":
        v.diceOverride = {
          faces: (event.dice || []).map((face) => ({ face, used: false })),
          side: mine ? "me" : "them",
        };
        emit("board");
        v.autoRolled = mine && !v.ownRoll && v.seat !== null;
        v.ownRoll = false;
        break;
      case "played":
        shown.own = mine && v.ownPlay !== null;
        shown.timedOut = v.timedOut === event.player;
        v.timedOut = null;
        if (shown.own) {
          v.lastArrows = null;
          break;
        }
        v.diceOverride = {
          faces: (event.dice || []).map((face) => ({ face, used: false })),
          side: mine ? "me" : "them",
        };
        v.selected = null;
        v.made = [];
        shown.frames = framesOf(v.shown || boardOf(/** @type {Table} */ (v.table)), event.steps || [], mine);
        await hooks.present(event, shown);
        v.shown = shown.frames.length
          ? shown.frames[shown.frames.length - 1].after
          : v.shown || boardOf(/** @type {Table} */ (v.table));
        if (!mine) {
          v.lastArrows = (event.steps || []).map(([s0, e0]) => ({
            from: s0 === BAR ? BAR : 25 - s0,
            to: e0 === OFF ? OFF : 25 - e0,
            kind: "last",
            mine: false,
            after: true,
          }));
        }
        if (!animate) emit("board");
        return;
      case "timed_out":
        v.timedOut = event.player ?? null;
        break;
      case "match_won":
        v.ended = event;
        break;
      default:
        break;
    }
    await hooks.present(event, shown);
  }

  /**
   * The boards a play goes through, step by step, in the viewer's numbering.
   * @param {Board} board
   * @param {Step[]} steps
   * @param {boolean} mine
   * @returns {Frame[]}
   */
  function framesOf(board, steps, mine) {
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

  // -- what the viewer may do now ------------------------------------------------------------------
  function myMove() {
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
  function tapRolls() {
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
  function currentBoard() {
    let b = cloneBoard(v.shown || boardOf(/** @type {Table} */ (v.table)));
    for (const step of v.made) b = applyMine(b, step);
    return b;
  }

  /** @returns {Options} */
  function currentOptions() {
    if (!myMove() || !v.table) return new Map();
    return options(v.table.legal_plays, v.made, currentBoard());
  }

  function complete() {
    return isComplete(v.table ? v.table.legal_plays : [], v.made);
  }

  // -- the viewer's own play, step by step -------------------------------------------------------------
  /** A tap (or a key) on point `p`: pick a checker, or move the picked one there. */
  function tap(/** @type {number} */ p) {
    if (!myMove() || !v.table) return;
    const opts = currentOptions();
    if (v.selected !== null) {
      const dests = opts.get(v.selected);
      const steps = dests?.get(p);
      if (p === v.selected) v.selected = null;
      else if (steps) {
        v.made.push(...steps);
        v.selected = null;
        v.cursor = null;
        saveMade();
        const after = currentOptions();
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
    saveMade();
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
    if (!myMove() || !complete() || !v.connection) return;
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
    if (v.sending || !v.connection) return;
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

  const madeKey = () => `bidak.made.${code}`;
  function saveMade() {
    if (v.made.length) sessionStorage.setItem(madeKey(), JSON.stringify({ version: v.version, made: v.made }));
    else sessionStorage.removeItem(madeKey());
  }
  function restoreMade() {
    v.made = [];
    v.selected = null;
    try {
      const saved = JSON.parse(sessionStorage.getItem(madeKey()) || "null");
      if (
        saved &&
        saved.version === v.version &&
        myMove() &&
        v.table &&
        consistentPlays(v.table.legal_plays, saved.made).length
      )
        v.made = saved.made;
    } catch {
      v.made = [];
    }
  }

  return {
    state: v,
    subscribe,
    emit,
    receive,
    myMove,
    tapRolls,
    currentBoard,
    currentOptions,
    complete,
    tap,
    undo,
    release,
    setCursor,
    submit,
    act,
    setHint,
  };
}

/** @typedef {ReturnType<typeof createTableStore>} TableStore */

/** @param {Board} tb */
export function boardOf(tb) {
  return { points: [...tb.points], bar: [...tb.bar], off: [...tb.off] };
}
