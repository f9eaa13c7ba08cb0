// @ts-check
// Puzzles (#/puzzles): positions from reviewed matches across the site, each with one clear best
// choice, served near the solver's puzzle rating (Glicko-2), in the theme chosen or any. Answered
// on the board as the drill is (answering.js); the verdict says right or wrong and how the
// rating moved. A puzzle names nobody: whose match it came from never reaches the page.
import { createAnswering, nothingLeft } from "./answering.js";
import { api, statusOf } from "./api.js";
import { button, clear, h, raw, tx } from "./dom.js";
import { onLanguage, t } from "./i18n.js";
import { toast } from "./ui.js";

/** @import { Puzzle, PuzzleSummary, PuzzleVerdict } from "./types.js" */

const THEME_KEY = "bidak.puzzles.theme";

/**
 * @param {HTMLElement} root
 * @param {{ navigate: (path: string) => void }} options
 */
export function mountPuzzles(root, { navigate }) {
  /**
   * @type {{ puzzle: Puzzle | null, summary: PuzzleSummary | null, loaded: boolean,
   *   verdict: PuzzleVerdict | null, sending: boolean, theme: string | null }}
   */
  const v = {
    puzzle: null,
    summary: null,
    loaded: false,
    verdict: null,
    sending: false,
    theme: sessionStorage.getItem(THEME_KEY),
  };
  let gone = false;
  const answering = createAnswering({ send, redraw: () => draw() });
  const board = answering.board;

  async function load() {
    v.loaded = false;
    v.verdict = null;
    draw();
    try {
      const next = await api.nextPuzzle(v.theme);
      v.puzzle = next.puzzle;
      v.summary = next.summary;
    } catch {
      toast(tx("puzzles.failed"), "error");
    }
    answering.show(v.puzzle);
    v.loaded = true;
    if (!gone) draw();
  }

  /** @param {Record<string, string>} answer */
  async function send(answer) {
    if (!v.puzzle || v.sending) return;
    v.sending = true;
    try {
      v.verdict = await api.answerPuzzle(v.puzzle.id, answer);
      answering.finish();
      const found = v.verdict;
      if (v.summary && !found.repeated) {
        const { answered, right } = v.summary;
        v.summary = {
          ...v.summary,
          rating: found.rating,
          answered: answered + 1,
          right: right + (found.right ? 1 : 0),
        };
      }
    } catch (error) {
      toast(tx(statusOf(error) === 422 ? "drill.not_legal" : "puzzles.failed"), "error");
    }
    v.sending = false;
    draw();
  }

  function choose(/** @type {string | null} */ theme) {
    v.theme = theme;
    if (theme) sessionStorage.setItem(THEME_KEY, theme);
    else sessionStorage.removeItem(THEME_KEY);
    load();
  }

  function themes() {
    const counts = v.summary?.themes || {};
    const names = Object.keys(counts).sort();
    if (v.theme && !names.includes(v.theme)) names.unshift(v.theme);
    return h(
      "div",
      { class: "puzzle-themes", id: "puzzle-themes", role: "group" },
      button("puzzles.any", () => choose(null), {
        class: `theme-chip${v.theme ? "" : " on"}`,
        "aria-pressed": String(!v.theme),
        id: "puzzle-theme-any",
      }),
      names.map((name) =>
        h(
          "button",
          {
            type: "button",
            class: `theme-chip${v.theme === name ? " on" : ""}`,
            "aria-pressed": String(v.theme === name),
            id: `puzzle-theme-${name}`,
            onclick: () => choose(name),
          },
          t(`theme.${name}`),
          h("span", { class: "count" }, String(counts[name] || 0)),
        ),
      ),
    );
  }

  function verdict() {
    const found = /** @type {PuzzleVerdict} */ (v.verdict);
    const change = Math.round(found.rating) - Math.round(found.rating_before);
    const xgid = encodeURIComponent(/** @type {Puzzle} */ (v.puzzle).xgid);
    return h(
      "div",
      { class: `drill-verdict grade-${found.right ? "good" : "again"}`, id: "puzzle-verdict", role: "status" },
      tx(found.right ? "puzzles.right" : "puzzles.wrong", null, "h3"),
      h(
        "p",
        { class: "puzzle-change" },
        tx("puzzles.rating"),
        " ",
        raw(String(Math.round(found.rating)), "strong", { id: "puzzle-rating-after" }),
        " ",
        raw(`(${change >= 0 ? "+" : "−"}${Math.abs(change)})`, "span", {
          id: "puzzle-rating-change",
          class: change >= 0 ? "up" : "down",
        }),
      ),
      found.repeated ? tx("puzzles.repeated", null, "p", { class: "muted small" }) : null,
      tx("drill.lost", { loss: found.loss.toFixed(3) }, "p", { id: "puzzle-loss" }),
      h("p", {}, tx("drill.best"), " ", raw(found.best, "strong", { id: "puzzle-best" })),
      h(
        "div",
        { class: "row" },
        h(
          "a",
          {
            class: "btn ghost small",
            id: "puzzle-share",
            href: `/api/positions/share.png?xgid=${xgid}`,
            target: "_blank",
            rel: "noopener",
            "data-i18n": "drill.share",
          },
          t("drill.share"),
        ),
        button("puzzles.next", load, { class: "btn primary", id: "puzzle-next" }),
      ),
    );
  }

  function figures() {
    const s = v.summary;
    if (!s) return null;
    return h(
      "p",
      { class: "drill-figures muted", id: "puzzle-figures" },
      tx("puzzles.your_rating", { n: Math.round(s.rating) }),
      " · ",
      tx("puzzles.solved", { right: s.right, n: s.answered }),
    );
  }

  function draw() {
    if (gone) return;
    const head = h("div", { class: "drill-head" }, tx("puzzles.title", null, "h1"), figures());
    if (!v.loaded) {
      clear(root).append(
        h("div", { class: "drill puzzles" }, head, tx("drill.loading", null, "p", { class: "muted" })),
      );
      return;
    }
    if (!v.puzzle) {
      clear(root).append(
        h(
          "div",
          { class: "drill puzzles" },
          head,
          themes(),
          nothingLeft("puzzle", "puzzles", () => navigate("/")),
        ),
      );
      return;
    }
    const puzzle = v.puzzle;
    answering.render();
    board.svg.dataset.puzzle = String(puzzle.id);
    clear(root).append(
      h(
        "div",
        { class: "drill puzzles", "data-kind": puzzle.kind },
        head,
        themes(),
        h(
          "p",
          { class: "drill-tags" },
          tx(`theme.${puzzle.theme}`, null, "span", { class: "tag", id: "puzzle-theme" }),
          " ",
          tx("puzzles.puzzle_rating", { n: puzzle.rating }, "span", { class: "tag muted", id: "puzzle-rating" }),
        ),
        h("div", { class: "drill-board board-wrap" }, board.svg),
        v.verdict ? verdict() : answering.controls(),
      ),
    );
  }

  load();
  const off = onLanguage(draw);
  return () => {
    answering.stop();
    gone = true;
    off();
  };
}

/**
 * The account's Puzzles card: whether one's banked positions may become puzzles for others.
 * @param {{ summary: PuzzleSummary | null, changed: (s: PuzzleSummary) => void }} context
 */
export function puzzleSharingCard({ summary, changed }) {
  const box = h("input", {
    type: "checkbox",
    id: "puzzle-share",
    checked: summary ? summary.shared : true,
    disabled: !summary,
  });
  box.addEventListener("change", () => {
    const on = box.checked;
    api.sharePuzzles(on).then(changed, () => {
      box.checked = !on;
      toast(tx("puzzles.failed"), "error");
    });
  });
  return h(
    "section",
    { class: "card", id: "account-puzzles" },
    h(
      "div",
      { class: "card-head" },
      h("span", { class: "card-icon icon-target", "aria-hidden": "true" }),
      tx("puzzles.sharing.title", null, "h2"),
    ),
    h("label", { class: "check-row", for: "puzzle-share" }, box, tx("puzzles.sharing.label")),
    tx("puzzles.sharing.body", null, "p", { class: "muted small" }),
  );
}
