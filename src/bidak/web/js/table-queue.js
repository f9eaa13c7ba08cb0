// @ts-check
// The table's queue of the server's messages: a snapshot, events and errors are applied to the
// state in the order they came (one promise chain), each event awaited while the presenter
// (table-events.js) shows it (a toast, a play's animation); other messages (talk, rematch) are
// passed on. The server's `table` is the truth: after events the table is the one they end at.

import { tx } from "./dom.js";
import { BAR, expandPlays, OFF } from "./selection.js";
import { reducedMotion } from "./settings.js";
import { restoreMade, saveMade } from "./table-made.js";
import { boardOf, framesOf } from "./table-views.js";
import { toast } from "./ui.js";

/**
 * @import { Arrow, Change, ErrorMessage, EventsMessage, Deadline, LoggedEvent, MatchEvent, ServerMessage, SnapshotMessage,
 *   Step, Table, TableView } from "./types.js"
 * @import { Frame } from "./table-views.js"
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
  "muted",
];

/**
 * Hooks: see createTableStore.
 * @typedef {{ present: Presenter, paintLooks: () => Promise<void>, onError: (code: string) => void,
 *   forward: (message: ServerMessage) => void, onMatchOver: () => void,
 *   history: (match: string, since: number) => Promise<LoggedEvent[]> }} Hooks
 */

/**
 * `receive(message)` for the state `v`; `emit(change)` tells the views.
 * @param {TableView} v
 * @param {Hooks} hooks
 * @param {(change: Change) => void} emit
 */
export function createMessageQueue(v, hooks, emit) {
  let told = false; // what happened since the viewer last looked is said once per page
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
      saveMade(v);
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
    if (v.match !== message.match) v.log = [];
    v.match = message.match;
    setClock(message);
    await fillLog(message);
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
    restoreMade(v);
    sinceLastLook();
    emit("all");
    if (message.table.phase === "match_over") hooks.onMatchOver();
  }

  /** @param {EventsMessage} message */
  async function applyEvents(message) {
    if (message.match !== v.match || message.version <= v.version) return;
    const animate = !reducedMotion();
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
    saveMade(v);
    emit("all");
  }

  /**
   * The events before the snapshot that this page never saw (it was loaded, or joined as a
   * spectator, in the middle of the match), asked of the match's log so the list is whole.
   * @param {SnapshotMessage} message
   */
  async function fillLog(message) {
    const first = message.missed?.length ? message.missed[0].version : message.version + 1;
    const have = v.log.length ? v.log[v.log.length - 1].version : 0;
    if (!message.match || have + 1 >= first) return;
    try {
      for (const item of await hooks.history(message.match, have)) if (item.version < first) addLog(item);
    } catch (error) {
      console.warn("the move list stays short:", error); // the table itself is whole
    }
  }

  /**
   * A page opened after the opponent played (hours later, in a correspondence match): their
   * play drawn as arrows, as if it had just been played, and said once with its dice.
   */
  function sinceLastLook() {
    if (told || v.seat === null || v.lastArrows) return;
    told = true;
    for (let i = v.log.length - 1; i >= 0; i--) {
      const event = v.log[i].event;
      if (event.type === "dice_rolled") continue; // the viewer's roll, thrown for them
      if (event.type !== "played" || event.player === v.seat || !event.steps?.length) return;
      v.lastArrows = arrowsOf(event.steps);
      const name = v.seats[event.player ?? 0]?.name || "?";
      const dice = (event.dice || []).join("-");
      toast(tx("since.played", { name, dice, play: event.notation || "" }), "info", 6000);
      return;
    }
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
        if (!mine) v.lastArrows = arrowsOf(event.steps || []);
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

  return receive;
}

/**
 * The opponent's play as arrows on the viewer's board.
 * @param {Step[]} steps
 * @returns {Arrow[]}
 */
function arrowsOf(steps) {
  return steps.map(([s0, e0]) => ({
    from: s0 === BAR ? BAR : 25 - s0,
    to: e0 === OFF ? OFF : 25 - e0,
    kind: "last",
    mine: false,
    after: true,
  }));
}
