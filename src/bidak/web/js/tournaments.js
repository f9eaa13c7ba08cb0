// @ts-check
// A tournament's page #/t/ID (docs/tournaments.md; the lobby's card is tournament-card.js): the
// countdown, join, pause, my next match, and the standings (arena) or the bracket (knockout).
// The page listens on a WebSocket of the player's own for `{"type": "tournament"}`: `changed`
// fetches the page again, `paired` opens the room. It also asks again every POLL_MS, so a lost
// message costs a few seconds at most.
import { ApiError, api, refusalKey } from "./api.js";
import { button, clear, h, raw, tx } from "./dom.js";
import { onLanguage, t } from "./i18n.js";
import { clockOf, countdown, kindTag, learnNow, POLL_MS, retell, serverNow } from "./tournament-clock.js";
import { checkTournaments, onTournamentMessage } from "./tournament-follow.js";
import { copyText, toast } from "./ui.js";

/** @import { TournamentView, BracketSlot, TournamentMessage, Me } from "./types.js" */

/**
 * The tournament page.
 * @param {HTMLElement} root
 * @param {string} id
 * @param {{ navigate: (path: string) => void, me?: () => Me | null }} context
 */
export function mountTournament(root, id, { navigate, me = () => null }) {
  /** @type {TournamentView | null} */
  let view = null;
  let gone = false;
  let missing = false;
  /** @type {WebSocket | null} */
  let socket = null;

  /** What the page shows now, as text: a poll that brings nothing new draws nothing. */
  let shown = "";

  async function load() {
    try {
      view = await api.tournament(id);
      learnNow(view.now);
      missing = false;
    } catch (error) {
      missing = error instanceof ApiError && error.status === 404;
    }
    // Redrawing on every poll put a bracket scrolled sideways back at its first round every
    // few seconds on a phone, and could swallow a tap whose press and release then landed on
    // two different buttons.
    const text = missing ? "missing" : JSON.stringify({ ...view, now: 0 });
    if (gone || text === shown) return;
    shown = text;
    draw();
  }

  /** @param {() => Promise<unknown>} work */
  async function act(work) {
    try {
      await work();
    } catch (error) {
      const door = refusalKey(error, "");
      toast(
        door ? tx(door) : error instanceof ApiError && error.code ? raw(error.message) : tx("tour.failed"),
        "error",
      );
    }
    await load();
  }

  function openSocket() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    socket = ws;
    ws.onmessage = (event) => {
      /** @type {TournamentMessage} */
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type !== "tournament") return;
      onTournamentMessage(message); // paired: to the new table, in any tournament
      if (message.tournament === id) load();
    };
  }

  function header(/** @type {TournamentView} */ v) {
    const clock = clockOf(v, serverNow());
    const canJoin = !v.joined && (v.status === "open" || (v.kind === "arena" && v.status === "running"));
    const over = v.status === "finished" || v.status === "cancelled";
    return h(
      "section",
      { class: "card tour-head", id: "tour-head" },
      h(
        "div",
        { class: "card-head" },
        h("span", { class: "card-icon icon-trophy", "aria-hidden": "true" }),
        raw(v.name, "h2", { dir: "auto" }),
        kindTag(v.name, v.kind),
      ),
      h(
        "p",
        { class: "muted small" },
        v.lengths.length > 1
          ? tx("tour.points_rounds", { list: v.lengths.join(" · ") })
          : tx("tour.points", { n: v.lengths[0] }),
        " · ",
        tx("tour.move_seconds", { n: v.move_seconds }),
        " · ",
        v.kind === "knockout"
          ? tx("tour.players_of", { n: v.players, max: v.max_players })
          : tx("tour.players", { n: v.players }),
      ),
      clock
        ? h("p", { class: "tour-countdown", id: "tour-countdown" }, tx(clock.key, { time: countdown(clock.seconds) }))
        : null,
      v.status === "finished"
        ? tx("tour.won_by", { name: v.winner_name || "—" }, "p", { class: "notice saved", id: "tour-winner" })
        : null,
      v.status === "cancelled" ? tx("tour.cancelled", null, "p", { class: "notice", id: "tour-cancelled" }) : null,
      h(
        "div",
        { class: "tour-actions" },
        canJoin
          ? button("tour.join", () => act(() => api.joinTournament(id).then(checkTournaments)), {
              class: "btn primary",
              id: "tour-join",
            })
          : null,
        v.joined && v.kind === "arena" && v.status !== "finished"
          ? button(
              v.paused ? "tour.resume" : "tour.pause",
              () => act(() => (v.paused ? api.joinTournament(id) : api.pauseTournament(id, true))),
              { class: "btn", id: "tour-pause" },
            )
          : null,
        v.private && !over
          ? button(
              "tour.copy_link",
              async () => {
                await copyText(`${location.origin}/#/t/${id}`);
                toast(tx("tour.copied"));
              },
              { class: "btn ghost small", id: "tour-copy" },
            )
          : null,
      ),
      // A guest hears before joining that their matches will move no rating.
      (canJoin || (v.joined && !over)) && me()?.email_linked === false
        ? tx("tour.guest_unrated", null, "p", { class: "notice", id: "tour-guest-unrated" })
        : null,
      v.joined && !over ? tx("tour.you_are_in", null, "p", { class: "muted small", id: "tour-joined" }) : null,
    );
  }

  function nextMatch(/** @type {TournamentView} */ v) {
    const next = v.next_match;
    if (!next && v.kind === "arena" && v.status === "running" && v.joined && !v.paused) {
      // The odd one out of a pairing pass: paired as soon as someone is free.
      return h(
        "section",
        { class: "card tour-next", id: "tour-next" },
        tx("tour.next", null, "h3"),
        h(
          "p",
          { class: "spinner-row", id: "tour-waiting" },
          h("span", { class: "spinner" }),
          tx("tour.waiting_opponent"),
        ),
      );
    }
    if (!next) return null;
    // A knockout's match waits for both to check in (coming to the table is checking in too);
    // an arena's table is simply opened.
    const waiting = !next.started && v.kind === "knockout";
    return h(
      "section",
      { class: "card tour-next", id: "tour-next" },
      tx("tour.next", null, "h3"),
      h("p", {}, tx("tour.against"), " ", raw(next.opponent_name, "strong", { dir: "auto" })),
      waiting
        ? button(
            "tour.ready",
            () =>
              act(async () => {
                // Checked in, to the table: the match starts when both are there.
                const answer = await api.readyTournament(id);
                if (answer) navigate(`/room/${answer.room}`);
              }),
            { class: "btn primary", id: "tour-ready" },
          )
        : button("tour.play", () => navigate(`/room/${next.room}`), { class: "btn primary", id: "tour-play" }),
      waiting ? tx("tour.ready_note", null, "p", { class: "muted small" }) : null,
    );
  }

  /** A knockout before its start: who has joined (the seeds are drawn at the start). */
  function entrants(/** @type {TournamentView} */ v) {
    return h(
      "section",
      { class: "card", id: "tour-entrants" },
      tx("tour.entrants", { n: v.players, max: v.max_players }, "h3"),
      v.standings.length
        ? h(
            "ul",
            { class: "tour-entrants" },
            v.standings.map((row) => h("li", { "data-player": row.id }, raw(row.name, "span", { dir: "auto" }))),
          )
        : tx("tour.empty", null, "p", { class: "muted" }),
    );
  }

  function standings(/** @type {TournamentView} */ v) {
    return h(
      "section",
      { class: "card", id: "tour-standings" },
      tx("tour.standings", null, "h3"),
      v.standings.length
        ? h(
            "table",
            { class: "ranks" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                tx("leaderboard.rank", null, "th"),
                tx("leaderboard.player", null, "th"),
                tx("tour.score", null, "th", { class: "num" }),
                tx("tour.played", null, "th", { class: "num" }),
              ),
            ),
            h(
              "tbody",
              {},
              v.standings.map((row) =>
                h(
                  "tr",
                  { "data-player": row.id },
                  raw(String(row.rank), "td", { class: "num rank" }),
                  h(
                    "td",
                    {},
                    raw(row.name, "span", { dir: "auto" }),
                    row.streak >= 2 ? h("span", { class: "streak", title: t("tour.streak") }, "🔥") : null,
                    row.playing ? tx("tour.playing", null, "span", { class: "tag small" }) : null,
                    row.paused ? tx("tour.paused", null, "span", { class: "tag small muted" }) : null,
                  ),
                  raw(String(row.score), "td", { class: "num" }),
                  raw(String(row.played), "td", { class: "num" }),
                ),
              ),
            ),
          )
        : tx("tour.empty", null, "p", { class: "muted" }),
    );
  }

  function seat(/** @type {BracketSlot} */ slot, /** @type {"a" | "b"} */ side) {
    const who = slot[side];
    const won = who !== null && slot.winner === who.id;
    if (who === null) return tx(slot.how === "bye" ? "tour.bye" : "tour.tbd", null, "span", { class: "b-seat muted" });
    return h(
      "span",
      { class: `b-seat${won ? " won" : ""}`, "data-player": who.id },
      raw(String(who.seed), "span", { class: "seed" }),
      raw(who.name, "span", { dir: "auto", class: "who" }),
    );
  }

  function bracket(/** @type {TournamentView} */ v) {
    const rounds = v.bracket || [];
    return h(
      "section",
      { class: "card", id: "tour-bracket" },
      tx("tour.bracket", null, "h3"),
      h(
        "div",
        { class: "bracket" },
        rounds.map((slots, number) =>
          h(
            "div",
            { class: `round${number === v.current_round ? " current" : ""}`, "data-round": number },
            tx(
              number === rounds.length - 1 ? "tour.final" : "tour.round",
              { n: number + 1, points: v.lengths[Math.min(number, v.lengths.length - 1)] },
              "h4",
            ),
            h(
              "div",
              { class: "slots" },
              slots.map((slot) =>
                h(
                  "div",
                  { class: "slot", "data-how": slot.how || "" },
                  seat(slot, "a"),
                  seat(slot, "b"),
                  slot.how === "forfeit" ? tx("tour.forfeit", null, "span", { class: "how small muted" }) : null,
                ),
              ),
            ),
          ),
        ),
      ),
    );
  }

  function draw() {
    if (missing) {
      clear(root).append(tx("tour.not_found", null, "p", { class: "notice", id: "tour-missing" }));
      return;
    }
    if (!view) return;
    const v = view;
    const scrolled = root.querySelector(".bracket")?.scrollLeft ?? 0;
    clear(root).append(
      h(
        "div",
        { class: "tournament", id: "tournament", "data-status": v.status },
        header(v),
        nextMatch(v),
        v.kind === "arena" ? standings(v) : v.bracket ? bracket(v) : entrants(v),
        button("nav.lobby", () => navigate("/"), { class: "btn ghost small", id: "tour-back-lobby" }),
      ),
    );
    const bracketNow = root.querySelector(".bracket");
    if (bracketNow) bracketNow.scrollLeft = scrolled; // where the player had scrolled it
  }

  function tick() {
    retell(root.querySelector("#tour-countdown span"), view && clockOf(view, serverNow()));
  }

  load();
  openSocket();
  const ticker = setInterval(tick, 1000);
  const poller = setInterval(load, POLL_MS);
  const off = onLanguage(draw);
  return () => {
    gone = true;
    off();
    clearInterval(ticker);
    clearInterval(poller);
    if (socket) socket.close();
  };
}
