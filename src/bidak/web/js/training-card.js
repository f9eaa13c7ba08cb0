// @ts-check
// The lobby's training card: cards due today and the drill streak, and the ways into the drill
// and the puzzles.
import { api } from "./api.js";
import { button, clear, h, raw, tx } from "./dom.js";

/** @import { TrainingSummary } from "./types.js" */

/** @param {{ navigate: (path: string) => void, session?: Promise<unknown> }} context */
export function trainingCard({ navigate, session = Promise.resolve() }) {
  const card = h("section", { class: "card training-card", id: "training-card" });
  /** @type {TrainingSummary | null} */
  let summary = null;

  function draw() {
    clear(card).append(
      h(
        "div",
        { class: "card-head" },
        h("span", { class: "card-icon icon-target", "aria-hidden": "true" }),
        tx("training.title", null, "h2"),
      ),
      ...(summary
        ? [
            h(
              "p",
              { class: "training-figures" },
              raw(String(summary.due), "strong", { id: "training-due" }),
              " ",
              tx("training.due_label"),
              " · ",
              raw(String(summary.streak), "strong", { id: "training-streak" }),
              " ",
              tx("training.streak_label"),
            ),
          ]
        : []),
      tx(summary?.cards ? "training.body" : "training.empty", null, "p", { class: "muted" }),
      h(
        "div",
        { class: "button-row" },
        button("training.start", () => navigate("/drill"), {
          class: summary?.due ? "btn primary" : "btn",
          id: "training-start",
        }),
        button("training.puzzles", () => navigate("/puzzles"), { class: "btn", id: "training-puzzles" }),
      ),
    );
  }

  draw();
  session
    .then(() => api.training())
    .then(
      (found) => {
        summary = found;
        draw();
      },
      () => {},
    );
  return { el: card, draw };
}
