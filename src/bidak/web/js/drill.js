// @ts-check
// The daily drill (#/drill): the next card of the player's blunder bank, answered on the board (a
// play) or with the cube's two buttons; the server grades the answer by the equity it gave up and
// schedules the card's return (FSRS). The card's answer never reaches the page before the answer.
import { createAnswering, nothingLeft } from "./answering.js";
import { api, statusOf } from "./api.js";
import { button, clear, h, raw, tx } from "./dom.js";
import { language, onLanguage, t } from "./i18n.js";
import { toast } from "./ui.js";

/** @import { DrillCard, DrillVerdict, TrainingSummary } from "./types.js" */

/**
 * @param {HTMLElement} root
 * @param {{ navigate: (path: string) => void }} options
 */
export function mountDrill(root, { navigate }) {
  /**
   * @type {{ card: DrillCard | null, summary: TrainingSummary | null, loaded: boolean,
   *   verdict: DrillVerdict | null, sending: boolean }}
   */
  const v = { card: null, summary: null, loaded: false, verdict: null, sending: false };
  let gone = false;
  const answering = createAnswering({ send, redraw: () => draw() });
  const board = answering.board;

  async function load() {
    v.loaded = false;
    v.verdict = null;
    try {
      const drill = await api.drill();
      v.card = drill.card;
      v.summary = drill.summary;
    } catch {
      toast(tx("drill.failed"), "error");
    }
    answering.show(v.card);
    v.loaded = true;
    if (!gone) draw();
  }

  /** @param {Record<string, string>} answer */
  async function send(answer) {
    if (!v.card || v.sending) return;
    v.sending = true;
    try {
      v.verdict = await api.answerCard(v.card.id, answer);
      v.summary = v.verdict.summary;
      answering.finish();
    } catch (error) {
      toast(tx(statusOf(error) === 422 ? "drill.not_legal" : "drill.failed"), "error");
    }
    v.sending = false;
    draw();
  }

  function verdict() {
    const found = /** @type {DrillVerdict} */ (v.verdict);
    return h(
      "div",
      { class: `drill-verdict grade-${found.grade}`, id: "drill-verdict", role: "status" },
      tx(`drill.grade.${found.grade}`, null, "h3"),
      tx("drill.lost", { loss: found.loss.toFixed(3) }, "p", { id: "drill-loss" }),
      tx("drill.returns", { when: comesBack(found.due_in) }, "p", { id: "drill-returns" }),
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

  /**
   * When a card comes back, from the server's schedule, in the page's language ("in 10 minutes",
   * "tomorrow", "in 4 days").
   * @param {number} seconds
   */
  function comesBack(seconds) {
    const when = new Intl.RelativeTimeFormat(language(), { numeric: "auto" });
    if (seconds < 3600) return when.format(Math.max(1, Math.round(seconds / 60)), "minute");
    if (seconds < 86400) return when.format(Math.round(seconds / 3600), "hour");
    return when.format(Math.round(seconds / 86400), "day");
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
          nothingLeft("drill", "drill", () => navigate("/")),
        ),
      );
      return;
    }
    const card = v.card;
    answering.render();
    board.svg.dataset.card = String(card.id);
    clear(root).append(
      h(
        "div",
        { class: "drill", "data-kind": card.kind },
        head,
        h("p", { class: "drill-tags" }, tx(`theme.${card.theme}`, null, "span", { class: "tag", id: "drill-theme" })),
        h("div", { class: "drill-board board-wrap" }, board.svg),
        v.verdict ? verdict() : answering.controls(),
      ),
    );
  }

  draw();
  load();
  const off = onLanguage(draw);
  return () => {
    answering.stop();
    gone = true;
    off();
  };
}
