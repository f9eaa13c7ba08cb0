// @ts-check
// Reporting the opponent (docs/protocol.md, "Fair play"): a dialog with the four reasons
// (engine help, an abusive name, abusive talk, leaving) and an optional note, sent to
// POST /api/reports. One open report per reporter and match: a second says it was sent already.
import { ApiError, api } from "./api.js";
import { h, raw, tx } from "./dom.js";
import { t } from "./i18n.js";
import { dialog, toast } from "./ui.js";

/** @import { ReportReason } from "./types.js" */

/** @type {ReportReason[]} */
export const REASONS = ["engine", "name", "talk", "leaving"];

/**
 * Open the dialog reporting `name`, the opponent in match `matchId`.
 * @param {string} matchId
 * @param {string} name
 */
export function openReport(matchId, name) {
  /** @type {ReportReason} */
  let reason = "engine";
  let note = "";

  const body = () => {
    const choices = REASONS.map((r) => {
      const input = h("input", { type: "radio", name: "report-reason", value: r, checked: r === reason });
      input.addEventListener("change", () => {
        reason = r;
      });
      return h("label", { class: "report-reason" }, input, " ", tx(`report.reason.${r}`));
    });
    const area = h("textarea", {
      id: "report-note",
      rows: 3,
      maxLength: 500,
      placeholder: t("report.note.placeholder"),
      "aria-label": t("report.note"),
    });
    area.value = note;
    area.addEventListener("input", () => {
      note = area.value;
    });
    return [
      h("p", { class: "small" }, tx("report.who"), " ", raw(name, "strong", { dir: "auto" })),
      h("fieldset", { class: "report-reasons", id: "report-reasons" }, choices),
      h("label", { class: "report-note" }, tx("report.note", null, "span", { class: "small muted" }), area),
      tx("report.body", null, "p", { class: "muted small" }),
    ];
  };

  async function send() {
    try {
      await api.report(matchId, reason, note.trim());
      toast(tx("report.sent"));
    } catch (failure) {
      const already = failure instanceof ApiError && failure.code === "already_reported";
      toast(tx(already ? "report.already" : "error.generic"), already ? undefined : "error");
    }
  }

  dialog({
    id: "report-dialog",
    title: "report.title",
    body,
    actions: [{ key: "report.send", kind: "danger", onclick: send, id: "report-send" }, { key: "btn.cancel" }],
  });
}
