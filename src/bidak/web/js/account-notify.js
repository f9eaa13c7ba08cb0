// @ts-check
// The account's notifications card (issue 38): this device's Web Push (turn it on: the
// browser asks; or why it cannot be: not supported, blocked in the browser's settings), then,
// per kind, whether it goes by push and by e-mail (GET/PUT /api/notifications/settings). The
// page's notification centre always shows everything; e-mail needs a linked address.
import { head } from "./account-parts.js";
import { api } from "./api.js";
import { button, h, tx } from "./dom.js";
import { pushState, turnOff, turnOn } from "./push.js";
import { toast } from "./ui.js";

/** @import { Me } from "./types.js" */
/** @import { NotifySettings, PushState } from "./push.js" */

const KINDS = ["turn", "time", "challenge", "accepted", "declined", "over", "tournament", "moderator"];

/**
 * The card; it fills itself in as the device's state and the settings arrive.
 * @param {{ me: () => Me | null, session: Promise<unknown> }} context
 */
export function notifyCard({ me, session }) {
  const device = h("div", { class: "push-device", id: "push-device" }, h("span", { class: "spinner" }));
  const kinds = h("div", { class: "notify-kinds", id: "notify-kinds" }, h("span", { class: "spinner" }));
  const card = h(
    "section",
    { class: "card", id: "account-notify" },
    head("icon-bell", "account.notify.title"),
    tx("account.notify.body", null, "p", { class: "muted small" }),
    device,
    kinds,
  );

  /** @param {PushState} state */
  function showDevice(state) {
    const busy = (/** @type {() => Promise<PushState>} */ work) => async () => {
      for (const el of device.querySelectorAll("button")) el.disabled = true;
      try {
        showDevice(await work());
      } catch {
        toast(tx("account.notify.failed"), "error");
        showDevice(await pushState().catch(() => /** @type {PushState} */ ("off")));
      }
    };
    const on = () => turnOn(me()?.id || "");
    device.replaceChildren(
      tx(`account.notify.device.${state}`, null, "p", { class: `push-state ${state}`, id: "push-state" }),
    );
    if (state === "off")
      device.append(button("account.notify.turn_on", busy(on), { class: "btn primary", id: "push-on" }));
    if (state === "on")
      device.append(button("account.notify.turn_off", busy(turnOff), { class: "btn small ghost", id: "push-off" }));
  }

  /** @param {NotifySettings} settings */
  function showKinds(settings) {
    const box = (/** @type {"push" | "email"} */ channel, /** @type {string} */ kind) => {
      if (!(kind in settings[channel])) return h("span", { class: "notify-none" });
      const input = h("input", {
        type: "checkbox",
        id: `notify-${channel}-${kind}`,
        checked: settings[channel][kind],
        disabled: channel === "email" && !settings.email_linked,
      });
      input.addEventListener("change", () => {
        input.disabled = true;
        api.setNotify(channel, kind, input.checked).then(
          (answer) => {
            settings = answer;
            input.checked = answer[channel][kind];
            input.disabled = false;
          },
          () => {
            input.checked = !input.checked;
            input.disabled = false;
            toast(tx("account.notify.failed"), "error");
          },
        );
      });
      return h(
        "label",
        { class: "notify-box", for: `notify-${channel}-${kind}` },
        input,
        tx(`account.notify.${channel}`),
      );
    };
    kinds.replaceChildren(
      ...KINDS.filter((kind) => kind in settings.push).map((kind) =>
        h(
          "div",
          { class: "notify-kind", "data-kind": kind },
          tx(`account.notify.kind.${kind}`, null, "span", { class: "notify-label" }),
          h("div", { class: "notify-boxes" }, box("push", kind), box("email", kind)),
        ),
      ),
    );
    if (!settings.email_linked)
      kinds.append(tx("account.notify.email_hint", null, "p", { class: "muted small", id: "notify-email-hint" }));
  }

  pushState().then(showDevice, () => showDevice("unsupported"));
  session
    .then(() => api.notifySettings())
    .then(showKinds, () => kinds.replaceChildren(tx("error.generic", null, "p", { class: "muted small" })));
  return card;
}
