// @ts-check
// 'Your games' (#/games): every unfinished match, live or correspondence, the ones waiting on
// the viewer first by time left (the server's order, GET /api/games), each with the opponent,
// the score, the time left and a board thumbnail; and the header's badge, the count of games
// waiting on the viewer, asked again on every route and every 30 s; and the vacation card
// (days left this year, take some: the correspondence clocks stop meanwhile) with the
// auto-roll switch (off by default: a roll and a single legal play are the player's taps);
// above them, the open challenges to the viewer (accept, decline) and theirs (withdraw).
import { api, statusOf } from "./api.js";
import { challengesCard } from "./challenges.js";
import { button, clear, h, raw, s, tx } from "./dom.js";
import { t } from "./i18n.js";
import { formatClock, segmented, toast } from "./ui.js";

/** @import { Vacation, YourGame, YourGames } from "./types.js" */

const BADGE_MS = 30000;

/**
 * A board thumbnail: 24 points from the viewer's side (point 1 bottom right), their checkers
 * light, the opponent's dark, at most five drawn per point.
 * @param {number[]} board
 */
export function thumbnail(board) {
  const W = 130;
  const H = 80;
  const col = W / 13;
  const r = col / 2.2;
  /** @type {SVGElement[]} */
  const parts = [s("rect", { x: 0, y: 0, width: W, height: H, rx: 4, class: "thumb-bg" })];
  board.forEach((count, index) => {
    const point = index + 1;
    const top = point > 12;
    const slot = top ? point - 13 : 12 - point; // 0..11 from the left
    const x = (slot + (slot >= 6 ? 1 : 0)) * col + col / 2;
    for (let k = 0; k < Math.min(5, Math.abs(count)); k++) {
      const y = top ? r + k * 2 * r : H - r - k * 2 * r;
      parts.push(
        s("circle", {
          cx: x.toFixed(1),
          cy: y.toFixed(1),
          r: r.toFixed(1),
          class: count > 0 ? "thumb-me" : "thumb-them",
        }),
      );
    }
  });
  return s("svg", { class: "thumb", viewBox: `0 0 ${W} ${H}`, "aria-hidden": "true" }, ...parts);
}

/** @param {YourGame} game @param {number} now */
function row(game, now) {
  const left = game.deadline === null ? null : game.deadline - now;
  return h(
    "li",
    {},
    h(
      "a",
      {
        class: `game-item${game.yours ? " yours" : ""}`,
        href: `#/room/${encodeURIComponent(game.room)}`,
        "data-room": game.room,
        "data-yours": game.yours ? "1" : "0",
      },
      thumbnail(game.board),
      h(
        "span",
        { class: "game-text" },
        game.opponent ? raw(game.opponent, "b", { dir: "auto" }) : tx("seat.empty", null, "b"),
        h(
          "span",
          { class: "muted small" },
          raw(`${game.score[0]}–${game.score[1]} `, "span", { class: "game-score" }),
          tx("match.length", { n: game.length }, "span"),
        ),
        game.days_per_move === null
          ? tx("games.live", null, "span", { class: "muted small" })
          : tx("games.days", { n: game.days_per_move }, "span", { class: "muted small" }),
      ),
      h(
        "span",
        { class: "game-side" },
        game.yours
          ? tx("games.your_turn", null, "span", { class: "badge" })
          : tx("games.their_turn", null, "span", { class: "muted small" }),
        left === null ? null : raw(formatClock(left), "span", { class: "game-left" }),
      ),
    ),
  );
}

/**
 * The vacation card: the one running (until when), or the days left and a way to take some.
 * @param {Vacation} vacation
 * @param {(v: Vacation) => void} redraw
 */
function vacationCard(vacation, redraw) {
  let days = 1;
  const until =
    vacation.end === null
      ? null
      : new Date(vacation.end * 1000).toLocaleString(document.documentElement.lang || undefined, {
          dateStyle: "medium",
          timeStyle: "short",
        });
  const take = async () => {
    try {
      redraw(await api.takeVacation(days));
    } catch (error) {
      toast(tx(statusOf(error) === 409 ? "vacation.refused" : "error.generic"), "error");
    }
  };
  const choices = [1, 2, 3, 5, 7]
    .filter((n) => n <= vacation.days_left)
    .map((n) => ({ value: n, key: "opt.days.n", params: { n } }));
  return h(
    "section",
    { class: "card", id: "vacation-card" },
    h("div", { class: "card-head" }, tx("vacation.title", null, "h2")),
    tx("vacation.body", null, "p", { class: "muted small" }),
    tx("vacation.left", { n: Math.floor(vacation.days_left), bank: vacation.bank }, "p", { id: "vacation-left" }),
    until !== null
      ? tx("vacation.until", { until }, "p", { class: "notice", id: "vacation-until" })
      : choices.length
        ? h(
            "div",
            { class: "field" },
            segmented("vacation-days", choices, days, (x) => {
              days = x;
            }),
            button("vacation.take", take, { class: "btn wide", id: "take-vacation" }),
          )
        : null,
  );
}

/** The auto-roll switch, filled in when the setting arrives. */
function autoRollRow() {
  const box = h("input", { type: "checkbox", id: "auto-roll", disabled: true });
  api.gameSettings().then(
    (x) => {
      box.checked = x.auto_roll;
      box.disabled = false;
    },
    () => {},
  );
  box.addEventListener("change", () => {
    const on = box.checked;
    api.setAutoRoll(on).catch(() => {
      box.checked = !on;
      toast(tx("error.generic"), "error");
    });
  });
  return h(
    "div",
    { class: "field" },
    h("label", { class: "check-row", for: "auto-roll" }, box, tx("games.auto_roll")),
    tx("games.auto_roll.body", null, "p", { class: "muted small" }),
  );
}

/** `#/games` */
export function mountGames(
  /** @type {HTMLElement} */ root,
  /** @type {{ navigate: (path: string) => void }} */ { navigate },
) {
  let gone = false;
  const autoRoll = autoRollRow();
  const challenges = challengesCard({ navigate });
  /** @type {Vacation | null} */
  let vacation = null;
  /** @type {YourGames | null} */
  let shown = null;
  /** @param {YourGames | null} data @param {boolean} failed */
  const draw = (data, failed) => {
    if (gone) return;
    shown = data;
    const body = failed
      ? tx("error.generic", null, "p", { class: "muted" })
      : data === null
        ? h("div", { class: "spinner-row" }, h("span", { class: "spinner" }))
        : data.games.length
          ? h(
              "ul",
              { class: "games-list", id: "games-list" },
              data.games.map((g) => row(g, data.now)),
            )
          : tx("games.empty", null, "p", { class: "muted", id: "games-empty" });
    clear(root).append(
      h(
        "div",
        { class: "community", id: "games" },
        h(
          "div",
          { class: "page-bar" },
          button("nav.back", () => navigate("/"), { class: "btn ghost small", id: "page-back" }),
          h(
            "a",
            { class: "btn ghost small", href: "#/friends", id: "link-friends-games", "data-i18n": "nav.friends" },
            t("nav.friends"),
          ),
        ),
        challenges,
        h(
          "section",
          { class: "card" },
          h("div", { class: "card-head" }, tx("games.title", null, "h2")),
          tx("games.body", null, "p", { class: "muted small" }),
          body,
          autoRoll,
        ),
        vacation
          ? vacationCard(vacation, (v) => {
              vacation = v;
              draw(shown, false);
              load(); // the deadlines moved with the vacation
            })
          : null,
      ),
    );
  };
  draw(null, false);
  const load = () =>
    api.games().then(
      (data) => {
        draw(data, false);
        setBadge(data.waiting);
      },
      () => draw(null, true),
    );
  load();
  api.vacation().then(
    (v) => {
      vacation = v;
      draw(shown, false);
    },
    () => {},
  );
  return () => {
    gone = true;
  };
}

/** Show `count` on the header's badge (hidden at 0). */
export function setBadge(/** @type {number} */ count) {
  const badge = document.getElementById("games-badge");
  if (!badge) return;
  badge.textContent = count ? String(count) : "";
  badge.hidden = !count;
}

let timer = /** @type {ReturnType<typeof setInterval> | null} */ (null);

/** Ask for the count now, and every 30 s from now on. */
export function refreshBadge() {
  const ask = () =>
    api.games().then(
      (data) => setBadge(data.waiting),
      () => {},
    );
  ask();
  if (timer === null) timer = setInterval(ask, BADGE_MS);
}
