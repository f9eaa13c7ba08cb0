// @ts-check
// The move list: one line per event of the match log (the newest first, the last 60), drawn
// from the store's events at each drawing, so the names and the language are today's.
import { clear, h, raw, tx } from "./dom.js";
import { t } from "./i18n.js";
import { announce, playInWords } from "./speech.js";
import { evKey, nameOf } from "./table-names.js";

/** @import { LoggedEvent, MatchEvent, TableView } from "./types.js" */

/**
 * A timeout, with the strikes left where the room has a limit ("timeout 2/3, 1 left").
 * @param {TableView} v
 * @param {MatchEvent} event
 */
export function timedOutLine(v, event) {
  const params = { name: nameOf(v, event.player), strikes: event.strikes };
  if (event.left === null || event.left === undefined) return tx(evKey(v, "timed_out", event.player), params);
  const type = event.left === 0 ? "timed_out_lost" : event.left === 1 ? "timed_out_last" : "timed_out_left";
  return tx(evKey(v, type, event.player), { ...params, limit: (event.strikes ?? 0) + event.left, left: event.left });
}

/**
 * The line of an event, or null for an event the list leaves out.
 * @param {TableView} v
 * @param {MatchEvent} event
 * @returns {HTMLElement | null}
 */
function logLine(v, event) {
  const name = () => nameOf(v, event.player);
  const dice = () => (event.dice || []).join("-");
  switch (event.type) {
    case "game_started":
      return tx("ev.game_started", { n: event.game });
    case "opening_tie":
      return tx("ev.opening_tie", { dice: dice() });
    case "opening_rolled":
      return tx(evKey(v, "opening_rolled", event.starter), {
        name: nameOf(v, event.starter),
        dice: [...(event.dice || [])].sort((a, b) => b - a).join("-"),
      });
    case "dice_rolled":
      return tx(evKey(v, "dice_rolled", event.player), { name: name(), dice: dice() });
    case "played":
      return event.steps?.length
        ? h("span", {}, tx("ev.played", { name: name() }), " ", raw(event.notation || "", "b", { class: "notation" }))
        : tx(evKey(v, "dance", event.player), { name: name(), dice: dice() });
    case "doubled":
      return tx(evKey(v, "doubled", event.player), { name: name(), value: event.value });
    case "taken":
    case "dropped":
    case "resign_accepted":
    case "resign_rejected":
    case "match_forfeited":
      return tx(evKey(v, event.type, event.player), { name: name() });
    case "resign_offered":
      return tx(evKey(v, "resign_offered", event.player), { name: name(), what: t(`resign.level.${event.level}`) });
    case "game_won":
      return tx(evKey(v, "game_won", event.winner), {
        name: nameOf(v, event.winner),
        points: event.points,
        kind: t(`win.${event.kind}`),
      });
    case "match_won":
      return tx(evKey(v, "match_won", event.winner), { name: nameOf(v, event.winner) });
    case "timed_out":
      return timedOutLine(v, event);
    case "autoplay_changed":
      return tx(evKey(v, event.on ? "autoplay_on" : "autoplay_off", event.player), { name: name() });
    default:
      return null;
  }
}

/**
 * Whether the event at `index` of `log` says again what the list said already: a second timeout
 * in one turn repeats the player's count (docs/protocol.md), and a forfeit right after the
 * timeout that lost the match is that same loss (on time, not a resignation).
 * @param {LoggedEvent[]} log
 * @param {number} index
 */
export function saidAlready(log, index) {
  const event = log[index].event;
  if (event.type === "match_forfeited") {
    const before = log[index - 1]?.event;
    return before?.type === "timed_out" && before.player === event.player && before.left === 0;
  }
  if (event.type !== "timed_out" || event.strikes === undefined) return false;
  for (let i = index - 1; i >= 0; i--) {
    const earlier = log[i].event;
    if (earlier.type === "timed_out" && earlier.player === event.player) return earlier.strikes === event.strikes;
  }
  return false;
}

/**
 * Say an event in the live region (speech.js): its line, and a play also in words, from the
 * listener's side.
 * @param {TableView} v
 * @param {MatchEvent} event
 */
export function say(v, event) {
  if (event.type === "played" && event.steps?.length) {
    const mine = event.player === (v.seat ?? v.table?.viewer ?? 0);
    const words = playInWords(event.steps, mine);
    const params = { name: nameOf(v, event.player), notation: event.notation || "", words };
    announce(t(mine && v.seat !== null ? "sr.played_me" : "sr.played", params));
    return;
  }
  const line = logLine(v, event);
  if (line) announce(line.textContent || "");
}

/** Draw the list `node` (an `<ol>`) from `v.log`. */
export function renderLog(/** @type {HTMLElement} */ node, /** @type {TableView} */ v) {
  clear(node);
  const lines = v.log
    .map((item, index) => (saidAlready(v.log, index) ? null : logLine(v, item.event)))
    .filter((line) => line !== null);
  for (const line of lines.slice(-60).reverse()) node.append(h("li", {}, line));
}
