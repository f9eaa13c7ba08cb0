// @ts-check
// The account: #/account, its cards laid out and drawn again as the account changes: the e-mail
// address (link, change, remove) and sign in on this device here, the signed-in browsers
// (account-sessions.js), export and delete (account-data.js), what they share (account-parts.js),
// whether one's positions may become puzzles (puzzles.js), and what moderators did about the
// account (mod.js's list), with the way to their page for them.
// The page an e-mail link opens is emaillink.js's (docs/protocol.md, "Accounts").

import { dataCard } from "./account-data.js";
import { notifyCard } from "./account-notify.js";
import { accountApi, addressForm, head, pendingAll, refusal, sentNote, setPending } from "./account-parts.js";
import { sessionsCard } from "./account-sessions.js";
import { api } from "./api.js";
import { button, clear, h, raw, tx } from "./dom.js";
import { onLanguage } from "./i18n.js";
import { auditList } from "./mod.js";
import { puzzleSharingCard } from "./puzzles.js";
import { accessCard } from "./settings.js";
import { toast } from "./ui.js";

/** @import { AuditEntry, PuzzleSummary, SessionItem, ViewContext } from "./types.js" */

/**
 * @param {HTMLElement} root
 * @param {Omit<ViewContext, "session"> & { session?: Promise<unknown> }} context
 */
export function mountAccount(root, { navigate, me, setMe, session = Promise.resolve() }) {
  /** @type {SessionItem[] | null} */
  let sessions = null;
  /** @type {AuditEntry[] | null} */
  let audit = null;
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

  const sessionsOf = () => sessionsCard(sessions, { me, ended: loadSessions });

  function auditCard() {
    return h(
      "section",
      { class: "card", id: "account-audit" },
      head("icon-shield", "account.audit.title"),
      tx("account.audit.body", null, "p", { class: "muted small" }),
      audit === null ? h("p", { class: "spinner-row" }, h("span", { class: "spinner" })) : auditList(audit, false),
      me()?.moderator
        ? h(
            "div",
            { class: "button-row" },
            button("account.moderation", () => navigate("/mod"), { class: "btn small", id: "open-moderation" }),
          )
        : null,
    );
  }

  /** @type {PuzzleSummary | null} */
  let puzzles = null;
  function sharingChanged(/** @type {PuzzleSummary} */ found) {
    puzzles = found;
    const old = !gone && root.querySelector("#account-puzzles");
    if (old) old.replaceWith(puzzleSharingCard({ summary: puzzles, changed: sharingChanged }));
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
          h(
            "div",
            { class: "col" },
            sessionsOf(),
            notifyCard({ me, session }),
            accessCard({ me, setMe }),
            puzzleSharingCard({ summary: puzzles, changed: sharingChanged }),
            auditCard(),
            dataCard({ me, refresh }),
          ),
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

  /**
   * The moderators' list, drawn in its own card when it arrives: a whole redraw then took the
   * focus (a phone's keyboard closes) and could swallow a tap in progress on another card.
   * @param {AuditEntry[]} found
   */
  function showAudit(found) {
    audit = found;
    const old = !gone && root.querySelector("#account-audit");
    if (old) old.replaceWith(auditCard());
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
        if (old) old.replaceWith(sessionsOf());
      });
  }

  draw();
  session.then(() => api.puzzles()).then(sharingChanged, () => {});
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
    api.myActions().then(showAudit, () => showAudit([]));
  });
  const off = onLanguage(refresh);
  return () => {
    gone = true;
    off();
  };
}
