// @ts-check
// A tournament's table knows it is one (issue 36): a bar under the match bar names the
// tournament and the round (a knockout's round, or the player's match number in an arena),
// links back to it and to its standings or bracket; while the opponent has not come yet the
// table says the match starts when both are there; the match-over dialog offers the next match
// (once paired: the pairing itself already takes the page there) and the way back to the
// tournament, never a rematch; the odd one out of an arena pass is told they wait for an
// opponent. What it shows comes from GET /api/tournaments/room/{code}, asked when the table
// opens, at the match's end and on each tournament message.
import { api } from "./api.js";
import { button, clear, h, raw, tx } from "./dom.js";
import { onTournamentMessage } from "./tournament-follow.js";

/** @import { TableTournament, TableView, TournamentMessage } from "./types.js" */

/**
 * @param {{ code: string, view: () => TableView, navigate: (path: string) => void, redraw: () => void }} options
 */
export function createTableTournament({ code, view, navigate, redraw }) {
  /** @type {TableTournament | null} */
  let info = null;
  let stopped = false;
  const bar = h("div", { class: "tour-bar hidden", id: "tour-bar", "data-room": code });
  const panel = h("div", { class: "tour-after", id: "tour-after" });

  let asked = false;

  /** Once the snapshot says the table is a tournament's: ask which. */
  function ensure() {
    if (asked || view().kind !== "tournament") return;
    asked = true;
    load();
  }

  async function load() {
    if (view().kind !== "tournament") return;
    try {
      info = await api.tableTournament(code);
    } catch {
      return;
    }
    if (stopped) return;
    draw();
    redraw();
  }

  function roundLabel(/** @type {TableTournament} */ x) {
    if (x.kind === "knockout" && x.round !== null && x.rounds) {
      return x.round === x.rounds - 1
        ? tx("tour.table_final", null, "span", { class: "tour-bar-round" })
        : tx("tour.table_round", { n: x.round + 1, of: x.rounds }, "span", { class: "tour-bar-round" });
    }
    return tx("tour.table_match", { n: x.number }, "span", { class: "tour-bar-round" });
  }

  function draw() {
    if (!info) return;
    const x = info;
    bar.classList.remove("hidden");
    clear(bar).append(
      h("span", { class: "card-icon icon-trophy", "aria-hidden": "true" }),
      h(
        "a",
        { class: "tour-bar-name", href: `#/t/${x.id}`, id: "tour-bar-link" },
        raw(x.name, "strong", { dir: "auto" }),
        roundLabel(x),
      ),
      h(
        "a",
        { class: "btn ghost small tour-bar-more", href: `#/t/${x.id}`, id: "tour-bar-standings" },
        tx(x.kind === "knockout" ? "tour.bracket" : "tour.standings"),
      ),
    );
    drawPanel();
  }

  /** The match-over dialog's tournament part: the next match, or waiting for one. */
  function drawPanel() {
    clear(panel);
    const x = info;
    if (!x || view().seat === null) return;
    const over = x.status === "finished" || x.status === "cancelled";
    const part = x.next_room
      ? button("tour.next_match", () => navigate(`/room/${x.next_room}`), {
          class: "btn primary",
          id: "tour-next-match",
        })
      : x.paused && x.absences >= 2
        ? tx("tour.paused_absent", null, "p", { class: "notice", id: "tour-paused" })
        : x.waiting && !over
          ? h(
              "p",
              { class: "spinner-row", id: "tour-waiting" },
              h("span", { class: "spinner" }),
              tx("tour.waiting_opponent"),
            )
          : null;
    if (part) panel.append(part);
  }

  /** The table's socket heard a tournament message of the player's. */
  function onMessage(/** @type {TournamentMessage} */ message) {
    onTournamentMessage(message); // paired: to the new table at once, whatever the table shows
    if (!info || message.tournament === info.id) load();
  }

  return {
    load,
    ensure,
    onMessage,
    bar: () => bar,
    panel: () => panel,
    /** The tournament's id, once known (the match bar's back and the dialog go there). */
    id: () => info?.id ?? null,
    grace: () => info?.grace ?? null,
    kind: () => info?.kind ?? null,
    redraw: draw,
    stop() {
      stopped = true;
    },
  };
}
