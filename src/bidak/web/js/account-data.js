// @ts-check
// The account's data card: the export zip as a download link, and delete (a dialog, then a
// letter to the address, or at once for a guest, after which this browser starts again).
import { accountApi, head, pendingAll, refusal, restart, sentNote, setPending } from "./account-parts.js";
import { button, h, tx } from "./dom.js";
import { t } from "./i18n.js";
import { dialog, toast } from "./ui.js";

/** @import { Me } from "./types.js" */

/**
 * The card; `refresh()` draws the account again once a letter was sent.
 * @param {{ me: () => Me | null, refresh: () => void }} context
 */
export function dataCard({ me, refresh }) {
  const pending = pendingAll().delete;
  const card = h(
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

  return card;
}
