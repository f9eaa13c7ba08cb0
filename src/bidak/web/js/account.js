// @ts-check
// The account: #/account (link an e-mail, sign in on this device, sessions, export, delete);
// the page an e-mail link opens is emaillink.js's (docs/protocol.md, "Accounts").
// Over 400 lines only as Biome lays out its cards' element builders (about 300 before).
// Names and addresses are data: always text nodes (`raw`, or a catalog parameter), never HTML.
import { ApiError, call } from "./api.js";
import { button, clear, h, raw, tx } from "./dom.js";
import { language, onLanguage, t } from "./i18n.js";
import { dialog, toast } from "./ui.js";

const PENDING_KEY = "bidak.account.pending";

/**
 * @import { LetterSent, LinkDone, LinkPreview, Params, SessionItem, ViewContext } from "./types.js"
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

function when(/** @type {number | string} */ value) {
  const date =
    typeof value === "number" ? new Date(value * 1000) : new Date(/Z|[+-]\d\d:\d\d$/.test(value) ? value : `${value}Z`);
  return date.toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** @returns {Record<string, Pending>} */
function pendingAll() {
  try {
    return JSON.parse(sessionStorage.getItem(PENDING_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

/** @param {string} kind @param {Pending | null} value @param {string | null | undefined} [owner] */
function setPending(kind, value, owner = null) {
  const all = pendingAll();
  if (value) all[kind] = { ...value, owner };
  else delete all[kind];
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(all));
}

function head(/** @type {string} */ icon, /** @type {string} */ key) {
  return h(
    "div",
    { class: "card-head" },
    h("span", { class: `card-icon ${icon}`, "aria-hidden": "true" }),
    tx(key, null, "h2"),
  );
}

/** "Check your inbox at ...", and that a development server only writes letters to its log. */
function sentNote(/** @type {Pending} */ sent, /** @type {string} */ id) {
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
function addressForm(id, buttonKey, send, after) {
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

/**
 * @param {HTMLElement} root
 * @param {Omit<ViewContext, "session"> & { session?: Promise<unknown> }} context
 */
export function mountAccount(root, { navigate, me, session = Promise.resolve() }) {
  /** @type {SessionItem[] | null} */
  let sessions = null;
  let changing = false;
  let gone = false;

  function emailCard() {
    const who = me();
    const pending = pendingAll().email;
    const body = [];
    if (!who) body.push(h("p", { class: "spinner-row" }, h("span", { class: "spinner" })));
    else if (who.email_linked) {
      body.push(
        h(
          "p",
          { class: "linked-row", id: "linked-address" },
          tx("account.email.linked", null, "span", { class: "muted" }),
          " ",
          raw(who.email || "", "strong", { id: "masked-address" }),
        ),
      );
      body.push(tx("account.email.linked_body", null, "p", { class: "muted small" }));
      if (pending) body.push(sentNote(pending, "email-sent"));
      if (changing) {
        body.push(
          tx("account.email.change_body", null, "p", { class: "small" }),
          addressForm(
            "email",
            "account.email.change_send",
            (a) => accountApi.linkEmail(a),
            (sent, address) => {
              changing = false;
              setPending("email", { kind: "change", address: who.email || address, delivery: sent.delivery }, who.id);
              refresh();
            },
          ),
        );
      }
      body.push(
        h(
          "div",
          { class: "button-row" },
          changing
            ? null
            : button(
                "account.email.change",
                () => {
                  changing = true;
                  refresh();
                },
                { class: "btn small", id: "change-email" },
              ),
          button("account.email.remove", removeAddress, { class: "btn small ghost", id: "remove-email" }),
        ),
      );
    } else if (pending) {
      body.push(
        sentNote(pending, "email-sent"),
        tx("account.sent.expiry", null, "p", { class: "muted small" }),
        h(
          "div",
          { class: "button-row" },
          button(
            "account.sent.again",
            () => {
              setPending("email", null);
              refresh();
            },
            { class: "btn small", id: "email-again" },
          ),
        ),
      );
    } else {
      body.push(
        tx("account.email.body", null, "p", { class: "muted" }),
        addressForm(
          "email",
          "account.email.send",
          (a) => accountApi.linkEmail(a),
          (sent, address) => {
            setPending("email", { kind: "link", address, delivery: sent.delivery }, me()?.id);
            refresh();
          },
        ),
      );
    }
    return h("section", { class: "card", id: "account-email" }, head("icon-mail", "account.email.title"), body);
  }

  async function removeAddress() {
    const who = me();
    try {
      const sent = await accountApi.removeEmail();
      setPending("email", { kind: "remove", address: who ? who.email : "", delivery: sent.delivery }, who?.id);
      refresh();
    } catch (failure) {
      const [key, params] = refusal(failure);
      toast(tx(key, params), "error", 5000);
    }
  }

  function signInCard() {
    const pending = pendingAll().signin;
    const body = [
      tx(me()?.email_linked ? "account.signin.body_linked" : "account.signin.body", null, "p", { class: "muted" }),
    ];
    if (pending) {
      body.push(
        sentNote({ ...pending, kind: "signin" }, "signin-sent"),
        h(
          "div",
          { class: "button-row" },
          button(
            "account.sent.again",
            () => {
              setPending("signin", null);
              refresh();
            },
            { class: "btn small", id: "signin-again" },
          ),
        ),
      );
    } else {
      body.push(
        addressForm(
          "signin",
          "account.signin.send",
          (a) => accountApi.emailLogin(a),
          (sent, address) => {
            setPending("signin", { address, delivery: sent.delivery }, me()?.id);
            refresh();
          },
        ),
      );
    }
    return h("section", { class: "card", id: "account-signin" }, head("icon-key", "account.signin.title"), body);
  }

  function sessionsCard() {
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
            raw(item.device, "span", { class: "session-device" }),
            h(
              "span",
              { class: "history-meta" },
              tx("account.sessions.seen", { when: when(item.last_seen ?? item.created_at) }),
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
    return h(
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
  }

  async function endSession(/** @type {string} */ id) {
    try {
      await accountApi.endSession(id);
      toast(tx("account.sessions.ended"));
    } catch {
      toast(tx("error.generic"), "error");
    }
    loadSessions();
  }

  /** After the cookie is gone this browser is a new guest: start again from the lobby. */
  const restart = () => location.replace("/");
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

  function dataCard() {
    const pending = pendingAll().delete;
    return h(
      "section",
      { class: "card", id: "account-data" },
      head("icon-box", "account.data.title"),
      tx("account.data.body", null, "p", { class: "muted" }),
      h(
        "div",
        { class: "button-row" },
        h(
          "a",
          {
            class: "btn",
            id: "export",
            href: accountApi.exportUrl,
            download: "bidak-account.zip",
            "data-i18n": "account.export",
          },
          t("account.export"),
        ),
        button("account.delete", deleteAccount, { class: "btn ghost danger-text", id: "delete-account" }),
      ),
      pending ? sentNote({ ...pending, kind: "delete" }, "delete-sent") : null,
    );
  }

  function deleteAccount() {
    const who = me();
    const linked = Boolean(who?.email_linked);
    dialog({
      id: "delete-dialog",
      title: "account.delete.title",
      body: () => [
        tx(linked ? "account.delete.linked" : "account.delete.guest", linked ? { address: who?.email } : null, "p"),
        tx("account.delete.opponents", null, "p", { class: "muted small" }),
      ],
      actions: [
        {
          key: linked ? "account.delete.send" : "account.delete.now",
          kind: "danger",
          id: "delete-confirm",
          onclick: async () => {
            try {
              const sent = await accountApi.deleteMe();
              if (!sent) return restart(); // 204: the guest is gone
              setPending("delete", { address: who?.email, delivery: sent.delivery }, who?.id);
              refresh();
            } catch (failure) {
              const [key, params] = refusal(failure);
              toast(tx(key, params), "error", 5000);
            }
          },
        },
        { key: "btn.cancel" },
      ],
    });
  }

  function draw() {
    if (gone) return;
    const who = me();
    clear(root).append(
      h(
        "div",
        { class: "account" },
        h(
          "div",
          { class: "account-top" },
          button("account.back", () => navigate("/"), { class: "btn ghost small", id: "account-back" }),
          tx("account.title", null, "h1"),
          who ? raw(who.name, "span", { class: "muted", id: "account-name", dir: "auto" }) : null,
        ),
        h(
          "div",
          { class: "account-grid" },
          h("div", { class: "col" }, emailCard(), signInCard()),
          h("div", { class: "col" }, sessionsCard(), dataCard()),
        ),
      ),
    );
  }

  /** Draw again keeping what is typed in the other address field. */
  function refresh() {
    if (gone) return;
    const typed = [...root.querySelectorAll("input")].map((el) => [el.id, el.value]);
    draw();
    for (const [id, value] of typed) {
      const el = id && root.querySelector(`#${id}`);
      if (el instanceof HTMLInputElement) el.value = value;
    }
  }

  function loadSessions() {
    accountApi
      .sessions()
      .then(
        (found) => {
          sessions = found;
        },
        () => {
          sessions = [];
        },
      )
      .then(() => {
        const old = !gone && root.querySelector("#account-sessions");
        if (old) old.replaceWith(sessionsCard());
      });
  }

  draw();
  session.then(() => {
    const who = me();
    // What was sent ends once the account shows it done (a link opened in another tab), or
    // when this browser is another account now (signed in, signed out, deleted).
    for (const [kind, sent] of Object.entries(pendingAll())) {
      const over =
        !who ||
        sent.owner !== who.id ||
        (sent.kind === "link" && who.email_linked) ||
        (sent.kind === "change" && who.email !== sent.address) ||
        (sent.kind === "remove" && !who.email_linked) ||
        (kind === "delete" && !who.email_linked);
      if (over) setPending(kind, null);
    }
    refresh();
    loadSessions();
  });
  const off = onLanguage(refresh);
  return () => {
    gone = true;
    off();
  };
}
