// @ts-check
// The lobby's Tournaments card (docs/tournaments.md): the site's arenas and public tournaments
// with their countdowns, and a knockout of one's own; each opens its page (tournaments.js).
import { api, refusalKey } from "./api.js";
import { button, clear, h, raw, tx } from "./dom.js";
import { onLanguage } from "./i18n.js";
import { clockOf, countdown, kindTag, learnNow, POLL_MS, retell, serverNow } from "./tournament-clock.js";
import { toast } from "./ui.js";

/** @import { TournamentItem } from "./types.js" */

/**
 * The lobby's card: the site's arenas and public tournaments, each with its countdown.
 * @param {{ navigate: (path: string) => void, session: Promise<unknown> }} context
 */
export function tournamentsCard({ navigate, session }) {
  /** @type {TournamentItem[] | null} */
  let items = null;
  const list = h("div", { class: "tour-list", id: "tour-list" });
  const el = h("section", { class: "card", id: "tournaments-card" });
  /** The card's own text, again in each language. */
  function fill() {
    clear(el).append(
      h(
        "div",
        { class: "card-head" },
        h("span", { class: "card-icon icon-trophy", "aria-hidden": "true" }),
        tx("tour.title", null, "h2"),
      ),
      tx("tour.body", null, "p", { class: "muted" }),
      list,
      button("tour.create", () => create(), { class: "btn small", id: "tour-create" }),
    );
    draw();
  }

  async function create() {
    try {
      const made = await api.createKnockout({ max_players: 8, lengths: [3], starts_in_minutes: 15 });
      navigate(`/t/${made.id}`);
    } catch (error) {
      toast(tx(refusalKey(error, "tour.failed")), "error");
    }
  }

  function draw() {
    const now = serverNow();
    clear(list);
    if (items === null) return;
    if (!items.length) {
      list.append(tx("tour.none", null, "p", { class: "muted small", id: "tour-none" }));
      return;
    }
    for (const item of items) {
      const clock = clockOf(item, now);
      list.append(
        h(
          "a",
          { class: "tour-item", href: `#/t/${item.id}`, "data-tournament": item.id },
          h(
            "span",
            { class: "tour-item-head" },
            raw(item.name, "strong", { dir: "auto" }),
            kindTag(item.name, item.kind),
          ),
          h(
            "span",
            { class: "muted small" },
            tx("tour.points", { n: item.length }),
            " · ",
            tx("tour.players", { n: item.players }),
            clock ? " · " : null,
            clock ? tx(clock.key, { time: countdown(clock.seconds) }, "span", { class: "tour-clock" }) : null,
          ),
        ),
      );
    }
  }

  const load = () =>
    api.tournaments().then(
      (answer) => {
        learnNow(answer.now);
        items = answer.tournaments;
        draw();
      },
      () => {},
    );
  /** Each second, the countdowns' text only: the list was drawn again every second, and a tap
   * on a tournament whose press and release straddled that was lost. */
  function tick() {
    const now = serverNow();
    for (const item of items || []) {
      retell(list.querySelector(`[data-tournament="${item.id}"] .tour-clock`), clockOf(item, now));
    }
  }

  fill();
  session.then(load);
  const ticker = setInterval(tick, 1000);
  const poller = setInterval(load, POLL_MS * 6);
  const off = onLanguage(fill);
  return {
    el,
    stop() {
      off();
      clearInterval(ticker);
      clearInterval(poller);
    },
  };
}
