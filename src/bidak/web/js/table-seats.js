// @ts-check
// Around the board: the match bar (back, the score, Crawford, the kind of room), the two seats
// (name or profile link, pips, auto-play, timeouts, the clock's place, a phrase just said),
// the talk bar, and the invitation card while a friend room waits for its second player.
import { button, clear, h, raw, tx } from "./dom.js";
import { t } from "./i18n.js";
import { playerLink } from "./players.js";
import { seatLabel } from "./table-names.js";
import { copyText, toast } from "./ui.js";

/** @import { TableView } from "./types.js" */

/**
 * @param {TableView} v
 * @param {{ decorate: (container: HTMLElement, player: number) => void, bar: () => HTMLElement | null,
 *   silencedLine: () => HTMLElement | null }} talk
 * @param {(path: string) => void} navigate
 * @param {{ id: () => string | null, grace: () => number | null, kind: () => string | null }} tour the table's
 *   tournament, if any
 */
export function createSeats(v, talk, navigate, tour) {
  function matchBar(/** @type {HTMLElement} */ node) {
    const tb = v.table;
    const tid = tour.id();
    /** @type {HTMLElement[]} */
    const parts = [
      tid
        ? button("nav.back_tournament", () => navigate(`/t/${tid}`), {
            class: "btn ghost small",
            "aria-label": t("tour.back"),
            id: "tour-bar-back",
          })
        : button("nav.back", () => navigate("/"), { class: "btn ghost small", "aria-label": t("nav.lobby") }),
    ];
    if (tb) {
      const me = tb.viewer,
        them = 1 - me;
      parts.push(
        h(
          "div",
          { class: "score" },
          tx("match.length", { n: tb.length }, "span", { class: "score-len" }),
          raw(`${tb.score[me]} – ${tb.score[them]}`, "strong", { class: "score-num", id: "score" }),
          tb.crawford ? tx("match.crawford", null, "span", { class: "badge crawford", id: "crawford" }) : null,
          tb.post_crawford ? tx("match.post_crawford", null, "span", { class: "badge" }) : null,
        ),
      );
    } else parts.push(h("div", { class: "score" }));
    const kind = {
      practice: "room.practice",
      quick: "room.quick",
      tournament: "room.tournament",
      friend: "room.friend",
    }[v.kind || "friend"];
    parts.push(
      h(
        "span",
        { class: "match-bar-end" },
        // A tournament's table: its bar (table-tournament.js) names the tournament instead.
        v.seat !== null && v.table && !tid ? tx(kind, null, "span", { class: "muted small" }) : null,
      ),
    );
    clear(node).append(...parts);
  }

  /** One seat: the viewer's at the bottom, the opponent's at the top. */
  function seat(/** @type {HTMLElement} */ container, /** @type {boolean} */ bottom) {
    const tb = v.table;
    clear(container);
    if (!tb) return;
    const viewer = tb.viewer;
    const player = bottom ? viewer : 1 - viewer;
    const seat = v.seats[player];
    const onTurn = tb.turn === player && tb.phase !== "match_over";
    container.classList.toggle("on-turn", onTurn);
    const label = seatLabel(seat);
    const strikes = tb.strike_limit
      ? tx("strikes.of", { n: tb.strikes[player], limit: tb.strike_limit }, "span", {
          class: `badge strikes${tb.strikes[player] ? " warn" : ""}`,
          "data-seat": player,
          title: t("strikes.title"),
        })
      : tb.strikes?.[player]
        ? tx("strikes", { n: tb.strikes[player] }, "span", { class: "badge" })
        : null;
    container.append(
      h("span", { class: `chip ${bottom ? "ck-me" : "ck-them"}` }),
      h(
        "div",
        { class: "seat-name" },
        player === v.seat
          ? h("span", {}, raw(label, "span", { dir: "auto" }), " ", tx("you.paren", null, "span", { class: "muted" }))
          : seat?.id && !seat.bot
            ? playerLink(seat.id, label, { class: "seat-link" })
            : raw(label, "span", { dir: "auto" }),
      ),
      h(
        "div",
        { class: "seat-stats" },
        h(
          "span",
          { class: "pips", title: t("pips.title") },
          tx("pips.label"),
          " ",
          raw(String(tb.pips[bottom ? 0 : 1]), "b", { class: "pip-count", "data-seat": player }),
        ),
        tb.autoplay[player]
          ? tx("autoplay.badge", null, "span", { class: "badge warn autoplay-badge", "data-seat": player })
          : null,
        strikes,
        h("span", { class: "clock", "data-seat": player }),
      ),
    );
    talk.decorate(container, player);
  }

  /** The seats and the talk bar (a phrase came or went, the mute switch). */
  function seats(
    /** @type {HTMLElement} */ top,
    /** @type {HTMLElement} */ bottom,
    /** @type {HTMLElement} */ talkHost,
  ) {
    seat(top, false);
    seat(bottom, true);
    // The talk bar is replaced only when it changed: a double or a roll redraws the seats, and
    // a new bar under a finger pressing a phrase lost that tap.
    const fresh = [talk.bar(), talk.silencedLine()].filter((node) => node !== null);
    const html = fresh.map((node) => node.outerHTML).join("");
    if (html !== talkHost.innerHTML) clear(talkHost).append(...fresh);
  }

  /** The invitation while a friend room waits (`root` marks it for the layout). */
  function waiting(/** @type {HTMLElement} */ node, /** @type {HTMLElement} */ root) {
    const shown = !!v.info && !v.table && v.status !== "lost";
    node.classList.toggle("hidden", !shown);
    root.classList.toggle("is-waiting", shown);
    if (!shown || !v.info) return;
    if (v.kind === "tournament") {
      // A tournament's table before both players came: nobody's clock runs yet.
      clear(node).append(
        h(
          "div",
          { class: "card center-card", id: "tour-table-waiting" },
          tx("tour.table_waiting_title", null, "h2"),
          tour.kind() === "knockout"
            ? tx("tour.table_waiting_knockout", null, "p")
            : tx("tour.table_waiting_body", { n: Math.round(tour.grace() ?? 20) }, "p"),
          h("div", { class: "spinner-row" }, h("span", { class: "spinner" }), tx("tour.opponent_coming")),
        ),
      );
      return;
    }
    const link = v.info.invite_url || `${location.origin}/#/room/${v.code}`;
    const input = h("input", {
      class: "invite-input",
      id: "invite-link",
      readOnly: true,
      value: link,
      "aria-label": t("invite.label"),
    });
    clear(node).append(
      h(
        "div",
        { class: "card center-card" },
        tx("invite.title", null, "h2"),
        tx("invite.body", null, "p"),
        h(
          "div",
          { class: "copy-row" },
          input,
          button(
            "btn.copy",
            async () => {
              const ok = await copyText(link);
              toast(tx(ok ? "copied" : "copy.failed"), ok ? "info" : "error");
            },
            { class: "btn primary", id: "copy-invite" },
          ),
        ),
        tx("invite.code", null, "p", { class: "muted small" }),
        raw(v.code, "code", { class: "room-code" }),
        h("div", { class: "spinner-row" }, h("span", { class: "spinner" }), tx("invite.waiting")),
      ),
    );
  }

  return { matchBar, seats, waiting };
}
