// The table: a room joined over the WebSocket, drawn from the player's side. The server's
// `table` is the truth; the only local state is the steps of a play not yet sent (kept in
// sessionStorage so a reload in the middle of a turn keeps them) and what is being animated.
import { api } from "./api.js";
import { createBoard } from "./board.js";
import { Connection } from "./connection.js";
import { h, tx, raw, button, clear } from "./dom.js";
import { t, onLanguage } from "./i18n.js";
import { applyLooks, preloadLooks } from "./looks.js";
import {
  BAR, OFF, applyMine, applyTheirs, cloneBoard, consistentPlays, expandPlays, isComplete, options,
  usedDice,
} from "./selection.js";
import { dialog, toast, closeDialogs, copyText, prefersReducedMotion, formatClock, signed, pct, segmented } from "./ui.js";
import { createAfterMatch } from "./aftermatch.js";
import { playerLink } from "./players.js";
import { createTalk } from "./talk.js";

const STEP_MS = 300;

export function seatLabel(seat, index) {
  if (!seat) return "";
  if (seat.bot) return t("bot.name", { level: t(`level.${seat.bot}`) });
  return seat.name || t("seat.empty");
}

export function mountTable(root, code, { navigate }) {
  const v = {
    code, info: null, seat: null, seats: [], kind: null, moveSeconds: null, match: null,
    table: null, version: 0, deadline: null, offset: 0, shown: null,
    made: [], selected: null, cursor: null, busy: false, queue: Promise.resolve(),
    log: [], hint: null, hintArrows: null, lastArrows: null, ownPlay: null, sending: false,
    ended: null, connection: null, status: "connecting", diceOverride: null,
  };
  const el = {};
  const talk = createTalk({ code, view: () => v, send: (m) => !!v.connection && v.connection.send(m), redraw: () => renderSeats() });
  const after = createAfterMatch({ code, view: () => ({ ...v, code }), navigate, nameOf });
  const board = createBoard({ onTarget: (p) => { if (pressedOn === v.version) tap(p); }, label: t("board.label") });

  // -- layout ------------------------------------------------------------------------------------
  function layout() {
    el.banner = h("div", { class: "banner hidden", role: "alert", id: "conn-banner" });
    el.matchBar = h("div", { class: "match-bar" });
    el.seatTop = h("div", { class: "seat seat-top", id: "seat-top" });
    el.seatBottom = h("div", { class: "seat seat-bottom", id: "seat-bottom" });
    el.tapHint = tx("board.tap_roll", null, "span", { class: "tap-roll-hint hidden", "aria-hidden": "true" });
    el.boardWrap = h("div", { class: "board-wrap" }, board.svg, el.tapHint);
    el.controls = h("div", { class: "controls", id: "controls" });
    el.autoplay = h("div", { class: "autoplay-banner hidden", id: "autoplay-banner" });
    el.status = h("div", { class: "status-line", id: "status-line", "aria-live": "polite" });
    el.hint = h("section", { class: "panel hint-panel hidden", id: "hint-panel" });
    el.log = h("ol", { class: "log", id: "log" });
    el.waiting = h("div", { class: "waiting hidden", id: "waiting" });
    const side = h("aside", { class: "side" }, el.status, el.hint,
      h("section", { class: "panel log-panel" }, tx("log.title", null, "h3"), el.log));
    el.talk = h("div", { class: "talk-host" });
    el.main = h("div", { class: "play-col" }, el.seatTop, el.boardWrap, el.seatBottom, el.autoplay, el.controls, el.talk);
    clear(root).append(el.banner, el.matchBar, el.waiting,
      h("div", { class: "table-grid" }, el.main, side));
  }

  // -- connection -----------------------------------------------------------------------------
  async function start() {
    preloadLooks(); // while the room and the socket come
    layout();
    renderAll();
    try {
      let info = await api.room(code);
      if (info.seat === null && info.kind === "friend" && info.seats[1] && !info.seats[1].name) {
        info = await api.joinRoom(code);
      }
      v.info = info;
    } catch (error) {
      clear(root).append(h("div", { class: "card center-card" },
        tx("room.not_found", null, "h2"), button("nav.lobby", () => navigate("/"), { class: "btn primary" })));
      return;
    }
    v.connection = new Connection(code, { message: onMessage, status: onStatus });
  }

  function onStatus(status) {
    v.status = status;
    el.banner.classList.toggle("hidden", status === "open" || (status === "connecting" && !v.table));
    const banner = { lost: "conn.lost", replaced: "conn.replaced" }[status] || "conn.connecting";
    clear(el.banner).append(tx(banner));
    document.body.dataset.connection = status;
  }

  function setClock(message) {
    if (typeof message.now === "number") v.offset = message.now - Date.now() / 1000;
    v.deadline = message.deadline || null;
  }

  function onMessage(message) {
    if (message.type === "snapshot") {
      v.queue = v.queue.then(() => applySnapshot(message));
    } else if (message.type === "events") {
      v.queue = v.queue.then(() => applyEvents(message)).catch((e) => console.warn(e));
    } else if (message.type === "error") {
      onError(message);
    } else if (message.type === "talk") {
      talk.onMessage(message);
    } else if (message.type === "rematch") {
      after.onMessage(message);
    }
  }

  function onError(message) {
    v.sending = false;
    v.ownPlay = null;
    const known = ["illegal", "stale", "busy", "not_started", "match_over", "not_seated", "rate_limited", "not_found"];
    toast(tx(known.includes(message.code) ? `error.${message.code}` : "error.generic"), "error");
    if (message.code === "stale" || message.code === "illegal") {
      v.made = [];
      v.selected = null;
      saveMade();
    }
    renderAll();
  }

  async function applySnapshot(message) {
    v.seat = message.seat;
    v.seats = message.seats || [];
    v.kind = message.kind;
    v.moveSeconds = message.move_seconds;
    v.match = message.match;
    setClock(message);
    for (const item of message.missed || []) addLog(item.event, item.version);
    await paintLooks();
    if (!message.table) {
      v.table = null;
      renderAll();
      return;
    }
    v.table = { ...message.table, legal_plays: expandPlays(message.table.legal_plays) };
    v.version = message.version;
    v.shown = boardOf(v.table);
    v.diceOverride = null;
    v.sending = false;
    v.ownPlay = null;
    restoreMade();
    renderAll();
    if (v.table.phase === "match_over") showMatchOver();
  }

  async function applyEvents(message) {
    if (message.match !== v.match || message.version <= v.version) return;
    const animate = !prefersReducedMotion();
    for (const item of message.events) {
      const event = item.event;
      addLog(event, item.version);
      await showEvent(event, animate);
    }
    setClock(message);
    v.table = { ...message.table, legal_plays: expandPlays(message.table.legal_plays) };
    v.version = message.version;
    v.shown = boardOf(v.table);
    v.diceOverride = null;
    if (v.ownPlay === null || v.table.phase !== "move") {
      v.made = [];
      v.selected = null;
    }
    v.ownPlay = null;
    v.sending = false;
    v.hint = null;
    v.hintArrows = null;
    saveMade();
    renderAll();
  }

  async function showEvent(event, animate) {
    const mine = event.player === v.seat || (v.seat === null && event.player === 0);
    switch (event.type) {
      case "game_started":
        v.lastArrows = null;
        v.diceOverride = null;
        break;
      case "opening_rolled": {
        const [zero, one] = event.dice;
        const meFirst = (v.seat ?? 0) === 0;
        v.diceOverride = { faces: [{ face: meFirst ? zero : one }, { face: meFirst ? one : zero }].map((f) => ({ ...f, used: false })), side: event.starter === (v.seat ?? 0) ? "me" : "them" };
        renderBoard();
        await pause(animate ? 500 : 0);
        break;
      }
      case "dice_rolled": {
        v.diceOverride = { faces: event.dice.map((face) => ({ face, used: false })), side: mine ? "me" : "them" };
        renderBoard();
        v.autoRolled = mine && !v.ownRoll && v.seat !== null;
        v.ownRoll = false;
        await pause(animate ? 250 : 0);
        break;
      }
      case "played": {
        const own = mine && v.ownPlay !== null;
        const timedOut = v.timedOut === event.player; // the timeout's toast told it already
        v.timedOut = null;
        if (!own) {
          if (mine && v.seat !== null && !timedOut) {
            toast(event.steps.length ? tx("auto.forced", { play: event.notation }) : tx("auto.dance", { dice: event.dice.join("-") }), "info", 2400);
          } else if (!event.steps.length) {
            toast(tx("ev.dance", { name: nameOf(event.player), dice: event.dice.join("-") }), "info", 2000);
          }
          v.diceOverride = { faces: event.dice.map((face) => ({ face, used: false })), side: mine ? "me" : "them" };
          let b = v.shown || boardOf(v.table);
          v.selected = null;
          v.made = [];
          for (const [start, end, hit] of event.steps) {
            const mineView = mine;
            const next = mineView ? applyMine(b, [start, end]) : applyTheirs(b, [start, end]);
            const vs = mineView ? start : start === BAR || start === OFF ? start : 25 - start;
            const ve = mineView ? end : end === BAR || end === OFF ? end : 25 - end;
            board.render(boardState(b));
            await board.animateStep(b, next, { start: vs, end: ve, mine: mineView, hit }, animate ? STEP_MS : 0);
            b = next;
          }
          v.shown = b;
          if (!mine) v.lastArrows = event.steps.map(([s0, e0]) => ({ from: s0 === BAR ? BAR : 25 - s0, to: e0 === OFF ? OFF : 25 - e0, kind: "last", mine: false, after: true }));
          if (!animate) renderBoard();
        } else {
          v.lastArrows = null;
        }
        break;
      }
      case "doubled":
        if (!mine) toast(tx("ev.doubled", { name: nameOf(event.player), value: event.value }), "info");
        break;
      case "taken":
      case "dropped":
        if (!mine) toast(tx(`ev.${event.type}`, { name: nameOf(event.player) }), "info");
        break;
      case "resign_rejected":
      case "resign_accepted":
        if (!mine) toast(tx(`ev.${event.type}`, { name: nameOf(event.player) }), "info");
        break;
      case "timed_out":
        v.timedOut = event.player;
        toast(timedOutLine(event), "warn", 3200);
        break;
      case "autoplay_changed":
        if (mine && event.on) toast(tx("auto.autoplay_on"), "warn", 3200);
        break;
      case "game_won":
        showGameWon(event);
        break;
      case "match_won":
        v.ended = event;
        break;
      default:
        break;
    }
  }

  const pause = (ms) => new Promise((r) => setTimeout(r, ms));

  // -- local play building ----------------------------------------------------------------------
  function myMove() {
    const tb = v.table;
    return !!tb && v.seat !== null && tb.phase === "move" && tb.turn === v.seat && tb.allowed.includes("play")
      && !v.sending && !tb.autoplay[v.seat];
  }

  function boardOf(tb) {
    return { points: [...tb.points], bar: [...tb.bar], off: [...tb.off] };
  }

  function currentBoard() {
    let b = cloneBoard(v.shown || boardOf(v.table));
    for (const step of v.made) b = applyMine(b, step);
    return b;
  }

  function currentOptions() {
    if (!myMove()) return new Map();
    return options(v.table.legal_plays, v.made, currentBoard());
  }

  function tap(p) {
    if (!myMove()) return;
    const opts = currentOptions();
    if (v.selected !== null) {
      const dests = opts.get(v.selected);
      if (p === v.selected) v.selected = null;
      else if (dests && dests.has(p)) {
        v.made.push(...dests.get(p));
        v.selected = null;
        v.cursor = null;
        saveMade();
        const after = currentOptions();
        if (after.size === 1 && !isComplete(v.table.legal_plays, v.made)) {
          v.selected = [...after.keys()][0];
        }
      } else if (opts.has(p)) v.selected = p;
      else v.selected = null;
    } else if (opts.has(p)) {
      v.selected = p;
    }
    renderBoard();
    renderControls();
  }

  // A tap on the board counts only on the table it began on: `pressedOn` is the version at
  // pointerdown, so a tap started just before the table changed (the dice came, the opponent
  // played) neither picks a checker nor rolls.
  let pressedOn = null;
  board.svg.addEventListener("pointerdown", (event) => { pressedOn = event.isPrimary ? v.version : null; });

  /** Rolling (or rolling and doubling) is all that is left: a tap on the board rolls. */
  function tapRolls() {
    const tb = v.table;
    return !!tb && v.seat !== null && tb.phase === "roll" && tb.turn === v.seat && tb.allowed.includes("roll")
      && !v.sending && !tb.autoplay[v.seat];
  }
  board.svg.addEventListener("click", () => {
    if (pressedOn === v.version && tapRolls()) act("roll"); // never a double
  });

  function undo() {
    if (!v.made.length || v.sending) return;
    v.made.pop();
    v.selected = null;
    saveMade();
    renderBoard();
    renderControls();
  }

  function submit() {
    if (!myMove() || !isComplete(v.table.legal_plays, v.made)) return;
    const steps = v.made.map(([s0, e0]) => [s0, e0]);
    v.ownPlay = steps;
    v.sending = true;
    v.selected = null;
    v.connection.intent({ type: "play", steps }, v.version);
    renderControls();
  }

  function act(type, extra = {}) {
    if (v.sending) return;
    if (type === "roll") v.ownRoll = true;
    if (type !== "autoplay") v.sending = true; // until the table answers (no double sends)
    v.connection.intent({ type, ...extra }, v.version);
    renderControls();
  }

  const madeKey = () => `bidak.made.${code}`;
  function saveMade() {
    if (v.made.length) sessionStorage.setItem(madeKey(), JSON.stringify({ version: v.version, made: v.made }));
    else sessionStorage.removeItem(madeKey());
  }
  function restoreMade() {
    v.made = [];
    v.selected = null;
    try {
      const saved = JSON.parse(sessionStorage.getItem(madeKey()) || "null");
      if (saved && saved.version === v.version && myMove()
        && consistentPlays(v.table.legal_plays, saved.made).length) v.made = saved.made;
    } catch {
      v.made = [];
    }
  }

  // -- rendering --------------------------------------------------------------------------------
  /** The catalog key of an event line: "ev.doubled" or, for the viewer's own, "ev.doubled.you". */
  function evKey(type, player) {
    return player === v.seat && v.seat !== null ? `ev.${type}.you` : `ev.${type}`;
  }

  /** A timeout, with the strikes left where the room has a limit ("timeout 2/3, 1 left"). */
  function timedOutLine(event) {
    const params = { name: nameOf(event.player), strikes: event.strikes };
    if (event.left === null || event.left === undefined) return tx(evKey("timed_out", event.player), params);
    const type = event.left === 0 ? "timed_out_lost" : event.left === 1 ? "timed_out_last" : "timed_out_left";
    return tx(evKey(type, event.player), { ...params, limit: event.strikes + event.left, left: event.left });
  }

  // A name inside a sentence is isolated (FSI ... PDI): a right-to-left name, or one stored
  // before names were checked, cannot reorder the sentence around it.
  function nameOf(player) {
    if (player === v.seat) return t("you");
    return `\u2068${seatLabel(v.seats[player], player)}\u2069`;
  }

  function boardState(b) {
    const tb = v.table;
    const opts = currentOptions();
    const dests = v.selected !== null && opts.get(v.selected) ? opts.get(v.selected) : null;
    let dice = null;
    if (v.diceOverride) dice = v.diceOverride;
    else if (tb && tb.dice) {
      const mine = tb.turn === (v.seat ?? 0);
      dice = { faces: mine && v.seat !== null ? usedDice(tb.dice, v.made) : usedDice(tb.dice, []), side: mine ? "me" : "them" };
    }
    const viewer = tb ? tb.viewer : 0;
    const cube = tb && tb.cube.in_use ? {
      value: tb.cube.value,
      where: tb.cube.owner === null ? "center" : tb.cube.owner === viewer ? "me" : "them",
      offered: tb.cube.offered,
    } : null;
    const arrows = v.hintArrows || (v.made.length ? null : v.lastArrows);
    return {
      board: b, movable: new Set(opts.keys()), selected: v.selected, dests, dice, cube,
      arrows: arrows || [], cursor: v.cursor,
    };
  }

  /** The viewer's board theme and each seat's checkers (the viewer's seat, or seat 0, is "me"). */
  async function paintLooks() {
    board.setTexture(await applyLooks(el.main, v.seats, v.seat));
  }

  function renderBoard() {
    if (!v.table) return;
    board.render(boardState(currentBoard()));
    board.svg.dataset.turn = v.table.turn ?? "";
    board.svg.dataset.phase = v.table.phase;
    board.svg.dataset.version = v.version;
    board.svg.dataset.made = v.made.map((s0) => s0.join("/")).join(" ");
    board.svg.classList.toggle("tap-roll", tapRolls());
    el.tapHint.classList.toggle("hidden", !tapRolls());
  }

  function renderMatchBar() {
    const tb = v.table;
    const parts = [button("nav.back", () => navigate("/"), { class: "btn ghost small", "aria-label": t("nav.lobby") })];
    if (tb) {
      const me = tb.viewer, them = 1 - me;
      parts.push(h("div", { class: "score" },
        tx("match.length", { n: tb.length }, "span", { class: "score-len" }),
        raw(`${tb.score[me]} – ${tb.score[them]}`, "strong", { class: "score-num", id: "score" }),
        tb.crawford ? tx("match.crawford", null, "span", { class: "badge crawford", id: "crawford" }) : null,
        tb.post_crawford ? tx("match.post_crawford", null, "span", { class: "badge" }) : null));
    } else parts.push(h("div", { class: "score" }));
    parts.push(h("span", { class: "match-bar-end" }, v.seat !== null && v.table ? tx(v.kind === "practice" ? "room.practice" : v.kind === "quick" ? "room.quick" : "room.friend", null, "span", { class: "muted small" }) : null));
    clear(el.matchBar).append(...parts);
  }

  function renderSeat(container, index, bottom) {
    const tb = v.table;
    clear(container);
    if (!tb) return;
    const viewer = tb.viewer;
    const player = bottom ? viewer : 1 - viewer;
    const seat = v.seats[player];
    const onTurn = tb.turn === player && tb.phase !== "match_over";
    container.classList.toggle("on-turn", onTurn);
    container.append(
      h("span", { class: `chip ${bottom ? "ck-me" : "ck-them"}` }),
      h("div", { class: "seat-name" },
        player === v.seat ? h("span", {}, raw(seatLabel(seat, player), "span", { dir: "auto" }), " ", tx("you.paren", null, "span", { class: "muted" }))
          : seat && seat.id && !seat.bot ? playerLink(seat.id, seatLabel(seat, player), { class: "seat-link" }) : raw(seatLabel(seat, player), "span", { dir: "auto" })),
      h("div", { class: "seat-stats" },
        h("span", { class: "pips", title: t("pips.title") }, tx("pips.label"), " ", raw(String(tb.pips[bottom ? 0 : 1]), "b", { class: "pip-count", "data-seat": player })),
        tb.autoplay[player] ? tx("autoplay.badge", null, "span", { class: "badge warn autoplay-badge", "data-seat": player }) : null,
        tb.strike_limit ? tx("strikes.of", { n: tb.strikes[player], limit: tb.strike_limit }, "span", {
          class: `badge strikes${tb.strikes[player] ? " warn" : ""}`, "data-seat": player, title: t("strikes.title"),
        })
          : tb.strikes && tb.strikes[player] ? tx("strikes", { n: tb.strikes[player] }, "span", { class: "badge" }) : null,
        h("span", { class: "clock", "data-seat": player })));
    talk.decorate(container, player);
  }

  /** The seats and the talk bar again (a phrase came or went, the mute switch). */
  function renderSeats() {
    renderSeat(el.seatTop, 0, false);
    renderSeat(el.seatBottom, 1, true);
    renderTalk();
  }

  function renderTalk() {
    if (!el.talk) return;
    clear(el.talk);
    const bar = talk.bar();
    if (bar) el.talk.append(bar);
  }

  function renderClocks() {
    for (const node of root.querySelectorAll(".clock")) {
      const player = Number(node.dataset.seat);
      const d = v.deadline;
      if (d && d.player === player && v.table && v.table.phase !== "match_over") {
        const left = d.at - (Date.now() / 1000 + v.offset);
        node.textContent = formatClock(left);
        node.dataset.raw = "";
        node.classList.add("running");
        node.classList.toggle("low", left <= 10);
        const frac = Math.max(0, Math.min(1, left / (d.seconds || 60)));
        node.style.setProperty("--frac", frac.toFixed(3));
      } else {
        node.textContent = "";
        node.classList.remove("running", "low");
      }
    }
  }

  function renderControls() {
    const tb = v.table;
    clear(el.controls);
    clear(el.autoplay);
    el.autoplay.classList.add("hidden");
    if (!tb || v.seat === null) {
      if (tb) el.controls.append(tx("spectating", null, "span", { class: "muted" }));
      renderStatus();
      return;
    }
    const allowed = new Set(tb.allowed);
    const row = [];
    if (tb.autoplay[v.seat] && tb.phase !== "match_over") {
      el.autoplay.classList.remove("hidden");
      el.autoplay.append(tx("autoplay.on"),
        allowed.has("autoplay") ? button("autoplay.take_back", () => act("autoplay", { on: false }), { class: "btn primary", id: "take-back" }) : null);
    }
    if (allowed.has("roll")) row.push(button("btn.roll", () => act("roll"), { class: "btn primary", id: "btn-roll", title: t("key.roll"), disabled: v.sending }));
    if (allowed.has("double")) row.push(button("btn.double", () => act("double"), { class: "btn", id: "btn-double", title: t("key.double"), disabled: v.sending }));
    if (myMove() || v.sending) {
      const complete = isComplete(tb.legal_plays, v.made);
      row.push(button("btn.undo", undo, { class: "btn", id: "btn-undo", disabled: !v.made.length || v.sending, title: t("key.undo") }));
      row.push(button("btn.ok", submit, { class: `btn primary${complete ? " ready" : ""}`, id: "btn-ok", disabled: !complete || v.sending, title: t("key.ok") }));
    }
    if (v.kind === "practice" && (allowed.has("play") || allowed.has("double") || allowed.has("take"))) {
      row.push(button("btn.hint", showHint, { class: "btn ghost", id: "btn-hint" }));
    }
    if (allowed.has("resign") || allowed.has("forfeit")) {
      row.push(button("btn.resign", resignDialog, { class: "btn ghost", id: "btn-resign" }));
    }
    el.controls.append(...row);
    const stale = (id, keep) => {
      const node = document.getElementById(id);
      if (node && !keep) node.closest(".backdrop").remove();
    };
    stale("take-dialog", tb.phase === "doubled" && allowed.has("take"));
    stale("resign-offer", tb.phase === "resign_offered" && allowed.has("accept_resign"));
    if (tb.phase === "doubled" && allowed.has("take") && !v.sending && !document.getElementById("take-dialog")) {
      dialog({
        id: "take-dialog", title: "take.title", titleParams: () => ({ name: nameOf(tb.turn) }),
        body: () => tx("take.body", { value: tb.cube.offered, current: tb.cube.value }, "p"),
        dismissable: false,
        actions: [
          { key: "btn.take", kind: "primary", id: "btn-take", onclick: () => act("take") },
          { key: "btn.drop", kind: "danger", id: "btn-drop", onclick: () => act("drop") },
        ],
      });
    }
    if (tb.phase === "resign_offered" && allowed.has("accept_resign") && !v.sending && !document.getElementById("resign-offer")) {
      const level = tb.resign ? tb.resign.level : 1;
      dialog({
        id: "resign-offer", title: "resign.offer.title", titleParams: () => ({ name: nameOf(tb.resign ? tb.resign.by : 1 - v.seat) }),
        body: () => tx("resign.offer.body", { what: t(`resign.level.${level}`), points: level * tb.cube.value }, "p"),
        dismissable: false,
        actions: [
          { key: "btn.accept", kind: "primary", onclick: () => act("accept_resign") },
          { key: "btn.reject", onclick: () => act("reject_resign") },
        ],
      });
    }
    renderStatus();
  }

  function renderStatus() {
    const tb = v.table;
    let key = "status.waiting", params = {};
    if (!tb) key = "status.connecting";
    else if (tb.phase === "match_over") key = "status.match_over";
    else if (v.seat === null) key = "status.spectating";
    else if (tb.turn === v.seat || (tb.phase === "doubled" && tb.turn !== v.seat)) {
      if (tb.phase === "doubled") key = tb.turn === v.seat ? "status.wait_take" : "status.take_or_drop";
      else if (tb.phase === "roll") key = tb.allowed.includes("double") ? "status.roll_or_double" : "status.rolling";
      else if (tb.phase === "move") {
        if (v.sending) key = "status.sending";
        else if (isComplete(tb.legal_plays, v.made)) key = "status.confirm";
        else if (v.selected !== null) key = "status.pick_dest";
        else key = "status.move";
        params = { dice: (tb.dice || []).join("-") };
        if (v.autoRolled && key === "status.move") key = "status.move_auto";
      } else if (tb.phase === "resign_offered") key = "status.resign_pending";
    } else {
      key = "status.opponent";
      params = { name: nameOf(tb.turn) };
    }
    clear(el.status).append(tx(key, params));
    el.status.dataset.key = key;
  }

  function renderLog() {
    clear(el.log);
    for (const entry of v.log.slice(-60).reverse()) el.log.append(h("li", {}, entry()));
  }

  function addLog(event, version) {
    const line = logLine(event);
    if (line) v.log.push(line);
    if (v.log.length > 200) v.log.shift();
  }

  function logLine(event) {
    const name = () => nameOf(event.player);
    switch (event.type) {
      case "game_started":
        return () => tx("ev.game_started", { n: event.game });
      case "opening_tie":
        return () => tx("ev.opening_tie", { dice: event.dice.join("-") });
      case "opening_rolled":
        return () => tx(evKey("opening_rolled", event.starter), { name: nameOf(event.starter), dice: [...event.dice].sort((a, b) => b - a).join("-") });
      case "dice_rolled":
        return () => tx(evKey("dice_rolled", event.player), { name: name(), dice: event.dice.join("-") });
      case "played":
        return event.steps.length ? () => h("span", {}, tx("ev.played", { name: name() }), " ", raw(event.notation, "b", { class: "notation" }))
          : () => tx(evKey("dance", event.player), { name: name(), dice: event.dice.join("-") });
      case "doubled":
        return () => tx(evKey("doubled", event.player), { name: name(), value: event.value });
      case "taken":
      case "dropped":
      case "resign_accepted":
      case "resign_rejected":
      case "match_forfeited":
        return () => tx(evKey(event.type, event.player), { name: name() });
      case "resign_offered":
        return () => tx(evKey("resign_offered", event.player), { name: name(), what: t(`resign.level.${event.level}`) });
      case "game_won":
        return () => tx(evKey("game_won", event.winner), { name: nameOf(event.winner), points: event.points, kind: t(`win.${event.kind}`) });
      case "match_won":
        return () => tx(evKey("match_won", event.winner), { name: nameOf(event.winner) });
      case "timed_out":
        return () => timedOutLine(event);
      case "autoplay_changed":
        return () => tx(evKey(event.on ? "autoplay_on" : "autoplay_off", event.player), { name: name() });
      default:
        return null;
    }
  }

  function renderWaiting() {
    const waiting = v.info && !v.table && v.status !== "lost";
    el.waiting.classList.toggle("hidden", !waiting);
    root.classList.toggle("is-waiting", !!waiting);
    if (!waiting) return;
    const link = v.info.invite_url || `${location.origin}/#/room/${code}`;
    const input = h("input", { class: "invite-input", id: "invite-link", readOnly: true, value: link, "aria-label": t("invite.label") });
    clear(el.waiting).append(h("div", { class: "card center-card" },
      tx("invite.title", null, "h2"),
      tx("invite.body", null, "p"),
      h("div", { class: "copy-row" }, input,
        button("btn.copy", async () => {
          const ok = await copyText(link);
          toast(tx(ok ? "copied" : "copy.failed"), ok ? "info" : "error");
        }, { class: "btn primary", id: "copy-invite" })),
      tx("invite.code", null, "p", { class: "muted small" }),
      raw(code, "code", { class: "room-code" }),
      h("div", { class: "spinner-row" }, h("span", { class: "spinner" }), tx("invite.waiting"))));
  }

  function renderAll() {
    renderMatchBar();
    renderWaiting();
    el.main.classList.toggle("hidden", !v.table);
    renderSeats();
    renderBoard();
    renderControls();
    renderClocks();
    renderHint();
    renderLog();
  }

  // -- hint -----------------------------------------------------------------------------------------
  async function showHint() {
    v.hint = { loading: true };
    renderHint();
    try {
      const result = await api.hint(code, "2ply");
      v.hint = result;
      if (result.kind === "PlayHint" && result.hint.candidates.length) {
        v.hintArrows = arrowsFor(result.hint.candidates[0].steps);
        v.hint.shown = 0;
      }
    } catch (error) {
      v.hint = { error: true, busy: error.status === 503 };
    }
    renderHint();
    renderBoard();
  }

  function arrowsFor(steps) {
    return steps.map(([s0, e0]) => ({ from: s0, to: e0, kind: "hint", mine: true }));
  }

  function renderHint() {
    const hint = v.hint;
    el.hint.classList.toggle("hidden", !hint);
    clear(el.hint);
    if (!hint) return;
    const close = button("btn.close", () => { v.hint = null; v.hintArrows = null; renderHint(); renderBoard(); }, { class: "btn ghost small" });
    el.hint.append(h("div", { class: "panel-head" }, tx("hint.title", null, "h3"), close));
    if (hint.loading) { el.hint.append(h("div", { class: "spinner-row" }, h("span", { class: "spinner" }), tx("hint.loading"))); return; }
    if (hint.error) { el.hint.append(tx(hint.busy ? "hint.busy" : "hint.none", null, "p", { class: "muted", id: "hint-error" })); return; }
    const data = hint.hint;
    if (hint.kind === "PlayHint") {
      const list = h("ol", { class: "hint-list", id: "hint-list" });
      data.candidates.slice(0, 6).forEach((c, i) => {
        const p = c.probabilities;
        list.append(h("li", {
          class: `hint-item${i === (hint.shown ?? 0) ? " on" : ""}`, tabIndex: 0,
          onclick: () => { hint.shown = i; v.hintArrows = arrowsFor(c.steps); renderHint(); renderBoard(); },
        },
        h("div", { class: "hint-row" }, raw(`${c.rank}.`, "span", { class: "rank" }), raw(c.notation, "b", { class: "notation" }),
          raw(signed(c.equity), "span", { class: "equity" }),
          i ? raw(signed(-c.loss), "span", { class: "loss" }) : tx("hint.best", null, "span", { class: "badge good" })),
        h("div", { class: "hint-probs" },
          tx("hint.win", { p: pct(p.win) }), " · ", tx("hint.gammon", { p: pct(p.win_gammon) }), " · ",
          tx("hint.lose_gammon", { p: pct(p.lose_gammon) }))));
      });
      el.hint.append(list, tx("hint.equity_note", { level: data.level }, "p", { class: "muted small" }));
    } else {
      el.hint.append(h("div", { class: "cube-hint", id: "cube-hint" },
        tx(`cube.${data.action}`, null, "p", { class: "cube-verdict" }),
        tx(`cube.right.${data.right_action}`, null, "p", { class: "muted" }),
        h("dl", { class: "cube-eqs" },
          tx("cube.nd", null, "dt"), raw(signed(data.no_double), "dd"),
          tx("cube.dt", null, "dt"), raw(signed(data.double_take), "dd"),
          tx("cube.dp", null, "dt"), raw(signed(data.double_pass), "dd")),
        tx("hint.win", { p: pct(data.probabilities.win) }, "p", { class: "muted small" })));
    }
  }

  // -- dialogs ---------------------------------------------------------------------------------
  // Resigning is losing the match (rules.md 8); offering to lose only this game is the
  // secondary choice, in match play.
  function resignDialog() {
    const tb = v.table;
    const allowed = new Set(tb.allowed);
    const gameToo = allowed.has("resign") && tb.length > 1;
    const body = () => h("div", {}, tx("resign.match.body", null, "p"),
      gameToo ? tx("resign.game.hint", null, "p", { class: "muted small" }) : null);
    const actions = [];
    if (allowed.has("forfeit")) actions.push({ key: "btn.forfeit", kind: "danger", id: "btn-forfeit", onclick: forfeitDialog });
    if (gameToo) actions.push({ key: "btn.resign_game_only", id: "btn-resign-game", onclick: resignGameDialog });
    actions.push({ key: "btn.cancel" });
    dialog({ id: "resign-dialog", title: "resign.title", body, actions });
  }

  function resignGameDialog() {
    const tb = v.table;
    let level = 1;
    const body = () => h("div", {}, tx("resign.game.body", null, "p"),
      segmented("resign-level", [1, 2, 3].map((n) => ({ value: n, key: "resign.choice", params: { what: t(`resign.level.${n}`), points: n * tb.cube.value } })), level, (n) => { level = n; }));
    dialog({
      id: "resign-game-dialog", title: "resign.game.title", body,
      actions: [
        { key: "btn.resign_game", kind: "primary", id: "confirm-resign", onclick: () => act("resign", { level }) },
        { key: "btn.cancel" },
      ],
    });
  }

  function forfeitDialog() {
    // The score after a forfeit: the opponent is given the match length, the loser keeps theirs.
    const tb = v.table;
    const me = tb.viewer, them = 1 - me;
    const final = `${tb.score[me]} – ${Math.max(tb.score[them], tb.length)}`;
    dialog({
      id: "forfeit-dialog", title: "forfeit.title",
      body: () => h("div", {}, tx("forfeit.body", { name: nameOf(them) }, "p"),
        raw(final, "p", { class: "big-score", id: "forfeit-score" })),
      actions: [
        { key: "btn.forfeit_confirm", kind: "danger", id: "confirm-forfeit", onclick: () => act("forfeit") },
        { key: "btn.cancel" },
      ],
    });
  }

  function showGameWon(event) {
    const tb = v.table;
    if (!tb || event.score.some((s0) => s0 >= tb.length)) return; // the match dialog follows
    const me = v.seat ?? 0;
    dialog({
      id: "game-over", title: event.winner === me && v.seat !== null ? "game.won" : "game.lost",
      titleParams: () => ({ name: nameOf(event.winner) }),
      body: () => h("div", {}, tx("game.points", { points: event.points, kind: t(`win.${event.kind}`) }, "p"),
        raw(`${event.score[me]} – ${event.score[1 - me]}`, "p", { class: "big-score" })),
      actions: [{ key: "btn.continue", kind: "primary", id: "btn-continue" }],
    });
  }

  function showMatchOver() {
    if (document.getElementById("match-over") || v.matchOverShown) return;
    v.matchOverShown = true;
    const tb = v.table;
    const me = v.seat ?? 0;
    const won = tb.winner === me;
    dialog({
      id: "match-over", title: v.seat === null ? "match.over" : won ? "match.won" : "match.lost",
      body: () => h("div", {}, raw(`${tb.score[me]} – ${tb.score[1 - me]}`, "p", { class: "big-score" }), after.panel(), tx("match.review_hint", null, "p", { class: "muted" })),
      actions: [
        { key: "btn.review", kind: "primary", id: "btn-review", onclick: () => navigate(`/review/${v.match}`) },
        { key: "nav.lobby", id: "btn-lobby", onclick: () => navigate("/") },
      ],
    });
  }

  // -- keyboard -----------------------------------------------------------------------------------
  let digits = "", digitTimer = null;
  function onKey(event) {
    if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable], .dialog, .sheet")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const tb = v.table;
    if (!tb) return;
    const allowed = new Set(tb.allowed);
    const k = event.key;
    if ((k === "r" || k === "R") && allowed.has("roll") && !v.sending) act("roll");
    else if ((k === "d" || k === "D") && allowed.has("double") && !v.sending) act("double");
    else if (k === "u" || k === "U" || k === "Backspace") undo();
    else if (k === "h" || k === "H") { if (document.getElementById("btn-hint")) showHint(); }
    else if (k === "Escape") { v.selected = null; v.cursor = null; renderBoard(); renderControls(); }
    else if (k === "b" || k === "B") tap(BAR);
    else if (k === "o" || k === "O") tap(OFF);
    else if (/^[0-9]$/.test(k)) {
      digits += k;
      clearTimeout(digitTimer);
      const commit = () => { const n = Number(digits); digits = ""; if (n >= 1 && n <= 24) tap(n); };
      if (Number(digits) * 10 > 24 || digits.length >= 2) commit();
      else digitTimer = setTimeout(commit, 650);
    } else if (k === "ArrowLeft" || k === "ArrowRight" || k === "ArrowUp" || k === "ArrowDown") {
      const opts = currentOptions();
      const list = v.selected !== null && opts.get(v.selected) ? [...opts.get(v.selected).keys()] : [...opts.keys()];
      if (!list.length) return;
      list.sort((a, b) => b - a);
      const i = list.indexOf(v.cursor);
      const step = k === "ArrowLeft" || k === "ArrowUp" ? 1 : -1;
      v.cursor = list[(i + step + list.length) % list.length];
      event.preventDefault();
      renderBoard();
      markCursor();
    } else if (k === "Enter" || k === " ") {
      if (v.cursor !== null) { const c = v.cursor; v.cursor = null; tap(c); markCursor(); }
      else if (isComplete(tb.legal_plays || [], v.made)) submit();
      event.preventDefault();
    } else return;
  }

  function markCursor() {
    for (const node of board.svg.querySelectorAll(".hit.cursor")) node.classList.remove("cursor");
    if (v.cursor !== null) {
      const node = board.svg.querySelector(`.hit[data-point="${v.cursor}"]`);
      if (node) node.classList.add("cursor");
    }
  }

  document.addEventListener("keydown", onKey);
  const ticker = setInterval(renderClocks, 250);
  const offLanguage = onLanguage(() => { layout(); paintLooks(); onStatus(v.status); renderAll(); });
  const stopEnded = setInterval(() => {
    if (v.table && v.table.phase === "match_over" && !v.matchOverShown && !document.querySelector(".backdrop")) showMatchOver();
  }, 500);

  window.__bidak = { view: v, drop: () => v.connection && v.connection.drop() };
  start();

  return () => {
    document.removeEventListener("keydown", onKey);
    clearInterval(ticker);
    clearInterval(stopEnded);
    offLanguage();
    closeDialogs();
    talk.stop();
    after.stop();
    if (v.connection) v.connection.close();
    window.__bidak = null;
  };
}
