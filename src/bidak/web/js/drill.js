// @ts-check
// The daily drill (#/drill): the next card of the player's blunder bank, answered on the board (a
// play) or with the cube's two buttons; the server grades the answer by the equity it gave up and
// schedules the card's return (FSRS). The card's answer never reaches the page before the answer.
import { api, statusOf } from "./api.js";
import { createBoard } from "./board.js";
import { button, clear, h, raw, tx } from "./dom.js";
import { onLanguage, t } from "./i18n.js";
import { applyMine, cloneBoard, isComplete, options, remainingSteps, usedDice } from "./selection.js";
import { toast } from "./ui.js";
import { boardFromXgid } from "./xgid.js";

/** @import { Board, DrillCard, DrillVerdict, TrainingSummary } from "./types.js" */

/**
 * @param {HTMLElement} root
 * @param {{ navigate: (path: string) => void }} options
 */
export function mountDrill(root, { navigate }) {
  /**
   * @type {{ card: DrillCard | null, summary: TrainingSummary | null, loaded: boolean,
   *   made: number[][], selected: number | null, verdict: DrillVerdict | null, sending: boolean }}
   */
  const v = { card: null, summary: null, loaded: false, made: [], selected: null, verdict: null, sending: false };
  let gone = false;
  const board = createBoard({ onTarget: tap, label: t("board.label") });

  async function load() {
    v.loaded = false;
    v.verdict = null;
    v.made = [];
    v.selected = null;
    try {
      const drill = await api.drill();
      v.card = drill.card;
      v.summary = drill.summary;
    } catch {
      toast(tx("drill.failed"), "error");
    }
    v.loaded = true;
    if (!gone) draw();
  }

  /** @returns {Board | null} the card's position with the steps made so far */
  function shown() {
    if (!v.card) return null;
    let b = cloneBoard(boardFromXgid(v.card.xgid, v.card.seat).board);
    for (const step of v.made) b = applyMine(b, step);
    return b;
  }

  const plays = () => (v.card?.legal_plays || []).map((p) => ({ ...p, steps: p.steps.map((s) => [s[0], s[1]]) }));

  function tap(/** @type {number} */ p) {
    const b = shown();
    if (!b || v.verdict || v.card?.kind !== "checker") return;
    const opts = options(/** @type {any} */ (plays()), v.made, b);
    if (v.selected !== null) {
      const steps = opts.get(v.selected)?.get(p);
      if (p === v.selected) v.selected = null;
      else if (steps) {
        v.made.push(...steps);
        v.selected = null;
      } else v.selected = opts.has(p) ? p : null;
    } else if (opts.has(p)) v.selected = p;
    draw();
  }

  /** @param {Record<string, string>} answer */
  async function send(answer) {
    if (!v.card || v.sending) return;
    v.sending = true;
    try {
      v.verdict = await api.answerCard(v.card.id, answer);
      v.summary = v.verdict.summary;
    } catch (error) {
      toast(tx(statusOf(error) === 422 ? "drill.not_legal" : "drill.failed"), "error");
    }
    v.sending = false;
    draw();
  }

  function submitPlay() {
    const found = plays().find((play) => {
      const left = remainingSteps(/** @type {any} */ (play), v.made);
      return left !== null && left.length === 0;
    });
    if (found) send({ type: "play", result: found.result });
  }

  function renderBoard() {
    const b = shown();
    if (!b || !v.card) return;
    const opts = v.verdict ? new Map() : options(/** @type {any} */ (plays()), v.made, b);
    board.render({
      board: b,
      movable: new Set(opts.keys()),
      selected: v.selected,
      dests: v.selected !== null ? opts.get(v.selected) || null : null,
      dice: v.card.dice ? { faces: usedDice(v.card.dice, v.made), side: "me" } : null,
      arrows: [],
    });
  }

  function question() {
    const card = /** @type {DrillCard} */ (v.card);
    if (card.kind === "checker") {
      const complete = isComplete(/** @type {any} */ (plays()), v.made);
      return h(
        "div",
        { class: "drill-actions" },
        tx("drill.question.play", { dice: (card.dice || []).join("-") }, "p", { id: "drill-question" }),
        h(
          "div",
          { class: "row" },
          button(
            "drill.undo",
            () => {
              v.made.pop();
              v.selected = null;
              draw();
            },
            { class: "btn ghost", id: "drill-undo", disabled: !v.made.length },
          ),
          button("drill.submit", submitPlay, { class: "btn primary", id: "drill-submit", disabled: !complete }),
        ),
      );
    }
    const choices = card.decider === "taker" ? ["take", "drop"] : ["double", "no_double"];
    return h(
      "div",
      { class: "drill-actions" },
      tx(`drill.question.${card.decider}`, null, "p", { id: "drill-question" }),
      h(
        "div",
        { class: "row" },
        choices.map((choice) =>
          button(`drill.${choice}`, () => send({ type: "cube", choice }), {
            class: "btn primary",
            id: `drill-${choice}`,
          }),
        ),
      ),
    );
  }

  function verdict() {
    const found = /** @type {DrillVerdict} */ (v.verdict);
    return h(
      "div",
      { class: `drill-verdict grade-${found.grade}`, id: "drill-verdict", role: "status" },
      tx(`drill.grade.${found.grade}`, null, "h3"),
      tx("drill.lost", { loss: found.loss.toFixed(3) }, "p", { id: "drill-loss" }),
      h("p", {}, tx("drill.best"), " ", raw(found.best, "strong", { id: "drill-best" })),
      h("p", { class: "muted" }, tx("drill.in_match"), " ", raw(found.played, "span")),
      h(
        "a",
        {
          class: "btn ghost small",
          id: "drill-share",
          href: `/api/positions/share.svg?xgid=${encodeURIComponent(/** @type {DrillCard} */ (v.card).xgid)}`,
          target: "_blank",
          rel: "noopener",
          "data-i18n": "drill.share",
        },
        t("drill.share"),
      ),
      button("drill.next", load, { class: "btn primary", id: "drill-next" }),
    );
  }

  function figures() {
    const s = v.summary;
    if (!s) return null;
    return h(
      "p",
      { class: "drill-figures muted", id: "drill-figures" },
      tx("training.due", { n: s.due }),
      " · ",
      tx("training.streak", { n: s.streak }),
    );
  }

  function draw() {
    const head = h("div", { class: "drill-head" }, tx("drill.title", null, "h1"), figures());
    if (!v.loaded) {
      clear(root).append(h("div", { class: "drill" }, head, tx("drill.loading", null, "p", { class: "muted" })));
      return;
    }
    if (!v.card) {
      clear(root).append(
        h(
          "div",
          { class: "drill" },
          head,
          h(
            "section",
            { class: "card", id: "drill-empty" },
            tx("drill.none", null, "h2"),
            tx("drill.none_body", null, "p", { class: "muted" }),
            button("drill.back", () => navigate("/"), { class: "btn primary", id: "drill-back" }),
          ),
        ),
      );
      return;
    }
    const card = v.card;
    renderBoard();
    board.svg.dataset.card = String(card.id);
    clear(root).append(
      h(
        "div",
        { class: "drill", "data-kind": card.kind },
        head,
        h("p", { class: "drill-tags" }, tx(`theme.${card.theme}`, null, "span", { class: "tag", id: "drill-theme" })),
        h("div", { class: "drill-board board-wrap" }, board.svg),
        v.verdict ? verdict() : question(),
      ),
    );
  }

  draw();
  load();
  const off = onLanguage(draw);
  return () => {
    gone = true;
    off();
  };
}
