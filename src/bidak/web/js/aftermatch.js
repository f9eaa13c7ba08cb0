// @ts-check
// The match-over dialog's own parts: how a rated match moved both ratings (GET
// /api/matches/{id}/rating) and the rematch (POST /api/rooms/{code}/rematch; the room's socket
// says `{"type": "rematch", "state": "offered" | "accepted"}`): one player offers, the other
// sees the offer with Accept for 60 s, and both go to the new room once it is accepted.
import { ApiError, api, refusalKey } from "./api.js";
import { append, button, clear, h, raw, tx } from "./dom.js";
import { formatRating, playerLink, signedRating } from "./players.js";
import { formatClock, toast } from "./ui.js";

/** @import { MatchRating, RematchMessage, TableView } from "./types.js" */

/**
 * `view()` gives the table's {match, seat, seats, offset}; `nameOf(seat)` a seat's name.
 * @param {{ code: string, view: () => TableView, navigate: (path: string) => void, nameOf: (seat: number) => string }} options
 */
export function createAfterMatch({ code, view, navigate, nameOf }) {
  const node = h("div", { class: "after-match", id: "after-match" });
  /** @type {MatchRating | null} the answer, once loaded */
  let rating = null;
  /** @type {string | null} */
  let ratingFor = null;
  /** @type {{ by: number, until: number } | null} */
  let offer = null;
  let asking = false;
  let done = false;
  /** @type {ReturnType<typeof setInterval> | undefined} the offer's countdown (a real clock) */
  let ticker;

  const serverNow = () => Date.now() / 1000 + (view().offset || 0);

  function load() {
    const match = view().match;
    if (!match || ratingFor === match) return;
    ratingFor = match;
    api.matchRating(match).then(
      (x) => {
        rating = x;
        draw();
      },
      () => {},
    );
  }

  function go(/** @type {string} */ room) {
    if (done) return;
    done = true;
    clearInterval(ticker);
    navigate(`/room/${room}`);
  }

  async function ask() {
    if (asking) return;
    asking = true;
    draw();
    try {
      const answer = await api.rematch(code);
      if (answer.state === "accepted" && answer.room) go(answer.room);
      else offer = { by: answer.by ?? 0, until: answer.until ?? 0 };
    } catch (error) {
      offer = null;
      const fallback = error instanceof ApiError && error.status === 409 ? "rematch.expired" : "error.generic";
      toast(tx(refusalKey(error, fallback)), "error");
    }
    asking = false;
    draw();
  }

  function ratingRows() {
    if (rating?.unrated) {
      // A match of a rated room that moved no rating: say so, and why.
      return tx(`rating.unrated_${rating.unrated}`, null, "p", { class: "rating-unrated", id: "rating-unrated" });
    }
    if (!rating?.rated) return null;
    const v = view();
    const me = v.seat ?? 0;
    const lines = [...rating.players].sort((a, b) => (a.seat === me ? -1 : b.seat === me ? 1 : 0));
    return h(
      "table",
      { class: "rating-table", id: "rating-table" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          tx("rating.player", null, "th"),
          tx("rating.before", null, "th", { class: "num" }),
          tx("rating.change", null, "th", { class: "num" }),
          tx("rating.after", null, "th", { class: "num" }),
        ),
      ),
      h(
        "tbody",
        {},
        lines.map((line) => {
          const seat = v.seats[line.seat] || {};
          return h(
            "tr",
            { "data-seat": line.seat },
            h("td", {}, line.seat === v.seat ? tx("you") : playerLink(seat.id, seat.name || nameOf(line.seat))),
            raw(formatRating(line.before), "td", { class: "num rating-before" }),
            raw(signedRating(line.change), "td", { class: `num rating-change ${line.change >= 0 ? "up" : "down"}` }),
            raw(formatRating(line.after), "td", { class: "num rating-after" }),
          );
        }),
      ),
    );
  }

  function rematchPart() {
    const v = view();
    // A tournament decides who plays next: no rematch there.
    if (v.seat === null || v.seat === undefined || v.kind === "tournament") return null;
    const live = offer !== null && offer.until > serverNow();
    if (live && offer && offer.by === v.seat) {
      return h(
        "div",
        { class: "rematch", id: "rematch-offered" },
        h("span", { class: "spinner" }),
        tx("rematch.offered", { name: nameOf(1 - v.seat) }),
        raw(formatClock(offer.until - serverNow()), "b", { class: "rematch-left", id: "rematch-left" }),
      );
    }
    if (live && offer) {
      return h(
        "div",
        { class: "rematch", id: "rematch-offer" },
        tx("rematch.offer", { name: nameOf(offer.by) }, "span", { class: "rematch-text" }),
        raw(formatClock(offer.until - serverNow()), "b", { class: "rematch-left", id: "rematch-left" }),
        button("rematch.accept", ask, { class: "btn primary", id: "rematch-accept", disabled: asking }),
      );
    }
    return h(
      "div",
      { class: "rematch" },
      button("rematch.ask", ask, { class: "btn", id: "rematch-ask", disabled: asking }),
    );
  }

  function draw() {
    clear(node);
    append(node, ratingRows(), rematchPart());
  }

  /** A `{"type": "rematch"}` message from the room. */
  function onMessage(/** @type {RematchMessage} */ message) {
    if (message.state === "accepted" && message.room) go(message.room);
    else if (message.state === "offered") {
      offer = { by: message.by ?? 0, until: message.until ?? 0 };
      draw();
    }
  }

  /** The dialog's body calls this (again on a change of language). */
  function panel() {
    load();
    draw();
    if (!ticker) {
      ticker = setInterval(() => {
        const left = document.getElementById("rematch-left");
        if (!offer) return;
        if (offer.until <= serverNow()) {
          offer = null;
          draw();
        } else if (left) left.textContent = formatClock(offer.until - serverNow());
      }, 500);
    }
    return node;
  }

  return {
    panel,
    onMessage,
    stop: () => {
      clearInterval(ticker);
      ticker = undefined;
    },
  };
}
