// @ts-check
// The moderators' page: #/mod is the queue (players flagged by the fair-play signal, strongest
// first, then reported ones, newest first), #/mod/ID one player's case: the signal, the PR and
// move-time history of their reviewed rated matches, the reports about them and what moderators
// did, and the form of an action (warn, dismiss, rename, mute, unmute, ban, unban), each with a
// reason the player sees. The server refuses all of it to non-moderators (403); so does the page.
import { api, statusOf } from "./api.js";
import { button, clear, h, raw, tx } from "./dom.js";
import { onLanguage, t } from "./i18n.js";
import { toast } from "./ui.js";

/** @import { AuditEntry, FairSignal, Me, ModCase, ModCaseDetail } from "./types.js" */
/** @typedef {{ navigate: (path: string) => void, me: () => Me | null }} Nav */

export const ACTIONS = ["warn", "dismiss", "rename", "mute", "unmute", "ban", "unban", "ban_play", "unban_play"];

export function whenText(/** @type {string} */ iso) {
  const date = new Date(iso + (/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? "" : "Z"));
  return date.toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
}

const num = (/** @type {number | null} */ x, digits = 2) => (x === null ? "–" : Number(x).toFixed(digits));

/** The badges of a case: flagged, reports, leaver, muted, banned. */
function badges(/** @type {ModCase} */ c) {
  return h(
    "span",
    { class: "mod-badges" },
    c.signal.flagged ? tx("mod.flagged", null, "span", { class: "badge bad", "data-badge": "flagged" }) : null,
    c.open_reports
      ? tx("mod.reports_open", { count: c.open_reports }, "span", { class: "badge warn", "data-badge": "reported" })
      : null,
    c.leaver ? tx("mod.leaver", null, "span", { class: "badge warn", "data-badge": "leaver" }) : null,
    c.player.muted ? tx("mod.muted", null, "span", { class: "badge", "data-badge": "muted" }) : null,
    c.player.banned ? tx("mod.banned", null, "span", { class: "badge bad", "data-badge": "banned" }) : null,
    c.player.banned_play
      ? tx("mod.banned_play", null, "span", { class: "badge bad", "data-badge": "banned-play" })
      : null,
    c.player.held ? tx("mod.held", null, "span", { class: "badge", "data-badge": "held" }) : null,
  );
}

function signalLine(/** @type {FairSignal} */ s) {
  if (!s.decisions) return tx("mod.signal.none", null, "p", { class: "muted small" });
  return tx(
    s.enough ? "mod.signal" : "mod.signal.few",
    {
      pr: num(s.pr),
      bound: num(s.bound),
      threshold: num(s.threshold),
      decisions: s.decisions,
      matches: s.matches,
      cv: num(s.cv),
      percentile: (100 * s.percentile).toFixed(1),
    },
    "p",
    { class: "small mod-signal" },
  );
}

/**
 * Spinner, then `draw(data)`, or a card saying why not (403: not a moderator).
 * @template T
 * @param {HTMLElement} root
 * @param {Nav & { load: () => Promise<T>, draw: (data: T, reload: () => void) => HTMLElement[], back: string }} o
 */
function page(root, { navigate, me, load, draw, back }) {
  /** @type {T | null} */
  let data = null;
  // Known to be no moderator: nothing is asked (the server would answer 403).
  let failed = me()?.moderator ? 0 : 403;
  let gone = false;
  const render = () => {
    if (gone) return;
    const body = failed
      ? [tx(failed === 403 ? "mod.forbidden" : "error.generic", null, "p", { class: "notice", id: "mod-error" })]
      : data === null
        ? [h("div", { class: "spinner-row" }, h("span", { class: "spinner" }))]
        : draw(data, reload);
    clear(root).append(
      h(
        "div",
        { class: "community moderation", id: "moderation" },
        h(
          "div",
          { class: "page-bar" },
          button(back === "/" ? "nav.back" : "mod.back", () => navigate(back), {
            class: "btn ghost small",
            id: "page-back",
          }),
        ),
        ...body,
      ),
    );
  };
  const reload = () =>
    load().then(
      (x) => {
        data = x;
        failed = 0;
        render();
      },
      (error) => {
        failed = statusOf(error) || 500;
        render();
      },
    );
  render();
  if (!failed) reload();
  const off = onLanguage(render);
  return () => {
    gone = true;
    off();
  };
}

/** #/mod: the queue. */
export function mountModQueue(/** @type {HTMLElement} */ root, /** @type {Nav} */ { navigate, me }) {
  return page(root, {
    navigate,
    me,
    back: "/",
    load: api.modQueue,
    draw: (/** @type {ModCase[]} */ cases) => [
      h(
        "section",
        { class: "card" },
        h(
          "div",
          { class: "card-head" },
          h("span", { class: "card-icon icon-shield", "aria-hidden": "true" }),
          tx("mod.title", null, "h2"),
        ),
        tx("mod.body", null, "p", { class: "muted small" }),
        cases.length
          ? h(
              "ul",
              { class: "mod-queue", id: "mod-queue" },
              cases.map((c) =>
                h(
                  "li",
                  { class: "mod-case", "data-player": c.player.id },
                  h(
                    "a",
                    { href: `#/mod/${encodeURIComponent(c.player.id)}`, class: "mod-case-link" },
                    raw(c.player.name, "strong", { dir: "auto" }),
                    " ",
                    badges(c),
                  ),
                  c.reasons.length
                    ? h(
                        "p",
                        { class: "small muted" },
                        c.reasons.map((r, i) => [i ? ", " : "", tx(`report.reason.${r}`)]),
                      )
                    : null,
                  signalLine(c.signal),
                ),
              ),
            )
          : tx("mod.empty", null, "p", { class: "muted", id: "mod-empty" }),
      ),
    ],
  });
}

/** #/mod/ID: one player's case and the action form. */
export function mountModCase(
  /** @type {HTMLElement} */ root,
  /** @type {string} */ id,
  /** @type {Nav} */ { navigate, me },
) {
  const form = { kind: "warn", note: "", name: "" };
  return page(root, {
    navigate,
    me,
    back: "/mod",
    load: () => api.modCase(id),
    draw: (/** @type {ModCaseDetail} */ c, reload) => {
      const kind = h(
        "select",
        { id: "mod-kind", "aria-label": t("mod.action") },
        ACTIONS.map((k) =>
          h("option", { value: k, selected: k === form.kind, "data-i18n": `mod.kind.${k}` }, t(`mod.kind.${k}`)),
        ),
      );
      const name = h("input", {
        id: "mod-name",
        maxLength: 24,
        placeholder: t("mod.name.placeholder"),
        "aria-label": t("mod.name"),
        hidden: form.kind !== "rename",
      });
      name.value = form.name;
      kind.addEventListener("change", () => {
        form.kind = kind.value;
        name.hidden = form.kind !== "rename";
      });
      name.addEventListener("input", () => {
        form.name = name.value;
      });
      const note = h("textarea", {
        id: "mod-note",
        rows: 2,
        maxLength: 500,
        placeholder: t("mod.note.placeholder"),
        "aria-label": t("mod.note"),
      });
      note.value = form.note;
      note.addEventListener("input", () => {
        form.note = note.value;
      });
      const act = async () => {
        if (!form.note.trim()) {
          toast(tx("mod.note.needed"), "error");
          return;
        }
        try {
          await api.modAct(id, {
            kind: form.kind,
            note: form.note.trim(),
            ...(form.kind === "rename" && form.name.trim() ? { name: form.name.trim() } : {}),
          });
          // The red "Say why" (or an earlier refusal) is answered now: it goes, the success stays.
          for (const stale of document.querySelectorAll(".toast-error")) stale.remove();
          toast(tx("mod.done"));
          form.note = "";
          form.name = "";
        } catch (failure) {
          const code = failure && typeof failure === "object" && "code" in failure ? failure.code : null;
          const known = { unchanged: "mod.unchanged", moderator: "mod.on_moderator" };
          toast(tx(known[/** @type {"unchanged"} */ (code)] || "error.generic"), "error");
        }
        reload();
      };
      return [
        h(
          "section",
          { class: "card", id: "mod-player" },
          h(
            "div",
            { class: "card-head" },
            h("span", { class: "card-icon icon-shield", "aria-hidden": "true" }),
            raw(c.player.name, "h2", { dir: "auto", id: "mod-player-name" }),
          ),
          h("p", { class: "small" }, tx("mod.rating", { rating: num(c.player.rating) }), " ", badges(c)),
          signalLine(c.signal),
          h(
            "div",
            { class: "mod-form", id: "mod-form" },
            kind,
            name,
            note,
            button("mod.act", act, { class: "btn danger", id: "mod-act" }),
          ),
        ),
        h(
          "section",
          { class: "card", id: "mod-reports" },
          tx("mod.reports", null, "h3"),
          c.reports.length
            ? h(
                "ul",
                { class: "mod-list" },
                c.reports.map((r) =>
                  h(
                    "li",
                    { class: `mod-report${r.open ? " open" : ""}`, "data-report": r.id },
                    tx(`report.reason.${r.reason}`, null, "strong"),
                    " · ",
                    raw(r.reporter, "span", { dir: "auto" }),
                    " · ",
                    raw(whenText(r.at), "span", { class: "muted small" }),
                    r.open ? [" ", tx("mod.open", null, "span", { class: "badge warn" })] : null,
                    r.note ? raw(r.note, "p", { class: "small mod-note", dir: "auto" }) : null,
                  ),
                ),
              )
            : tx("mod.reports.none", null, "p", { class: "muted small" }),
        ),
        h(
          "section",
          { class: "card", id: "mod-history" },
          tx("mod.history", null, "h3"),
          c.history.length
            ? h(
                "table",
                { class: "ranks" },
                h(
                  "thead",
                  null,
                  h(
                    "tr",
                    null,
                    [
                      "mod.col.when",
                      "mod.col.pr",
                      "mod.col.decisions",
                      "mod.col.think",
                      "mod.col.cv",
                      "mod.col.left",
                    ].map((k) => tx(k, null, "th")),
                  ),
                ),
                h(
                  "tbody",
                  null,
                  c.history.map((m) =>
                    h(
                      "tr",
                      null,
                      h("td", null, raw(whenText(m.at))),
                      h("td", null, raw(num(m.pr))),
                      h("td", null, raw(String(m.decisions))),
                      h("td", null, raw(m.think_mean === null ? "–" : `${num(m.think_mean, 1)} s`)),
                      h("td", null, raw(num(m.think_cv))),
                      h("td", null, m.left ? tx("mod.left") : raw("")),
                    ),
                  ),
                ),
              )
            : tx("mod.history.none", null, "p", { class: "muted small" }),
        ),
        h("section", { class: "card", id: "mod-actions" }, tx("mod.actions", null, "h3"), auditList(c.actions, true)),
      ];
    },
  });
}

/**
 * The list of audit entries (the player's own on the account page; with who, for moderators).
 * @param {AuditEntry[]} entries
 * @param {boolean} withWho
 */
export function auditList(entries, withWho) {
  if (!entries.length) return tx("audit.none", null, "p", { class: "muted small", id: "audit-none" });
  return h(
    "ul",
    { class: "mod-list audit", id: "audit" },
    entries.map((a) =>
      h(
        "li",
        { class: "audit-entry", "data-kind": a.kind },
        tx(`audit.kind.${a.kind}`, null, "strong"),
        " · ",
        raw(whenText(a.at), "span", { class: "muted small" }),
        withWho && a.by ? [" · ", raw(a.by, "span", { dir: "auto" })] : null,
        raw(a.note, "p", { class: "small mod-note", dir: "auto" }),
        a.detail ? raw(a.detail, "p", { class: "small muted" }) : null,
      ),
    ),
  );
}
