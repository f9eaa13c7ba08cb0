// @ts-check
// What the tournaments' lobby card (tournament-card.js) and page (tournaments.js) share: the
// countdowns, set by the server's time, and a tournament's kind beside its name.
import { tx } from "./dom.js";
import { t } from "./i18n.js";
import { formatClock } from "./ui.js";

/** @import { TournamentItem, TournamentView } from "./types.js" */

/** How often the tournament page asks again (the lobby's card: six times as long). */
export const POLL_MS = 5000;

/** "12:34", or "2 h 05" past an hour. */
export function countdown(/** @type {number} */ seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 3600) return formatClock(s);
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}`;
}

/** What the countdown of a tournament counts to, and its label. */
export function clockOf(/** @type {TournamentItem | TournamentView} */ x, /** @type {number} */ now) {
  if (x.status === "open") return { key: "tour.starts_in", seconds: x.starts_at - now };
  if (x.status === "running" && x.ends_at !== null) return { key: "tour.ends_in", seconds: x.ends_at - now };
  if (x.status === "running" && "round_deadline" in x && x.round_deadline !== null)
    return { key: "tour.round_ends_in", seconds: x.round_deadline - now };
  return null;
}

/** A countdown shown in ``node`` moves on: its text only, the node stays (a redraw could swallow
 * a tap on it). */
export function retell(
  /** @type {Element | null} */ node,
  /** @type {{ key: string, seconds: number } | null} */ clock,
) {
  if (clock && node) node.textContent = t(clock.key, { time: countdown(clock.seconds) });
}

/** Seconds to add to Date.now()/1000 to get the server's time. */
let skew = 0;
/** The server's time now, as last learnt from it. */
export const serverNow = () => Date.now() / 1000 + skew;
/** Learn the server's time from an answer that carries it (`now`). */
export function learnNow(/** @type {number} */ now) {
  skew = now - Date.now() / 1000;
}

/**
 * The kind's tag beside a tournament's name, unless the name already begins with it (a site's
 * "Knockout 16" beside "Knockout" said it twice).
 * @param {string} name
 * @param {string} kind
 */
export function kindTag(name, kind) {
  const word = t(`tour.kind.${kind}`);
  if (name.trim().toLocaleLowerCase().startsWith(word.toLocaleLowerCase())) return null;
  return tx(`tour.kind.${kind}`, null, "span", { class: "tag" });
}
