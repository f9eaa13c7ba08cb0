// @ts-check
// The account's signed-in browsers card: GET /api/me/sessions, this browser first and marked,
// the others each with "sign out"; then "sign out" and "sign out everywhere" (each warns
// when the account has no address and would be lost). Devices are data: always text nodes.
import { accountApi, head, restart } from "./account-parts.js";
import { button, h, raw, tx } from "./dom.js";
import { dialog, toast } from "./ui.js";

/** @import { Me, SessionItem } from "./types.js" */

function when(/** @type {number | string} */ value) {
  const date =
    typeof value === "number" ? new Date(value * 1000) : new Date(/Z|[+-]\d\d:\d\d$/.test(value) ? value : `${value}Z`);
  return date.toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
}

/**
 * A browser in the player's words: "Chrome di Android"; the names of browsers and systems are
 * data (text nodes), the words around them the catalog's.
 * @param {SessionItem} item
 */
function deviceName(item) {
  const attrs = { class: "session-device" };
  if (item.browser && item.system)
    return tx("account.sessions.device", { browser: item.browser, system: item.system }, "span", attrs);
  if (item.browser || item.system) return raw(item.browser || item.system || "", "span", attrs);
  return tx("account.sessions.unknown", null, "span", attrs);
}

/**
 * The card for `sessions` (null: still asked); `ended()` runs after a browser was signed out.
 * @param {SessionItem[] | null} sessions
 * @param {{ me: () => Me | null, ended: () => void }} context
 */
export function sessionsCard(sessions, { me, ended }) {
  const list = h("ul", { class: "sessions", id: "sessions" });
  if (sessions === null) list.append(h("li", { class: "muted" }, h("span", { class: "spinner" })));
  // This browser first; it signs out with the "Sign out" button below the list.
  for (const item of [...(sessions || [])].sort((x, y) => Number(y.current) - Number(x.current))) {
    list.append(
      h(
        "li",
        { class: `session-item${item.current ? " current" : ""}`, "data-session": item.id },
        h(
          "div",
          { class: "history-main" },
          deviceName(item),
          h(
            "span",
            { class: "history-meta" },
            tx("account.sessions.seen", { when: when(item.last_seen ?? item.created_at) }),
            " · ",
            tx("account.sessions.since", { when: when(item.created_at) }),
          ),
        ),
        h(
          "div",
          { class: "history-side" },
          item.current
            ? tx("account.sessions.this", null, "span", { class: "badge good" })
            : button("account.sessions.end", () => endSession(item.id), {
                class: "btn small ghost",
                "data-end": item.id,
              }),
        ),
      ),
    );
  }
  const card = h(
    "section",
    { class: "card", id: "account-sessions" },
    head("icon-devices", "account.sessions.title"),
    tx("account.sessions.body", null, "p", { class: "muted small" }),
    list,
    h(
      "div",
      { class: "button-row" },
      button("account.logout", signOut, { class: "btn small", id: "logout" }),
      button("account.logout_all", signOutEverywhere, { class: "btn small", id: "logout-all" }),
    ),
  );

  async function endSession(/** @type {string} */ id) {
    try {
      await accountApi.endSession(id);
      toast(tx("account.sessions.ended"));
    } catch {
      toast(tx("error.generic"), "error");
    }
    ended();
  }

  const guestLoses = () => !me()?.email_linked;

  function signOut() {
    const go = () => accountApi.logout().then(restart, () => toast(tx("error.generic"), "error"));
    if (!guestLoses()) return go();
    dialog({
      id: "logout-dialog",
      title: "account.logout.title",
      body: () => tx("account.logout.guest", null, "p"),
      actions: [{ key: "account.logout", kind: "danger", onclick: go, id: "logout-confirm" }, { key: "btn.cancel" }],
    });
  }

  function signOutEverywhere() {
    const go = () => accountApi.logoutAll().then(restart, () => toast(tx("error.generic"), "error"));
    dialog({
      id: "logout-all-dialog",
      title: "account.logout_all.title",
      body: () => tx(guestLoses() ? "account.logout.guest" : "account.logout_all.body", null, "p"),
      actions: [
        { key: "account.logout_all", kind: "danger", onclick: go, id: "logout-all-confirm" },
        { key: "btn.cancel" },
      ],
    });
  }

  return card;
}
