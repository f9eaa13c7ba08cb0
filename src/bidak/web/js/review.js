// @ts-check
// The review of a finished match: per-player totals, an equity graph per game, the move list with
// verdicts, and each decision's position stepped through on the board.
import { api, statusOf } from "./api.js";
import { createBoard } from "./board.js";
import { button, clear, h, raw, s, tx } from "./dom.js";
import { onLanguage, t } from "./i18n.js";
import { stepsOf } from "./notation.js";
import { BAR, OFF } from "./selection.js";
import { announce, describe } from "./speech.js";
import { copyText, signed, toast } from "./ui.js";
import { boardFromXgid } from "./xgid.js";

/** @import { Arrow, DiceShown, Review, ReviewDecision, Seat } from "./types.js" */

/**
 * @param {HTMLElement} root
 * @param {string} matchId
 * @param {{ navigate: (path: string) => void }} options
 */
export function mountReview(root, matchId, { navigate }) {
  /**
   * The review once loaded, the game and decision shown, and whose side the board is drawn
   * from (the viewer's seat when they played, else seat 0).
   * @type {{ data: Review | null, error: boolean, game: number, index: number, viewer: number, seats: Seat[] | null }}
   */
  const v = { data: null, error: false, game: 0, index: 0, viewer: 0, seats: null };
  /** @type {ReturnType<typeof setTimeout> | undefined} asking again after a 503 */
  let retry;
  const board = createBoard({ label: t("board.label") });

  async function load() {
    try {
      const [data, history] = await Promise.all([api.review(matchId, "2ply"), api.history().catch(() => [])]);
      v.data = data;
      const item = history.find((x) => x.match_id === matchId);
      if (item) {
        const room = await api.room(item.room).catch(() => null);
        if (room && room.seat !== null) v.viewer = room.seat;
        if (room) v.seats = room.seats;
      }
      const first = data.games.findIndex((g) => g.decisions.length);
      v.game = Math.max(0, first);
    } catch (error) {
      // 503: the engine is busy with other reviews; the server says when to ask again.
      if (statusOf(error) === 503) {
        retry = setTimeout(load, 5000);
        return;
      }
      v.error = true;
    }
    draw();
  }

  /** @returns {ReviewDecision[]} */
  const decisions = () => (v.data ? v.data.games[v.game].decisions : []);

  function playerName(/** @type {number} */ index) {
    const seat = v.seats?.[index];
    if (seat?.bot) return { node: tx("bot.name", { level: t(`level.${seat.bot}`) }) };
    if (index === v.viewer && v.seats) return { node: tx("you") };
    return { node: raw(v.data ? v.data.players[index] : "") };
  }

  /** The equity of a decision from the viewer's side (checker plays only). */
  function viewerEquity(/** @type {ReviewDecision} */ d) {
    if (d.kind !== "checker") return null;
    return d.player === v.viewer ? d.equity_played : -d.equity_played;
  }

  function graph() {
    const list = decisions();
    const W = 640,
      H = 180,
      pad = 14;
    const pts = list.flatMap((d, i) => {
      const e = viewerEquity(d);
      return e === null ? [] : [{ d, i, e }];
    });
    const x = (/** @type {number} */ i) => pad + (list.length <= 1 ? 0 : (i * (W - 2 * pad)) / (list.length - 1));
    const y = (/** @type {number} */ e) => H / 2 - (Math.max(-1.2, Math.min(1.2, e)) * (H / 2 - pad)) / 1.2;
    const line = pts.map((p, k) => `${k ? "L" : "M"}${x(p.i).toFixed(1)},${y(p.e).toFixed(1)}`).join(" ");
    const area = pts.length ? `${line} L${x(pts[pts.length - 1].i)},${H / 2} L${x(pts[0].i)},${H / 2} Z` : "";
    const svg = s(
      "svg",
      { viewBox: `0 0 ${W} ${H}`, class: "graph", id: "equity-graph", role: "img", "aria-label": t("review.graph") },
      s("rect", { x: 0, y: 0, width: W, height: H / 2, class: "graph-good" }),
      s("rect", { x: 0, y: H / 2, width: W, height: H / 2, class: "graph-bad" }),
      s("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: "graph-axis" }),
      area ? s("path", { d: area, class: "graph-area" }) : null,
      line ? s("path", { d: line, class: "graph-line" }) : null,
      s("line", { x1: x(v.index), x2: x(v.index), y1: 0, y2: H, class: "graph-cursor" }),
      ...pts.map((p) =>
        s("circle", {
          cx: x(p.i),
          cy: y(p.e),
          r: p.i === v.index ? 6 : p.d.verdict === "ok" ? 3 : 5,
          class: `graph-dot v-${p.d.verdict}${p.i === v.index ? " on" : ""}`,
          onclick: () => select(p.i),
        }),
      ),
    );
    return h(
      "div",
      { class: "graph-wrap" },
      svg,
      h(
        "div",
        { class: "graph-legend" },
        tx("review.graph.you_ahead"),
        tx("review.graph.note", null, "span", { class: "muted" }),
        tx("review.graph.opp_ahead"),
      ),
    );
  }

  function moveList() {
    const list = h("ol", { class: "moves", id: "move-list" });
    decisions().forEach((d, i) => {
      const label =
        d.kind === "checker"
          ? h(
              "span",
              {},
              raw(`${d.dice[0]}${d.dice[1]}`, "span", { class: "dice-mini" }),
              " ",
              raw(d.played || "—", "b", { class: "notation" }),
            )
          : h("span", {}, tx(`cube.choice.${d.played}`, null, "b"));
      list.append(
        h(
          "li",
          {
            class: `move${i === v.index ? " on" : ""}${d.player === v.viewer ? " mine" : " theirs"}`,
            "data-index": i,
            tabIndex: 0,
            onclick: () => select(i),
          },
          raw(String(d.turn), "span", { class: "turn-no" }),
          h("span", { class: `who ${d.player === v.viewer ? "ck-me" : "ck-them"}` }),
          label,
          d.kind === "checker" && d.forced
            ? tx("review.forced", null, "span", { class: "badge" })
            : tx(`verdict.${d.verdict}`, null, "span", { class: `badge v-${d.verdict}` }),
        ),
      );
    });
    return list;
  }

  function detail() {
    const d = decisions()[v.index];
    if (!d) return h("div", {});
    const xgid = h("input", { class: "xgid", id: "xgid", readOnly: true, value: d.xgid, "aria-label": "XGID" });
    return h(
      "div",
      { class: "decision", id: "decision" },
      h(
        "div",
        { class: "decision-head" },
        playerName(d.player).node,
        d.kind === "checker" ? tx("review.rolled", { dice: `${d.dice[0]}-${d.dice[1]}` }) : tx("review.cube_decision"),
        tx(`verdict.${d.verdict}`, null, "span", { class: `badge v-${d.verdict}` }),
      ),
      h(
        "dl",
        { class: "kv" },
        tx("review.played", null, "dt"),
        d.kind === "checker"
          ? raw(d.played || "—", "dd", { class: "notation" })
          : h("dd", {}, tx(`cube.choice.${d.played}`)),
        tx("review.best", null, "dt"),
        d.kind === "checker"
          ? raw(d.best || "—", "dd", { class: "notation best" })
          : h("dd", {}, tx(`cube.choice.${d.best}`)),
        tx("review.loss", null, "dt"),
        raw(d.loss ? `−${d.loss.toFixed(3)}` : "0.000", "dd"),
        d.kind === "checker" ? tx("review.luck", null, "dt") : null,
        d.kind === "checker" ? raw(signed(d.luck), "dd") : null,
      ),
      h(
        "div",
        { class: "copy-row" },
        xgid,
        button(
          "review.copy_xgid",
          async () => {
            const ok = await copyText(d.xgid);
            toast(tx(ok ? "copied" : "copy.failed"), ok ? "info" : "error");
          },
          { class: "btn small", id: "copy-xgid" },
        ),
        h(
          "a",
          {
            class: "btn ghost small",
            id: "review-share",
            href: `/api/positions/share.png?xgid=${encodeURIComponent(d.xgid)}`,
            target: "_blank",
            rel: "noopener",
            "data-i18n": "drill.share",
          },
          t("drill.share"),
        ),
      ),
    );
  }

  function drawBoard() {
    const d = decisions()[v.index];
    if (!d) return;
    let shown;
    try {
      shown = boardFromXgid(d.xgid, v.viewer);
    } catch {
      return;
    }
    const mine = d.player === v.viewer;
    const flip = (/** @type {number} */ p) => (mine || p === BAR || p === OFF ? p : 25 - p);
    /** @type {Arrow[]} */
    const arrows = [];
    if (d.kind === "checker") {
      for (const [a, b] of stepsOf(d.played)) arrows.push({ from: flip(a), to: flip(b), kind: "last", mine });
      if (d.best && d.best !== d.played)
        for (const [a, b] of stepsOf(d.best)) arrows.push({ from: flip(a), to: flip(b), kind: "hint", mine });
    }
    /** @type {DiceShown | null} */
    const dice =
      d.kind === "checker"
        ? { side: mine ? "me" : "them", faces: d.dice.map((face) => ({ face, used: false })) }
        : null;
    board.render({ board: shown.board, dice, arrows, cube: null });
    // The position in words (speech.js) as the board's accessible name, from the viewer's side.
    const words = describe(shown.board, { dice: dice ? d.dice : null, diceMine: mine });
    board.svg.setAttribute("aria-label", `${t("board.label")}. ${words.join(". ")}`);
  }

  function select(/** @type {number} */ i) {
    v.index = Math.max(0, Math.min(decisions().length - 1, i));
    draw();
    // Decision to decision by keys: the live region says the decision now shown.
    const on = document.querySelector("#move-list .move.on");
    if (on) {
      const parts = [...on.children].map((part) => (part.textContent || "").trim());
      announce(parts.filter(Boolean).join(", "));
    }
  }

  function totals(/** @type {Review} */ data) {
    const rows = data.totals.map((p) =>
      h(
        "tr",
        { class: p.player === v.viewer ? "mine" : "" },
        h("th", { scope: "row" }, playerName(p.player).node),
        raw(p.pr.toFixed(1), "td"),
        raw(String(p.errors), "td"),
        raw(String(p.blunders), "td"),
        raw(signed(p.luck, 2), "td"),
      ),
    );
    return h(
      "table",
      { class: "totals", id: "totals" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}),
          tx("review.pr", null, "th", { title: t("review.pr.title") }),
          tx("review.errors", null, "th"),
          tx("review.blunders", null, "th"),
          tx("review.luck", null, "th"),
        ),
      ),
      h("tbody", {}, rows),
    );
  }

  function draw() {
    clear(root);
    const head = h(
      "div",
      { class: "match-bar" },
      button("nav.back", () => navigate("/"), { class: "btn ghost small" }),
      tx("review.title", null, "h1", { class: "review-title" }),
      h(
        "a",
        { class: "btn small", href: api.matUrl(matchId), download: "", id: "export-mat", "data-i18n": "review.export" },
        t("review.export"),
      ),
    );
    if (v.error) {
      root.append(head, h("div", { class: "card center-card" }, tx("review.error", null, "p")));
      return;
    }
    if (!v.data) {
      root.append(
        head,
        h(
          "div",
          { class: "card center-card" },
          h("div", { class: "spinner-row" }, h("span", { class: "spinner" }), tx("review.loading")),
        ),
      );
      return;
    }
    const list = moveList();
    const tabs = h(
      "div",
      { class: "tabs", role: "tablist" },
      v.data.games.map((g, i) =>
        h(
          "button",
          {
            type: "button",
            class: `tab${i === v.game ? " on" : ""}`,
            role: "tab",
            "data-i18n": "review.game",
            onclick: () => {
              v.game = i;
              v.index = 0;
              draw();
            },
          },
          t("review.game", { n: g.game }),
        ),
      ),
    );
    const nav = h(
      "div",
      { class: "ex-nav" },
      button("btn.prev", () => select(v.index - 1), { class: "btn small", id: "review-prev", disabled: v.index === 0 }),
      raw(`${decisions().length ? v.index + 1 : 0} / ${decisions().length}`, "span", { class: "ex-counter" }),
      button("btn.next", () => select(v.index + 1), {
        class: "btn small primary",
        id: "review-next",
        disabled: v.index >= decisions().length - 1,
      }),
    );
    root.append(
      head,
      h(
        "div",
        { class: "review-grid" },
        h("div", { class: "review-main" }, tabs, h("div", { class: "board-wrap" }, board.svg), nav, detail(), graph()),
        h(
          "aside",
          { class: "side" },
          h(
            "section",
            { class: "panel" },
            tx("review.totals", null, "h3"),
            totals(v.data),
            tx("review.level_note", { level: v.data.level }, "p", { class: "muted small" }),
          ),
          h("section", { class: "panel" }, tx("review.moves", null, "h3"), list),
        ),
      ),
    );
    list.style.position = "relative";
    drawBoard();
    const on = list.querySelector(".move.on");
    if (on instanceof HTMLElement && list.scrollHeight > list.clientHeight) {
      const top = on.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + on.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = top - list.clientHeight / 2;
      }
    }
  }

  function onKey(/** @type {KeyboardEvent} */ event) {
    const target = /** @type {Element | null} */ (event.target);
    if (target?.closest?.("input, textarea")) return;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") {
      select(v.index + 1);
      event.preventDefault();
    }
    if (event.key === "ArrowLeft" || event.key === "ArrowUp") {
      select(v.index - 1);
      event.preventDefault();
    }
  }
  document.addEventListener("keydown", onKey);
  const off = onLanguage(draw);
  draw();
  load();
  return () => {
    off();
    clearTimeout(retry);
    document.removeEventListener("keydown", onKey);
  };
}
