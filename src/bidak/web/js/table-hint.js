// @ts-check
// The hint panel of a practice table (GET /api/rooms/{code}/hint, 2-ply): the best plays with
// their equities and chances, the chosen one drawn as arrows on the board, or the cube's
// verdict with its three equities.
import { api } from "./api.js";
import { button, clear, h, raw, tx } from "./dom.js";
import { pct, signed } from "./ui.js";

/**
 * @import { Arrow, HintState, PlayCandidate } from "./types.js"
 * @import { TableStore } from "./table-store.js"
 */

/** @param {number[][]} steps @returns {Arrow[]} */
function arrowsFor(steps) {
  return steps.map(([s0, e0]) => ({ from: s0, to: e0, kind: "hint", mine: true }));
}

/**
 * @param {TableStore} store
 * @param {() => HTMLElement} panel the panel's element (drawn again on a change of language)
 */
export function createHint(store, panel) {
  const v = store.state;

  async function show() {
    store.setHint({ loading: true }, v.hintArrows);
    /** @type {HintState} */
    let hint;
    let arrows = v.hintArrows;
    try {
      const result = await api.hint(v.code, "2ply");
      hint = result;
      if (result.kind === "PlayHint" && result.hint.candidates.length) {
        arrows = arrowsFor(result.hint.candidates[0].steps);
        hint = { ...result, shown: 0 };
      }
    } catch (error) {
      hint = { error: true, busy: error instanceof Error && "status" in error && error.status === 503 };
    }
    store.setHint(hint, arrows);
  }

  function render() {
    const hint = v.hint;
    const node = clear(panel());
    node.classList.toggle("hidden", !hint);
    if (!hint) return;
    const close = button("btn.close", () => store.setHint(null, null), { class: "btn ghost small" });
    node.append(h("div", { class: "panel-head" }, tx("hint.title", null, "h3"), close));
    if ("loading" in hint) {
      node.append(h("div", { class: "spinner-row" }, h("span", { class: "spinner" }), tx("hint.loading")));
      return;
    }
    if ("error" in hint) {
      node.append(tx(hint.busy ? "hint.busy" : "hint.none", null, "p", { class: "muted", id: "hint-error" }));
      return;
    }
    if (hint.kind === "PlayHint") {
      const data = hint.hint;
      const list = h("ol", { class: "hint-list", id: "hint-list" });
      data.candidates.slice(0, 6).forEach((c, i) => {
        list.append(
          candidate(c, i, i === (hint.shown ?? 0), () => {
            hint.shown = i;
            store.setHint(hint, arrowsFor(c.steps));
          }),
        );
      });
      node.append(list, tx("hint.equity_note", { level: data.level }, "p", { class: "muted small" }));
    } else {
      const data = hint.hint;
      node.append(
        h(
          "div",
          { class: "cube-hint", id: "cube-hint" },
          tx(`cube.${data.action}`, null, "p", { class: "cube-verdict" }),
          tx(`cube.right.${data.right_action}`, null, "p", { class: "muted" }),
          h(
            "dl",
            { class: "cube-eqs" },
            tx("cube.nd", null, "dt"),
            raw(signed(data.no_double), "dd"),
            tx("cube.dt", null, "dt"),
            raw(signed(data.double_take), "dd"),
            tx("cube.dp", null, "dt"),
            raw(signed(data.double_pass), "dd"),
          ),
          tx("hint.win", { p: pct(data.probabilities.win) }, "p", { class: "muted small" }),
        ),
      );
    }
  }

  /** One candidate play of the list; a tap shows its arrows. */
  function candidate(
    /** @type {PlayCandidate} */ c,
    /** @type {number} */ i,
    /** @type {boolean} */ on,
    /** @type {() => void} */ pick,
  ) {
    const p = c.probabilities;
    return h(
      "li",
      { class: `hint-item${on ? " on" : ""}`, tabIndex: 0, onclick: pick },
      h(
        "div",
        { class: "hint-row" },
        raw(`${c.rank}.`, "span", { class: "rank" }),
        raw(c.notation, "b", { class: "notation" }),
        raw(signed(c.equity), "span", { class: "equity" }),
        i ? raw(signed(-c.loss), "span", { class: "loss" }) : tx("hint.best", null, "span", { class: "badge good" }),
      ),
      h(
        "div",
        { class: "hint-probs" },
        tx("hint.win", { p: pct(p.win) }),
        " · ",
        tx("hint.gammon", { p: pct(p.win_gammon) }),
        " · ",
        tx("hint.lose_gammon", { p: pct(p.lose_gammon) }),
      ),
    );
  }

  return { show, render };
}
