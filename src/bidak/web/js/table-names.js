// @ts-check
// How the table names its seats in sentences: a bot by its level, the viewer as "you", anyone
// else by name, isolated so that a right-to-left name cannot reorder the sentence around it;
// and the catalog key of an event line, which has a form of its own for the viewer's events.
import { t } from "./i18n.js";

/** @import { Seat, TableView } from "./types.js" */

/** A seat's name as shown by it (a bot: its level; nobody yet: "empty seat"). */
export function seatLabel(/** @type {Seat | undefined} */ seat) {
  if (!seat) return "";
  if (seat.bot) return t("bot.name", { level: t(`level.${seat.bot}`) });
  return seat.name || t("seat.empty");
}

/**
 * A seat's name inside a sentence (FSI ... PDI around it), or "you".
 * @param {TableView} v
 * @param {number | null | undefined} player
 */
export function nameOf(v, player) {
  if (player === v.seat) return t("you");
  return `\u2068${seatLabel(player === null || player === undefined ? undefined : v.seats[player])}\u2069`;
}

/**
 * The catalog key of an event line: "ev.doubled" or, for the viewer's own, "ev.doubled.you".
 * @param {TableView} v
 * @param {string} type
 * @param {number | null | undefined} player
 */
export function evKey(v, type, player) {
  return player === v.seat && v.seat !== null ? `ev.${type}.you` : `ev.${type}`;
}
