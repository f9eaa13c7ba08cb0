// @ts-check
// The table: a room joined over the WebSocket, drawn from the player's side. This module lays
// the page out and wires the parts together: the store (table-store.js) applies what the
// server says and the viewer's steps, and each change is routed here to the views that draw
// it (board, seats, controls, clocks, hint, move list); the presenter shows each event.

import { createAfterMatch } from "./aftermatch.js";
import { api, refusalKey } from "./api.js";
import { Connection } from "./connection.js";
import { button, clear, h, tx } from "./dom.js";
import { onLanguage, t } from "./i18n.js";
import { preloadLooks } from "./looks.js";
import { readRoom } from "./notifications.js";
import { createBoardView } from "./table-board.js";
import { renderClocks, runClocks } from "./table-clocks.js";
import { createControls } from "./table-controls.js";
import { createDialogs } from "./table-dialogs.js";
import { createPresenter } from "./table-events.js";
import { createHint } from "./table-hint.js";
import { renderLog, say } from "./table-log.js";
import { nameOf } from "./table-names.js";
import { createSeats } from "./table-seats.js";
import { createTableStore } from "./table-store.js";
import { createTableTournament } from "./table-tournament.js";
import { createTalk } from "./talk.js";
import { anchorToasts, closeDialogs, toast } from "./ui.js";

/** @import { Change, ConnectionStatus, Me } from "./types.js" */

/** The table's elements, made again by `layout()` on a change of language. */
function elements() {
  return {
    banner: h("div", { class: "banner hidden", role: "alert", id: "conn-banner" }),
    matchBar: h("div", { class: "match-bar" }),
    seatTop: h("div", { class: "seat seat-top", id: "seat-top" }),
    seatBottom: h("div", { class: "seat seat-bottom", id: "seat-bottom" }),
    tapHint: tx("board.tap_roll", null, "span", { class: "tap-roll-hint hidden", "aria-hidden": "true" }),
    controls: h("div", { class: "controls", id: "controls" }),
    autoplay: h("div", { class: "autoplay-banner hidden", id: "autoplay-banner" }),
    status: h("div", { class: "status-line", id: "status-line", "aria-live": "polite" }),
    hint: h("section", { class: "panel hint-panel hidden", id: "hint-panel" }),
    // A list that scrolls is reached by Tab, so it scrolls by keys too (axe).
    log: h("ol", { class: "log", id: "log", tabindex: "0", "aria-label": t("log.title") }),
    waiting: h("div", { class: "waiting hidden", id: "waiting" }),
    talk: h("div", { class: "talk-host" }),
    main: h("div", { class: "play-col" }),
  };
}

/**
 * Mount the table of room `code` in `root`; returns the function that takes it down.
 * @param {HTMLElement} root
 * @param {string} code
 * @param {{ navigate: (path: string) => void, me?: () => Me | null }} options
 */
export function mountTable(root, code, { navigate, me = () => null }) {
  let el = elements();
  const store = createTableStore(code, {
    present: async (event, shown) => {
      await present(event, shown);
      say(v, event);
    },
    paintLooks: () => board.paintLooks(),
    history: (match, since) => api.events(match, since).then((answer) => answer.events),
    onError: (known) => {
      // A mute that came during the match: the bar says it from now on, instead of a toast.
      if (known === "muted" && talk.silence()) return;
      toast(tx(known === "generic" ? "error.generic" : `error.${known}`), "error");
    },
    forward: (message) => {
      if (message.type === "talk") talk.onMessage(message);
      else if (message.type === "rematch") after.onMessage(message);
      // The next match of a tournament: to its table at once, whatever this table shows.
      else if (message.type === "tournament") tour.onMessage(message);
    },
    onMatchOver: () => {
      tour.load();
      dialogs.matchOver();
    },
  });
  const v = store.state;
  const name = (/** @type {number} */ player) => nameOf(v, player);
  const talk = createTalk({
    code,
    view: () => v,
    send: (m) => !!v.connection && v.connection.send(m),
    redraw: () => draw("seats"),
    silenced: () => talkMuted,
  });
  // A moderator's mute, as the account says it now (it may have come since the page loaded).
  let talkMuted = !!me()?.talk_muted;
  api.me().then(
    (fresh) => {
      if (!!fresh.talk_muted === talkMuted || !el.main.isConnected) return;
      talkMuted = !!fresh.talk_muted;
      draw("seats");
    },
    () => {},
  );
  const after = createAfterMatch({ code, view: () => v, navigate, nameOf: name });
  const tour = createTableTournament({ code, view: () => v, navigate, redraw: () => draw("all") });
  const board = createBoardView(store, { tapHint: () => el.tapHint, looksHost: () => el.main });
  const dialogs = createDialogs(store, {
    navigate,
    afterPanel: () => after.panel(),
    tourPanel: () => tour.panel(),
    tournament: () => tour.id(),
  });
  const present = createPresenter(store, board, dialogs);
  const hint = createHint(store, () => el.hint);
  const seats = createSeats(v, talk, navigate, tour);
  const controls = createControls(
    store,
    board,
    { controls: () => el.controls, autoplay: () => el.autoplay, status: () => el.status },
    { showHint: () => hint.show(), resign: () => dialogs.resign(), syncOffers: (tb) => dialogs.syncOffers(tb) },
  );

  const wide = matchMedia("(min-width: 980px)");

  function layout() {
    el = elements();
    const boardWrap = h("div", { class: "board-wrap" }, board.svg, el.tapHint, board.text);
    // A strip of its own above the table: a toast covers no checker, die or button at any size.
    const toastStrip = h("div", { class: "toast-strip" });
    anchorToasts(toastStrip);
    const side = h(
      "aside",
      { class: "side" },
      el.status,
      el.hint,
      h("section", { class: "panel log-panel" }, tx("log.title", null, "h3"), el.log),
    );
    el.main.append(el.seatTop, boardWrap, el.seatBottom, el.autoplay, el.controls, controls.typedPanel(), el.talk);
    clear(root).append(
      el.banner,
      el.matchBar,
      tour.bar(),
      el.waiting,
      h("div", { class: "table-grid" }, toastStrip, el.main, side),
    );
    // Above the board on a phone; at the head of the side column on a desktop.
    const place = () => {
      if (wide.matches) side.prepend(toastStrip);
      else el.main.before(toastStrip);
    };
    place();
    wide.onchange = place;
  }

  /** Draw again what `change` touched. */
  function draw(/** @type {Change} */ change) {
    switch (change) {
      case "all":
        tour.ensure();
        seats.matchBar(el.matchBar);
        seats.waiting(el.waiting, root);
        el.main.classList.toggle("hidden", !v.table);
        seats.seats(el.seatTop, el.seatBottom, el.talk);
        board.render();
        controls.render();
        renderClocks(root, v);
        hint.render();
        renderLog(el.log, v);
        dialogs.matchOverWhenFree();
        break;
      case "board":
        board.render();
        break;
      case "controls":
        controls.render();
        break;
      case "play":
        board.render();
        controls.render();
        break;
      case "hint":
        hint.render();
        board.render();
        break;
      case "seats":
        seats.seats(el.seatTop, el.seatBottom, el.talk);
        break;
    }
  }
  store.subscribe(draw);

  /** @param {ConnectionStatus} status */
  function onStatus(status) {
    v.status = status;
    el.banner.classList.toggle("hidden", status === "open" || (status === "connecting" && !v.table));
    const banner = {
      lost: "conn.lost",
      replaced: "conn.replaced",
      signed_out: "conn.signed_out",
      connecting: "conn.connecting",
      open: "conn.connecting",
    }[status];
    clear(el.banner).append(tx(banner));
    document.body.dataset.connection = status;
  }

  async function start() {
    preloadLooks(); // while the room and the socket come
    layout();
    draw("all");
    try {
      let info = await api.room(code);
      if (info.seat === null && info.kind === "friend" && info.seats[1] && !info.seats[1].name) {
        info = await api.joinRoom(code);
      }
      v.info = info;
    } catch (error) {
      // A door the server's check keeps shut (a ban) says why; anything else is a missing room.
      clear(root).append(
        h(
          "div",
          { class: "card center-card" },
          tx(refusalKey(error, "room.not_found"), null, "h2"),
          button("nav.lobby", () => navigate("/"), { class: "btn primary" }),
        ),
      );
      return;
    }
    v.connection = new Connection(code, { message: store.receive, status: onStatus });
  }

  const stopClocks = runClocks(root, v);
  const offLanguage = onLanguage(() => {
    tour.redraw();
    layout();
    board.paintLooks();
    onStatus(v.status);
    draw("all");
  });

  window.__bidak = { view: v, drop: () => v.connection?.drop() };
  start();
  // The table is open: its notifications (your turn here, time almost up) are read; again
  // whenever the page comes back to the front.
  readRoom(code);
  const onFront = () => {
    if (document.visibilityState === "visible") readRoom(code);
  };
  document.addEventListener("visibilitychange", onFront);

  return () => {
    document.removeEventListener("visibilitychange", onFront);
    controls.stop();
    stopClocks();
    dialogs.stop();
    offLanguage();
    closeDialogs();
    anchorToasts(null);
    wide.onchange = null;
    talk.stop();
    after.stop();
    tour.stop();
    if (v.connection) v.connection.close();
    window.__bidak = null;
  };
}
