// @ts-check
// Table talk (docs/protocol.md; server: rooms/talk.py): a fixed set of phrases sent by id and
// shown in each viewer's own language (keys talk.<id>) for a moment beside the speaker's seat,
// at most one every 3 s; and a switch that mutes the opponent (their phrases are hidden, and
// they stay out of this player's quick matches), and a button reporting the opponent to the
// moderators (report.js). Nothing typed is ever shown to anyone.
import { api } from "./api.js";
import { button, h, tx } from "./dom.js";
import { t } from "./i18n.js";
import { openReport } from "./report.js";
import { toast } from "./ui.js";

export const PHRASES = ["hello", "good_luck", "nice_roll", "well_played", "thanks", "oops", "sorry", "good_game"];
const EVERY_MS = 3000;
const SHOWN_MS = 4000;
const MUTED_KEY = "bidak.muted";

/** @import { Seat, TableView, TalkMessage } from "./types.js" */

/** @returns {Set<string>} */
function mutedIds() {
  try {
    return new Set(JSON.parse(localStorage.getItem(MUTED_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function saveMuted(/** @type {Set<string>} */ ids) {
  localStorage.setItem(MUTED_KEY, JSON.stringify([...ids].slice(-500)));
}

/**
 * `view()` gives {seat, seats, kind, table}; `send(message)` writes to the room's socket;
 * `redraw()` draws the seats (and the bar) again; `silenced()`: a moderator muted the viewer's
 * talk (`/api/me`'s `talk_muted`), so the phrases are shown disabled with the reason.
 * @param {{ code: string, view: () => TableView, send: (message: Record<string, unknown>) => boolean,
 *   redraw: () => void, silenced?: () => boolean }} options
 */
export function createTalk({ code, view, send, redraw, silenced = () => false }) {
  /** The server refused a phrase as muted (a mute set since `/api/me` answered). */
  let refusedMuted = false;
  const isSilenced = () => refusedMuted || silenced();
  /** @type {Map<number, { phrase: string, until: number }>} seat -> the phrase said there, shown until */
  const said = new Map();
  let quietUntil = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let quietTimer;

  /** @returns {{ index: number, seat: Seat & { id: string } } | null} */
  function opponent() {
    const v = view();
    if (v.seat === null || v.seat === undefined) return null;
    const seat = v.seats[1 - v.seat];
    return seat?.id && !seat.bot ? { index: 1 - v.seat, seat: { ...seat, id: seat.id } } : null;
  }

  /** Talk is for two people at a friend or quick table. */
  function available() {
    const v = view();
    return !!v.table && v.kind !== "practice" && opponent() !== null;
  }

  function isMuted() {
    const other = opponent();
    return !!other && mutedIds().has(other.seat.id);
  }

  function say(/** @type {string} */ phrase) {
    if (Date.now() < quietUntil || isSilenced()) return;
    if (!send({ type: "talk", phrase })) {
      toast(tx("conn.lost"), "error");
      return;
    }
    quietUntil = Date.now() + EVERY_MS;
    clearTimeout(quietTimer);
    quietTimer = setTimeout(redraw, EVERY_MS);
    redraw();
  }

  function bar() {
    const other = opponent();
    if (!available() || !other) return null;
    const quiet = Date.now() < quietUntil;
    const muted = isMuted();
    const silent = isSilenced();
    return h(
      "div",
      { class: "talk-bar", id: "talk-bar", role: "group", "aria-label": t("talk.label") },
      button(muted ? "talk.unmute" : "talk.mute", toggleMute, {
        class: `btn small mute-switch${muted ? " on" : ""}`,
        id: "mute-switch",
        "aria-pressed": muted ? "true" : "false",
        title: t("talk.mute.title", { name: other.seat.name || "" }),
      }),
      view().match
        ? button("report.open", () => openReport(view().match || "", other.seat.name || ""), {
            class: "btn small ghost report-open",
            id: "report-open",
            title: t("report.open.title", { name: other.seat.name || "" }),
          })
        : null,
      PHRASES.map((phrase) =>
        button(`talk.${phrase}`, () => say(phrase), {
          class: "btn small talk-phrase",
          "data-phrase": phrase,
          disabled: quiet || silent,
          "aria-describedby": silent ? "talk-silenced" : null,
        }),
      ),
    );
  }

  /** The line under the bar when a moderator muted the viewer's talk. */
  function silencedLine() {
    if (!available() || !isSilenced()) return null;
    return tx("talk.silenced", null, "p", { class: "talk-silenced muted small", id: "talk-silenced" });
  }

  /** The server refused a phrase: a moderator muted this player. True: the bar now says so. */
  function silence() {
    if (!available()) return false;
    refusedMuted = true;
    redraw();
    return true;
  }

  async function toggleMute() {
    const other = opponent();
    if (!other) return;
    const muted = !isMuted();
    try {
      await api.mute(code, other.index, muted);
      const ids = mutedIds();
      if (muted) {
        ids.add(other.seat.id);
        said.delete(other.index);
      } else ids.delete(other.seat.id);
      saveMuted(ids);
      toast(tx(muted ? "talk.muted" : "talk.unmuted"));
    } catch {
      toast(tx("error.generic"), "error");
    }
    redraw();
  }

  /** What goes in a seat's row: the phrase just said there. */
  function decorate(/** @type {HTMLElement} */ container, /** @type {number} */ player) {
    const words = said.get(player);
    if (words && words.until > Date.now()) {
      container.append(
        tx(`talk.${words.phrase}`, null, "span", { class: "talk-bubble", "data-seat": player, role: "status" }),
      );
    }
  }

  /** A `{"type": "talk", "seat", "phrase"}` message from the room. */
  function onMessage(/** @type {TalkMessage} */ message) {
    if (!PHRASES.includes(message.phrase) || (message.seat !== 0 && message.seat !== 1)) return;
    const v = view();
    const speaker = v.seats[message.seat];
    if (message.seat !== v.seat && speaker && speaker.id && mutedIds().has(speaker.id)) return;
    const until = Date.now() + SHOWN_MS;
    said.set(message.seat, { phrase: message.phrase, until });
    redraw();
    setTimeout(() => {
      if (said.get(message.seat)?.until === until) {
        said.delete(message.seat);
        redraw();
      }
    }, SHOWN_MS);
  }

  return { bar, silencedLine, silence, decorate, onMessage, stop: () => clearTimeout(quietTimer) };
}
