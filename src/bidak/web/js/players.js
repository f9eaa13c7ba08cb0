// @ts-check
// The community pages: #/leaderboard (the top 100 and your rank), #/live (matches in play,
// tap to watch) and #/player/ID (a profile, with follow, challenge and block: friends.js). Names are data: always text nodes, never markup.
import { api, statusOf } from "./api.js";
import { button, clear, h, raw, tx } from "./dom.js";
import { relationCard } from "./friends.js";
import { onLanguage, t } from "./i18n.js";

/** @import { Leaderboard, LiveGame, PlayerProfile, TournamentResult, Trophy } from "./types.js" */
/** @typedef {{ navigate: (path: string) => void }} Nav */

const rating = (/** @type {number} */ x) => Number(x).toFixed(2);
const signedRating = (/** @type {number} */ x) => (x >= 0 ? `+${Number(x).toFixed(2)}` : `−${Math.abs(x).toFixed(2)}`);

function dateText(/** @type {string} */ iso) {
  const date = new Date(iso + (/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? "" : "Z"));
  return date.toLocaleDateString(document.documentElement.lang || undefined, {
    day: "numeric",
    month: "short",
    year: "numeric",
  });
}

/**
 * A player's name as a link to their profile (text only).
 * @param {string | null | undefined} id
 * @param {string | undefined} name
 * @param {Record<string, unknown> & { class?: string }} [attrs]
 */
export function playerLink(id, name, attrs = {}) {
  if (!id) return raw(name || "", "span", { dir: "auto", ...attrs });
  return h(
    "a",
    {
      dir: "auto",
      ...attrs,
      href: `#/player/${encodeURIComponent(id)}`,
      class: `player-link ${attrs.class || ""}`.trim(),
      "data-raw": "",
    },
    name || "",
  );
}

/**
 * Draw a page that loads one thing: spinner, then `draw(data)`, or an error card.
 * @template T
 * @param {HTMLElement} root
 * @param {Nav & { load: () => Promise<T>, draw: (data: T) => HTMLElement[], id: string }} options
 */
function page(root, { navigate, load, draw, id }) {
  /** @type {T | null} */
  let data = null;
  /** @type {number | null} */
  let failed = null;
  let gone = false;
  const render = () => {
    if (gone) return;
    const body = failed
      ? [tx(failed === 404 ? "player.not_found" : "error.generic", null, "p", { class: "muted", id: "page-error" })]
      : data === null
        ? [h("div", { class: "spinner-row" }, h("span", { class: "spinner" }))]
        : draw(data);
    clear(root).append(
      h(
        "div",
        { class: "community", id },
        h(
          "div",
          { class: "page-bar" },
          button("nav.back", () => navigate("/"), { class: "btn ghost small", id: "page-back" }),
        ),
        ...body,
      ),
    );
  };
  render();
  load().then(
    (x) => {
      data = x;
      render();
    },
    (error) => {
      failed = statusOf(error) || 500;
      render();
    },
  );
  const off = onLanguage(render);
  return () => {
    gone = true;
    off();
  };
}

export function mountLeaderboard(/** @type {HTMLElement} */ root, /** @type {Nav} */ { navigate }) {
  return page(root, {
    navigate,
    id: "leaderboard",
    load: api.leaderboard,
    draw: (/** @type {Leaderboard} */ board) => [
      h(
        "section",
        { class: "card" },
        h(
          "div",
          { class: "card-head" },
          h("span", { class: "card-icon icon-trophy", "aria-hidden": "true" }),
          tx("leaderboard.title", null, "h2"),
        ),
        tx("leaderboard.rule", { experience: board.min_experience, days: board.active_days }, "p", {
          class: "muted small",
        }),
        board.your_rank === null
          ? board.matches_to_go > 0
            ? tx(
                "leaderboard.to_go",
                { n: board.matches_to_go, have: board.your_experience, need: board.min_experience },
                "p",
                { class: "notice", id: "your-rank" },
              )
            : tx("leaderboard.unranked", { days: board.active_days }, "p", { class: "notice", id: "your-rank" })
          : tx("leaderboard.your_rank", { rank: board.your_rank }, "p", { class: "notice", id: "your-rank" }),
        board.leaders.length
          ? h(
              "table",
              { class: "ranks", id: "ranks" },
              h(
                "thead",
                {},
                h(
                  "tr",
                  {},
                  tx("leaderboard.rank", null, "th"),
                  tx("leaderboard.player", null, "th"),
                  tx("leaderboard.rating", null, "th", { class: "num" }),
                  tx("leaderboard.experience", null, "th", { class: "num" }),
                ),
              ),
              h(
                "tbody",
                {},
                board.leaders.map((row) =>
                  h(
                    "tr",
                    { "data-player": row.id, class: row.rank === board.your_rank ? "me" : null },
                    raw(String(row.rank), "td", { class: "num rank" }),
                    h("td", {}, playerLink(row.id, row.name)),
                    raw(rating(row.rating), "td", { class: "num" }),
                    raw(String(row.experience), "td", { class: "num" }),
                  ),
                ),
              ),
            )
          : tx("leaderboard.empty", null, "p", { class: "muted", id: "ranks-empty" }),
      ),
    ],
  });
}

export function mountLive(/** @type {HTMLElement} */ root, /** @type {Nav} */ { navigate }) {
  /** @type {(() => void) | null} */
  let stopPage = null;
  const load = () => api.live();
  const draw = (/** @type {LiveGame[]} */ games) => [
    h(
      "section",
      { class: "card" },
      h(
        "div",
        { class: "card-head" },
        h("span", { class: "card-icon icon-live", "aria-hidden": "true" }),
        tx("live.title", null, "h2"),
      ),
      tx("live.body", null, "p", { class: "muted small" }),
      games.length
        ? h(
            "ul",
            { class: "live-list", id: "live-list" },
            games.map((game) => {
              const [a, b] = game.players;
              const who = (/** @type {LiveGame["players"][number]} */ p) =>
                p
                  ? h(
                      "span",
                      { class: "live-player" },
                      raw(p.name, "b", { dir: "auto" }),
                      " ",
                      raw(`(${Math.round(p.rating)})`, "span", { class: "muted small" }),
                    )
                  : tx("seat.empty");
              return h(
                "li",
                {},
                h(
                  "a",
                  { class: "live-item", href: `#/room/${encodeURIComponent(game.room)}`, "data-room": game.room },
                  h(
                    "span",
                    { class: "live-players" },
                    who(a),
                    tx("live.versus", null, "span", { class: "muted live-versus" }),
                    who(b),
                  ),
                  h(
                    "span",
                    { class: "live-meta" },
                    game.length ? tx("match.length", { n: game.length }, "span", { class: "muted small" }) : null,
                    h(
                      "span",
                      { class: "live-score" },
                      game.score ? raw(`${game.score[0]}–${game.score[1]}`, "b", { class: "history-score" }) : null,
                      tx("live.watch", null, "span", { class: "badge live" }),
                    ),
                  ),
                ),
              );
            }),
          )
        : tx("live.empty", null, "p", { class: "muted", id: "live-empty" }),
    ),
  ];
  stopPage = page(root, { navigate, id: "live", load, draw });
  // The list of a moment ago: refreshed every 15 s while the page is open. This one is a poll
  // on purpose: no message says that a match somewhere started or ended (the server's
  // WebSocket messages are per room and per player), and a list a few seconds old is fine for
  // choosing a match to watch.
  const timer = setInterval(() => {
    if (stopPage) stopPage();
    stopPage = page(root, { navigate, id: "live", load, draw });
  }, 15000);
  return () => {
    clearInterval(timer);
    if (stopPage) stopPage();
  };
}

export function mountPlayer(
  /** @type {HTMLElement} */ root,
  /** @type {string} */ id,
  /** @type {Nav & { me: () => { id: string } | null }} */ { navigate, me },
) {
  return page(root, {
    navigate,
    id: "player",
    load: () => api.player(id),
    draw: (/** @type {PlayerProfile} */ p) => [
      h(
        "section",
        { class: "card profile-page" },
        raw(p.name, "h1", { class: "profile-name", id: "profile-name", dir: "auto" }),
        tx("player.member_since", { date: dateText(p.member_since) }, "p", { class: "muted small" }),
        h(
          "dl",
          { class: "stats", id: "profile-stats" },
          // A guest has no rating that moves: say so rather than show the starting figure, and
          // leave out the rated counts (always 0 for a guest).
          p.guest
            ? h(
                "div",
                { class: "stat" },
                tx("player.rating", null, "dt"),
                tx("player.unrated", null, "dd", { id: "stat-rating", class: "stat-none" }),
              )
            : stat("player.rating", rating(p.rating), "stat-rating"),
          p.guest ? null : stat("player.experience", String(p.experience), "stat-experience"),
          p.guest ? null : stat("player.played", String(p.played), "stat-played"),
          p.guest ? null : stat("player.won", String(p.won), "stat-won"),
          p.guest
            ? null
            : h(
                "div",
                { class: "stat" },
                tx("player.streak", null, "dt"),
                p.streak === 0
                  ? raw("0", "dd", { id: "stat-streak" })
                  : tx(p.streak > 0 ? "player.streak.won" : "player.streak.lost", { n: Math.abs(p.streak) }, "dd", {
                      id: "stat-streak",
                    }),
              ),
          p.guest || p.tournament_played
            ? h(
                "div",
                { class: "stat" },
                tx("player.tournament_matches", null, "dt"),
                tx("player.tournament_record", { played: p.tournament_played, won: p.tournament_won }, "dd", {
                  id: "stat-tournament",
                }),
              )
            : null,
          h(
            "div",
            { class: "stat" },
            tx("player.average_pr", null, "dt"),
            p.average_pr === null
              ? tx("player.no_pr", null, "dd", { id: "stat-pr", class: "stat-none" })
              : h(
                  "dd",
                  { id: "stat-pr" },
                  raw(p.average_pr.toFixed(2)),
                  " ",
                  tx("player.reviewed", { n: p.reviewed }, "span", { class: "muted small" }),
                ),
          ),
        ),
      ),
      ...(me()?.id === p.id ? [] : [relationCard({ id: p.id, name: p.name }, { navigate })]),
      tournamentsCard(p),
      h(
        "section",
        { class: "card" },
        tx("player.recent", null, "h2"),
        p.recent.length
          ? h(
              "ul",
              { class: "history", id: "recent" },
              p.recent.map((m) =>
                h(
                  "li",
                  { class: `history-item ${m.won ? "won" : "lost"}`, "data-match": m.match_id },
                  h(
                    "div",
                    { class: "history-main" },
                    playerLink(m.opponent_id, m.opponent, { class: "opp" }),
                    h(
                      "span",
                      { class: "history-meta" },
                      tx("match.length", { n: m.length }),
                      " · ",
                      raw(dateText(m.at)),
                    ),
                  ),
                  h(
                    "div",
                    { class: "history-side" },
                    raw(signedRating(m.rating_change), "b", {
                      class: `rating-change ${m.rating_change >= 0 ? "up" : "down"}`,
                    }),
                    tx(m.won ? "history.won" : "history.lost", null, "span", {
                      class: `badge ${m.won ? "good" : "bad"}`,
                    }),
                    h(
                      "a",
                      {
                        class: "btn small",
                        href: `#/review/${encodeURIComponent(m.match_id)}`,
                        "data-review": m.match_id,
                        "data-i18n": "history.review",
                      },
                      t("history.review"),
                    ),
                  ),
                ),
              ),
            )
          : tx("player.no_matches", null, "p", { class: "muted", id: "recent-empty" }),
      ),
    ],
  });
}

/** The player's trophies (cosmetic badges: a medal per first, second or third place) and their
 * finished tournaments, newest first. */
function tournamentsCard(/** @type {PlayerProfile} */ p) {
  return h(
    "section",
    { class: "card", id: "profile-tournaments" },
    tx("player.tournaments", null, "h2"),
    p.trophies.length
      ? h(
          "ul",
          { class: "trophies", id: "trophies", "aria-label": t("player.trophies") },
          p.trophies.map((trophy) => trophyBadge(trophy)),
        )
      : null,
    p.tournaments.length
      ? h(
          "ul",
          { class: "history", id: "tournament-results" },
          p.tournaments.map((r) => tournamentLine(r)),
        )
      : tx("player.no_tournaments", null, "p", { class: "muted", id: "tournaments-empty" }),
  );
}

function trophyBadge(/** @type {Trophy} */ trophy) {
  return h(
    "li",
    { class: `trophy place-${trophy.place}`, "data-trophy": `${trophy.kind}-${trophy.place}` },
    raw(String(trophy.place), "span", { class: "medal", "aria-hidden": "true" }),
    tx(`player.trophy.${trophy.kind}.${trophy.place}`, null, "span", { class: "trophy-name" }),
    trophy.count > 1 ? tx("player.trophy.times", { n: trophy.count }, "span", { class: "trophy-count" }) : null,
  );
}

function tournamentLine(/** @type {TournamentResult} */ r) {
  const name = r.id
    ? h("a", { class: "opp player-link", href: `#/t/${encodeURIComponent(r.id)}`, dir: "auto", "data-raw": "" }, r.name)
    : raw(r.name, "span", { class: "opp", dir: "auto" });
  return h(
    "li",
    { class: "history-item", "data-tournament": r.id || "" },
    h(
      "div",
      { class: "history-main" },
      name,
      h(
        "span",
        { class: "history-meta" },
        tx(`tour.kind.${r.kind}`),
        " · ",
        tx("tour.players", { n: r.players }),
        " · ",
        raw(dateText(new Date(r.at * 1000).toISOString())),
      ),
    ),
    h(
      "div",
      { class: "history-side" },
      tx("player.place", { n: r.place, of: r.players }, "span", {
        class: `badge place ${r.place <= 3 ? `place-${r.place}` : ""}`.trim(),
      }),
    ),
  );
}

function stat(/** @type {string} */ key, /** @type {string} */ value, /** @type {string} */ id) {
  return h("div", { class: "stat" }, tx(key, null, "dt"), raw(value, "dd", { id }));
}

export { rating as formatRating, signedRating };
