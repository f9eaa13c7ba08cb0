// @ts-check
// Quick match (docs/protocol.md "Quick match"): the lobby's card, and the wait that outlives it.
// While the player waits, a WebSocket of their own (no room joined) brings `{"type": "quick"}`
// updates, and GET /api/quick is asked each time that socket opens (an update sent while it was
// being opened or reopened would be lost otherwise): paired, the page goes to the room from
// whatever view it shows; after 45 s the server may offer a bot. Only when the server refuses
// this browser one more socket (4001) is GET /api/quick asked every 3 s instead.
import { ApiError, api, refusalKey } from "./api.js";
import { button, h, raw, tx } from "./dom.js";
import { t } from "./i18n.js";
import { dialog, formatClock, segmented, toast } from "./ui.js";

const OPTIONS_KEY = "bidak.quick";
const POLL_MS = 3000;
// Only to name a bot when the offer came by GET (which says that, not which level); the
// server's own choice (bidak.pairing.BOT_RATINGS) comes with the WebSocket's offer.
/** @type {Record<string, number>} */
const BOT_RATINGS = { beginner: 1380, normal: 1780, expert: 2075 };

/** @import { QuickMessage, QuickOptions, QuickStatus, Me } from "./types.js" */

/**
 * The wait, which outlives the lobby's card: `earlier` is a quick match of the player's in
 * play before this wait (not the pairing), `startedAt` this clock's time the wait began.
 * @type {{ waiting: boolean, earlier: string | null, startedAt: number, options: QuickOptions | null,
 *   offered: boolean, offerShown: boolean, level: string | null, socket: WebSocket | null,
 *   poller: ReturnType<typeof setInterval> | undefined, ticker: ReturnType<typeof setInterval> | undefined,
 *   navigate: ((path: string) => void) | null, rating: number, redraw: (() => void) | null }}
 */
const state = {
  waiting: false,
  earlier: null,
  startedAt: 0,
  options: null,
  offered: false,
  offerShown: false,
  level: null,
  socket: null,
  poller: undefined,
  ticker: undefined,
  navigate: null,
  rating: 1500,
  redraw: null,
};

/** @returns {QuickOptions} */
function remembered() {
  try {
    return { length: 1, move_seconds: 45, cube: true, ...JSON.parse(localStorage.getItem(OPTIONS_KEY) || "{}") };
  } catch {
    return { length: 1, move_seconds: 45, cube: true };
  }
}

function nearestLevel(/** @type {number} */ rating) {
  return Object.keys(BOT_RATINGS).reduce((a, b) =>
    Math.abs(BOT_RATINGS[b] - rating) < Math.abs(BOT_RATINGS[a] - rating) ? b : a,
  );
}

/** The player's own socket: quick match updates reach every connection of theirs. */
function openSocket() {
  if (state.socket) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws`);
  state.socket = ws;
  ws.onopen = () => refresh();
  ws.onmessage = (event) => {
    /** @type {QuickMessage} */
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "quick") onQuick(message);
  };
  ws.onclose = (event) => {
    if (state.socket === ws) state.socket = null;
    if (!state.waiting) return;
    // 4001: this browser holds too many sockets, and opening one more would close another; no
    // update can reach this page then, so it asks GET /api/quick every 3 s until the wait ends.
    if (event.code === 4001) startPolling();
    else setTimeout(() => state.waiting && !state.socket && openSocket(), 1500);
  };
  ws.onerror = () => {};
}

/** Ask GET /api/quick once: an update may have been sent while no socket was open. */
async function refresh() {
  try {
    const status = await api.quickStatus();
    if (state.waiting) show(status);
  } catch {
    // the socket's updates still come; the next (re)connection asks again
  }
}

function startPolling() {
  if (!state.poller) state.poller = setInterval(refresh, POLL_MS);
}

function closeSocket() {
  const ws = state.socket;
  state.socket = null;
  if (ws) ws.close();
}

function onQuick(/** @type {QuickMessage} */ message) {
  if (message.state === "paired" && message.room) paired(message.room);
  else if (message.state === "offer" && state.waiting) {
    state.offered = true;
    state.level = message.level || state.level;
    offer();
  } else if (message.state === "left" && state.waiting) stopWaiting(false);
  else if (message.state === "waiting" && typeof message.since === "number" && !state.waiting) {
    // another tab of the same player started waiting: show it here too
    state.waiting = true;
    state.startedAt = Date.now() / 1000;
    keepWatching();
  }
}

function show(/** @type {QuickStatus} */ status) {
  if (status.room && state.waiting && status.room !== state.earlier) {
    paired(status.room);
    return;
  }
  if (!status.waiting) {
    if (state.waiting) stopWaiting(false);
    return;
  }
  if (!state.waiting) state.startedAt = Date.now() / 1000 - (status.waited || 0);
  state.waiting = true;
  state.options = status.options || state.options;
  if (status.offered && !state.offered) {
    state.offered = true;
    offer();
  }
  keepWatching();
}

function keepWatching() {
  openSocket();
  // The wait's own clock on the card (a real clock: nothing arrives while the seconds run).
  if (!state.ticker) state.ticker = setInterval(tick, 1000);
  redraw();
}

function stopWaiting(redrawNow = true) {
  state.waiting = false;
  state.offered = false;
  state.offerShown = false;
  clearInterval(state.poller);
  clearInterval(state.ticker);
  state.poller = state.ticker = undefined;
  closeSocket();
  const open = document.getElementById("quick-offer");
  const backdrop = open?.closest(".backdrop");
  if (backdrop) backdrop.remove();
  if (redrawNow) redraw();
}

function paired(/** @type {string} */ room) {
  stopWaiting(false);
  if (state.navigate) state.navigate(`/room/${room}`);
}

function tick() {
  const node = document.getElementById("quick-waited");
  if (node) node.textContent = formatClock(Date.now() / 1000 - state.startedAt);
}

function redraw() {
  if (state.redraw) state.redraw();
}

/** The bot offered for the long wait: play it meanwhile (which leaves the queue), or wait on. */
function offer() {
  if (state.offerShown || document.getElementById("quick-offer")) return;
  state.offerShown = true;
  const level = state.level || nearestLevel(state.rating);
  dialog({
    id: "quick-offer",
    title: "quick.offer.title",
    body: () => tx("quick.offer.body", { level: t(`level.${level}`) }, "p"),
    actions: [
      { key: "quick.offer.play", kind: "primary", id: "quick-offer-play", onclick: () => playBot(level) },
      { key: "quick.offer.wait", id: "quick-offer-wait" },
    ],
  });
}

async function playBot(/** @type {string} */ level) {
  const options = state.options || remembered();
  try {
    await api.leaveQuick();
    stopWaiting(false);
    const room = await api.createRoom({
      kind: "practice",
      level,
      length: options.length,
      cube: options.length === 1 ? false : options.cube,
    });
    if (state.navigate) state.navigate(`/room/${room.code}`);
  } catch (error) {
    toast(tx(error instanceof ApiError && error.status === 429 ? "error.too_many" : "error.generic"), "error");
  }
}

/** @param {QuickOptions} options @param {Promise<unknown>} session */
async function start(options, session) {
  await session;
  try {
    // `room` names the player's quick match in play, which may be an earlier one left
    // unfinished: only a room other than that one is the pairing.
    state.earlier = (await api.quickStatus()).room || null;
    const status = await api.quick({ ...options, cube: options.length === 1 ? false : options.cube });
    const fresh = status.room && status.room !== state.earlier ? status.room : null;
    state.waiting = !fresh;
    state.startedAt = Date.now() / 1000 - (status.waited || 0);
    state.options = options;
    state.offered = false;
    state.offerShown = false;
    if (fresh) paired(fresh);
    else keepWatching();
  } catch (error) {
    const fallback = error instanceof ApiError && error.status === 429 ? "error.too_many" : "error.generic";
    toast(tx(refusalKey(error, fallback)), "error");
  }
}

async function cancel() {
  try {
    await api.leaveQuick();
    stopWaiting();
  } catch {
    toast(tx("error.generic"), "error");
  }
}

/**
 * The lobby's card. `navigate` is kept for the pairing (which may come on another view);
 * `redraw` draws the card again in place. On mounting, GET /api/quick says whether this
 * player already waits (a reload, another tab).
 * @param {{ navigate: (path: string) => void, session: Promise<unknown>, me: () => Me | null }} options
 */
export function quickMatch({ navigate, session, me }) {
  state.navigate = navigate;
  const options = remembered();
  const save = () => localStorage.setItem(OPTIONS_KEY, JSON.stringify(options));
  let redrawCard = () => {};
  session
    .then(() => {
      const who = me();
      if (who && typeof who.rating === "number") state.rating = who.rating;
      redrawCard(); // the profile link needs the account
      return api.quickStatus();
    })
    .then(
      (status) => {
        if (status.waiting) show(status);
      },
      () => {},
    );

  function summary(/** @type {QuickOptions} */ chosen) {
    const length = chosen.length === 1 ? tx("opt.length.one") : tx("opt.length.n", { n: chosen.length });
    return h(
      "p",
      { class: "quick-summary", id: "quick-summary" },
      length,
      " · ",
      tx("opt.seconds", { n: chosen.move_seconds }),
      chosen.length > 1 ? [" · ", tx(chosen.cube ? "quick.cube_on" : "quick.cube_off")] : null,
    );
  }

  function card() {
    const lengths = [1, 3, 5, 7].map((n) => ({
      value: n,
      key: n === 1 ? "opt.length.one" : "opt.length.n",
      params: { n },
    }));
    const field = (/** @type {string} */ key, /** @type {HTMLElement} */ control) =>
      h("div", { class: "field" }, tx(key, null, "label", { class: "field-label" }), control);
    const body = state.waiting
      ? [
          h(
            "div",
            { class: "quick-wait", id: "quick-waiting" },
            h("span", { class: "spinner" }),
            tx("quick.waiting", null, "span"),
            raw(formatClock(Date.now() / 1000 - state.startedAt), "b", { id: "quick-waited", class: "quick-waited" }),
          ),
          summary(state.options || options),
          tx("quick.waiting.note", null, "p", { class: "muted small" }),
          button("btn.cancel", cancel, { class: "btn wide", id: "quick-cancel" }),
        ]
      : [
          tx("quick.body", null, "p", { class: "muted" }),
          field(
            "opt.length",
            segmented("quick-length", lengths, options.length, (x) => {
              options.length = x;
              save();
              redrawCard();
            }),
          ),
          options.length === 1
            ? field(
                "opt.cube",
                tx("opt.cube.one_point", null, "p", { class: "muted small field-note", id: "quick-cube-none" }),
              )
            : field(
                "opt.cube",
                segmented(
                  "quick-cube",
                  [
                    { value: true, key: "opt.on" },
                    { value: false, key: "opt.off" },
                  ],
                  options.cube,
                  (x) => {
                    options.cube = x;
                    save();
                  },
                ),
              ),
          field(
            "opt.time",
            segmented(
              "quick-time",
              [30, 45, 90].map((n) => ({ value: n, key: "opt.seconds", params: { n } })),
              options.move_seconds,
              (x) => {
                options.move_seconds = x;
                save();
              },
            ),
          ),
          button("quick.start", () => start({ ...options }, session), { class: "btn primary wide", id: "quick-start" }),
        ];
    const who = me();
    return h(
      "section",
      { class: "card", id: "quick-card" },
      h(
        "div",
        { class: "card-head" },
        h("span", { class: "card-icon icon-quick", "aria-hidden": "true" }),
        tx("quick.title", null, "h2"),
      ),
      ...body,
      h(
        "nav",
        { class: "community-links" },
        h("a", { href: "#/leaderboard", id: "link-leaderboard", "data-i18n": "nav.leaderboard" }, t("nav.leaderboard")),
        h("a", { href: "#/live", id: "link-live", "data-i18n": "nav.live" }, t("nav.live")),
        h("a", { href: "#/friends", id: "link-friends", "data-i18n": "nav.friends" }, t("nav.friends")),
        who
          ? h(
              "a",
              { href: `#/player/${encodeURIComponent(who.id)}`, id: "link-me", "data-i18n": "nav.my_profile" },
              t("nav.my_profile"),
            )
          : null,
      ),
    );
  }

  redrawCard = () => {
    const old = document.getElementById("quick-card");
    if (old) {
      const active = document.activeElement;
      const focused = active instanceof HTMLElement && active.closest("#quick-card") ? active.dataset.value : null;
      old.replaceWith(card());
      if (focused) {
        const again = document.querySelector(`#quick-card [data-value="${focused}"]`);
        if (again instanceof HTMLElement) again.focus();
      }
    }
  };
  state.redraw = redrawCard;
  return {
    card,
    stop: () => {
      if (state.redraw === redrawCard) state.redraw = null;
    },
  };
}
