// @ts-check
// What the account's cards share: its requests (`accountApi`, also emaillink.js's), why a request
// for a letter was refused (`refusal`), the letters sent and remembered in sessionStorage until the
// account shows them done, and the cards' pieces (a head, the "check your inbox" note, an address
// form). Names and addresses are data: always text nodes (`raw`, or a catalog parameter), never HTML.
import { ApiError, call } from "./api.js";
import { button, clear, h, tx } from "./dom.js";
import { language, t } from "./i18n.js";

const PENDING_KEY = "bidak.account.pending";

/**
 * @import { LetterSent, LinkDone, LinkPreview, Params, SessionItem } from "./types.js"
 * @typedef {{ kind?: string, address?: string | null, delivery?: string, owner?: string | null }} Pending
 *   a letter sent, remembered for this tab until the account shows it done
 * @typedef {[string, Params | null]} Refusal a catalog key and its parameters
 */

export const accountApi = {
  linkEmail: (/** @type {string} */ email) =>
    /** @type {Promise<LetterSent>} */ (call("POST", "/api/me/email", { email, lang: language() })),
  removeEmail: () => /** @type {Promise<LetterSent>} */ (call("DELETE", "/api/me/email", { lang: language() })),
  emailLogin: (/** @type {string} */ email) =>
    /** @type {Promise<LetterSent>} */ (call("POST", "/api/auth/email-login", { email, lang: language() })),
  preview: (/** @type {string} */ token) =>
    /** @type {Promise<LinkPreview>} */ (call("GET", `/api/auth/email?token=${encodeURIComponent(token)}`)),
  confirm: (/** @type {string} */ token) =>
    /** @type {Promise<LinkDone | null>} */ (call("POST", "/api/auth/email", { token })),
  sessions: () => /** @type {Promise<SessionItem[]>} */ (call("GET", "/api/me/sessions")),
  endSession: (/** @type {string} */ id) => call("DELETE", `/api/me/sessions/${encodeURIComponent(id)}`),
  logout: () => call("POST", "/api/auth/logout", {}),
  logoutAll: () => call("POST", "/api/auth/logout-all", {}),
  /** null (204) when a guest was deleted at once, else the letter sent */
  deleteMe: () =>
    /** @type {Promise<LetterSent | null>} */ (call("DELETE", "/api/me", { confirm: true, lang: language() })),
  exportUrl: "/api/me/export",
};

/**
 * The catalog key (and parameters) that says why a request for a letter was refused.
 * @param {unknown} error
 * @returns {Refusal}
 */
export function refusal(error) {
  const status = error instanceof ApiError ? error.status : 0;
  if (status === 422) return ["account.error.bad_address", null];
  if (status === 429) {
    const minutes = Math.max(1, Math.ceil(((error instanceof ApiError && error.retryAfter) || 60) / 60));
    return minutes === 1 ? ["account.error.too_many_one", null] : ["account.error.too_many", { n: minutes }];
  }
  if (status === 503) return ["account.error.no_mail", null];
  if (status === 409) return ["account.error.no_address", null];
  return ["error.generic", null];
}

/** @returns {Record<string, Pending>} */
export function pendingAll() {
  try {
    return JSON.parse(sessionStorage.getItem(PENDING_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

/** @param {string} kind @param {Pending | null} value @param {string | null | undefined} [owner] */
export function setPending(kind, value, owner = null) {
  const all = pendingAll();
  if (value) all[kind] = { ...value, owner };
  else delete all[kind];
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(all));
}

/** After the cookie is gone this browser is a new guest: start again from the lobby. */
export const restart = () => location.replace("/");

export function head(/** @type {string} */ icon, /** @type {string} */ key) {
  return h(
    "div",
    { class: "card-head" },
    h("span", { class: `card-icon ${icon}`, "aria-hidden": "true" }),
    tx(key, null, "h2"),
  );
}

/** "Check your inbox at ...", and that a development server only writes letters to its log. */
export function sentNote(/** @type {Pending} */ sent, /** @type {string} */ id) {
  return h(
    "div",
    { class: "notice sent", id, role: "status" },
    tx(
      ["remove", "change", "delete", "signin"].includes(sent.kind || "") ? `account.sent.${sent.kind}` : "account.sent",
      { address: sent.address },
      "p",
    ),
    sent.delivery === "log" ? tx("account.sent.log", null, "p", { class: "small", id: `${id}-log` }) : null,
  );
}

/**
 * An address field with its send button; `send(address)` resolves to what to remember.
 * @param {string} id
 * @param {string} buttonKey
 * @param {(address: string) => Promise<LetterSent>} send
 * @param {(sent: LetterSent, address: string) => void} after
 */
export function addressForm(id, buttonKey, send, after) {
  const input = h("input", {
    id: `${id}-input`,
    type: "email",
    autocomplete: "email",
    inputMode: "email",
    spellcheck: false,
    placeholder: t("account.email.placeholder"),
    "aria-label": t("account.email.label"),
    required: true,
  });
  const error = h("p", { class: "form-error", id: `${id}-error`, role: "alert" });
  let busy = false;
  const go = async () => {
    const address = input.value.trim();
    clear(error);
    if (!address || !input.checkValidity()) {
      error.append(tx("account.error.bad_address"));
      input.focus();
      return;
    }
    if (busy) return;
    busy = true;
    submit.disabled = true;
    try {
      after(await send(address), address);
    } catch (failure) {
      const [key, params] = refusal(failure);
      error.append(tx(key, params));
    } finally {
      busy = false;
      submit.disabled = false;
    }
  };
  const submit = button(buttonKey, go, { class: "btn primary", id: `${id}-send` });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") go();
  });
  return h("div", { class: "address-form" }, h("div", { class: "copy-row" }, input, submit), error);
}
