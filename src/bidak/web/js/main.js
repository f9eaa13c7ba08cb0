// @ts-check
// Boot: language, the header, the visitor's account, and a hash router:
// #/ lobby · #/room/CODE table · #/review/MATCH review · #/shop the coins shop ·
// #/leaderboard · #/live · #/player/ID · #/t/ID a tournament · #/account account · #/mod,
// #/mod/ID the moderators' queue and a case · #/drill the daily drill · #/puzzles puzzles ·
// #/games your unfinished games · #/notifications the notification centre · #/friends friends; the page an e-mail link opens
// (/auth/email?token=...) is emaillink.js's, outside the router.
// The first view is drawn while the module runs, before any network answer: the lobby shows
// its cards at once and fills in the account when /api/me answers. Every other request waits
// for that answer (`session`), since the first one of a new visitor creates their guest.
import { mountAccount } from "./account.js";
import { api } from "./api.js";
import { mountShop } from "./coins.js";
import { clear, h, tx } from "./dom.js";
import { mountDrill } from "./drill.js";
import { mountEmailLink } from "./emaillink.js";
import { mountFriends } from "./friends.js";
import { mountGames, refreshBadge } from "./games.js";
import { defaultLanguage, LANGUAGES, language, onLanguage, setLanguage, t } from "./i18n.js";
import { mountLobby } from "./lobby.js";
import { mountModCase, mountModQueue } from "./mod.js";
import { mountNotifications, refreshBell } from "./notifications.js";
import { mountLeaderboard, mountLive, mountPlayer } from "./players.js";
import { registerWorker, syncPush } from "./push.js";
import { mountPuzzles } from "./puzzles.js";
import { mountReview } from "./review.js";
import { openRules } from "./rules.js";
import { applyAccess, restoreAccess } from "./settings.js";
import { mountTable } from "./table.js";
import { followTournaments } from "./tournament-follow.js";
import { mountTournament } from "./tournaments.js";
import { dialog } from "./ui.js";

/** @import { Me } from "./types.js" */

/** @type {Me | null} */
let me = null;
/** @type {(() => void) | null} takes the view shown now down */
let unmount = null;
let routed = 0;
/** @type {Promise<void>} the visitor's first request (GET /api/me) */
let session = Promise.resolve();
/** The page's two places (index.html has them). */
const main = /** @type {HTMLElement} */ (document.getElementById("main"));
const header = /** @type {HTMLElement} */ (document.getElementById("header"));
const LINK_PAGE = location.pathname === "/auth/email";

function navigate(/** @type {string} */ path) {
  if (location.hash === `#${path}`) route();
  else location.hash = `#${path}`;
}

function drawHeader() {
  const select = h(
    "select",
    { id: "lang", "aria-label": t("lang.label") },
    LANGUAGES.map((l) =>
      h(
        "option",
        { value: l.code, selected: l.code === language(), "data-i18n": `lang.${l.code}` },
        t(`lang.${l.code}`),
      ),
    ),
  );
  select.addEventListener("change", () => setLanguage(select.value));
  clear(header).append(
    h(
      "a",
      { class: "brand", href: LINK_PAGE ? "/" : "#/", "aria-label": "Bidak" },
      h("span", { class: "brand-mark", "aria-hidden": "true" }),
      tx("brand"),
    ),
    h(
      "nav",
      { class: "header-nav" },
      h(
        "a",
        { class: "btn ghost small games-link", href: "#/games", id: "header-games" },
        h("span", { class: "games-icon", "aria-hidden": "true" }),
        tx("nav.games.short", null, "span", { class: "games-text" }),
        h("span", { class: "count-badge", id: "games-badge", hidden: true, "aria-live": "polite" }),
      ),
      h(
        "a",
        { class: "btn ghost small bell-link", href: "#/notifications", id: "header-bell" },
        h("span", { class: "bell-icon", "aria-hidden": "true" }),
        tx("nav.notifications", null, "span", { class: "sr-only" }),
        h("span", { class: "count-badge", id: "bell-badge", hidden: true, "aria-live": "polite" }),
      ),
      h(
        "button",
        { type: "button", class: "btn ghost small rules-link", id: "header-rules", onclick: () => openRules() },
        h("span", { class: "rules-icon", "aria-hidden": "true" }),
        tx("nav.rules", null, "span", { class: "rules-text" }),
      ),
      h("label", { class: "lang-pick" }, tx("lang.label", null, "span", { class: "sr-only" }), select),
    ),
  );
  document.title = t("title");
}

function route() {
  if (unmount) unmount();
  unmount = null;
  for (const node of document.querySelectorAll(".toasts .toast")) node.remove();
  const hash = location.hash.replace(/^#/, "") || "/";
  const room = /^\/room\/([A-Za-z0-9_-]+)/.exec(hash);
  const review = /^\/review\/([A-Za-z0-9_-]+)/.exec(hash);
  const shop = hash === "/shop";
  const tournament = /^\/t\/([A-Za-z0-9_-]+)$/.exec(hash);
  const mod = /^\/mod(?:\/([A-Za-z0-9_-]+))?$/.exec(hash);
  const drill = hash === "/drill";
  const puzzles = hash === "/puzzles";
  const games = hash === "/games";
  const notes = hash === "/notifications";
  const friends = hash === "/friends";
  const community = /^\/(leaderboard|live)$/.exec(hash) || /^\/(player)\/([A-Za-z0-9_-]+)$/.exec(hash);
  /** @param {Me | null} x */
  const setMe = (x) => {
    me = x;
  };
  const account = hash === "/account";
  document.body.dataset.view = room
    ? "table"
    : review
      ? "review"
      : shop || tournament
        ? tournament
          ? "tournament"
          : "shop"
        : friends
          ? "friends"
          : drill || puzzles || games || notes
            ? games || notes
              ? games
                ? "games"
                : "notifications"
              : "drill"
            : community
              ? community[1]
              : mod
                ? "mod"
                : account
                  ? "account"
                  : "lobby";
  if (!room || !document.body.dataset.room || document.body.dataset.room !== room[1]) window.scrollTo(0, 0);
  document.body.dataset.room = room ? room[1] : "";
  const mine = ++routed;
  if (account) {
    unmount = mountAccount(main, { navigate, me: () => me, setMe, session });
    return;
  }
  if (!LINK_PAGE) session.then(refreshBadge).then(refreshBell);
  if (
    !room &&
    !review &&
    !shop &&
    !drill &&
    !puzzles &&
    !games &&
    !notes &&
    !friends &&
    !community &&
    !tournament &&
    !mod
  ) {
    unmount = mountLobby(main, { navigate, me: () => me, setMe, session });
    return;
  }
  clear(main);
  session.then(() => {
    if (mine !== routed) return; // the visitor went somewhere else meanwhile
    if (room) unmount = mountTable(main, room[1], { navigate, me: () => me });
    else if (shop) unmount = mountShop(main, { navigate });
    else if (tournament) unmount = mountTournament(main, tournament[1], { navigate, me: () => me });
    else if (drill) unmount = mountDrill(main, { navigate });
    else if (puzzles) unmount = mountPuzzles(main, { navigate });
    else if (games) unmount = mountGames(main, { navigate });
    else if (notes) unmount = mountNotifications(main, { navigate });
    else if (friends) unmount = mountFriends(main, { navigate });
    else if (review) unmount = mountReview(main, review[1], { navigate });
    else if (mod) {
      const context = { navigate, me: () => me };
      unmount = mod[1] ? mountModCase(main, mod[1], context) : mountModQueue(main, context);
    } else if (!community) return;
    else if (community[1] === "leaderboard") unmount = mountLeaderboard(main, { navigate });
    else if (community[1] === "live") unmount = mountLive(main, { navigate });
    else unmount = mountPlayer(main, community[2], { navigate, me: () => me });
  });
}

function boot() {
  setLanguage(defaultLanguage(), false);
  restoreAccess();
  onLanguage(drawHeader);
  drawHeader();
  if (LINK_PAGE) {
    // no /api/me first: a sign-in link in a new browser needs no guest
    document.body.dataset.view = "email-link";
    mountEmailLink(main, new URLSearchParams(location.search).get("token") || "");
    document.body.classList.add("ready");
    return;
  }
  session = api.me().then(
    (x) => {
      me = x;
      applyAccess(x.access);
      if (x.signed_out) signedOut(x);
      syncPush(x.id); // pushes follow whoever this browser is now (push.js)
    },
    () => {
      me = null;
    },
  );
  registerWorker(); // shows pushes; caches nothing (sw.js)
  window.addEventListener("hashchange", route);
  followTournaments({ navigate, session });
  route();
  document.body.classList.add("ready");
}

/**
 * The session this browser held was ended elsewhere (signed out from another browser): the
 * visitor is a new guest now, and is told so, with the way to sign in again.
 * @param {Me} now
 */
function signedOut(now) {
  dialog({
    id: "signed-out",
    title: "signed_out.title",
    body: () => tx("signed_out.body", { name: now.name }, "p"),
    actions: [
      { key: "signed_out.sign_in", kind: "primary", id: "signed-out-sign-in", onclick: () => navigate("/account") },
      { key: "signed_out.stay", id: "signed-out-stay" },
    ],
  });
}

boot();
