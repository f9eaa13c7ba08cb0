// @ts-check
// The lobby's card of the player's matches: each with its opponent (a bot by its level, waiting,
// or a name: data, a text node), length, date, score and result, and Review or Resume.
import { button, h, raw, tx } from "./dom.js";
import { t } from "./i18n.js";

/** @import { HistoryItem, ViewContext } from "./types.js" */

/** The opponent of a match in the history: a bot by its level, waiting, or a name (data). */
export function opponentLabel(/** @type {HistoryItem} */ item) {
  if (item.kind === "practice" && ["beginner", "normal", "expert"].includes(item.bot || "")) {
    return { text: t("bot.name", { level: t(`level.${item.bot}`) }), i18n: true };
  }
  if (item.opponent === "(waiting)") return { text: t("history.waiting"), i18n: true };
  return { text: item.opponent, i18n: false };
}

/**
 * The card for `history` (null: still asked).
 * @param {HistoryItem[] | null} history
 * @param {ViewContext["navigate"]} navigate
 */
export function historyCard(history, navigate) {
  const list = h("ul", { class: "history", id: "history" });
  if (history === null) list.append(h("li", { class: "muted" }, h("span", { class: "spinner" })));
  else if (!history.length) list.append(tx("history.empty", null, "li", { class: "muted" }));
  for (const item of history || []) {
    const opponent = opponentLabel(item);
    const result = !item.finished ? "history.playing" : item.won ? "history.won" : "history.lost";
    const date = new Date(
      item.updated_at + (item.updated_at.endsWith("Z") || item.updated_at.includes("+") ? "" : "Z"),
    );
    list.append(
      h(
        "li",
        {
          class: `history-item ${item.finished ? (item.won ? "won" : "lost") : "live"}`,
          "data-match": item.match_id,
        },
        h(
          "div",
          { class: "history-main" },
          opponent.i18n
            ? h("span", { class: "opp", "data-i18n": "bot.name" }, opponent.text)
            : raw(opponent.text, "span", { class: "opp", dir: "auto" }),
          h(
            "span",
            { class: "history-meta" },
            tx("match.length", { n: item.length }),
            " · ",
            raw(
              date.toLocaleDateString(document.documentElement.lang || undefined, { day: "numeric", month: "short" }),
            ),
          ),
        ),
        h(
          "div",
          { class: "history-side" },
          raw(`${item.score[0]}–${item.score[1]}`, "b", { class: "history-score" }),
          tx(result, null, "span", { class: `badge ${item.finished ? (item.won ? "good" : "bad") : "live"}` }),
          item.finished
            ? button("history.review", () => navigate(`/review/${item.match_id}`), {
                class: "btn small",
                "data-review": item.match_id,
              })
            : button("history.resume", () => navigate(`/room/${item.room}`), { class: "btn small" }),
        ),
      ),
    );
  }
  return h(
    "section",
    { class: "card history-card", id: "history-card" },
    h(
      "div",
      { class: "card-head" },
      h("span", { class: "card-icon icon-history", "aria-hidden": "true" }),
      tx("history.title", null, "h2"),
    ),
    list,
  );
}
