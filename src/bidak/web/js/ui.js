// @ts-check
// Dialogs, toasts and small shared widgets.
import { append, button, clear, h, tx } from "./dom.js";
import { onLanguage, t } from "./i18n.js";

/** @import { Child, Params } from "./types.js" */

/** @type {HTMLElement | null} */
let toastHost = null;
/** @type {HTMLElement | null} */
let toastAnchor = null;

/**
 * Where toasts show from now on: inside `anchor` (the table puts them in a strip above itself,
 * where they cover no control and no checker), or over the page (null).
 * @param {HTMLElement | null} anchor
 */
export function anchorToasts(anchor) {
  toastAnchor = anchor;
  if (toastHost) toastHost.remove();
  toastHost = null;
}

/**
 * A short message for `ms` (at most two at a time): at the top of the page, or over the board.
 * @param {Child} node
 * @param {"info" | "warn" | "error"} [kind]
 * @param {number} [ms]
 */
export function toast(node, kind = "info", ms = 2600) {
  if (!toastHost?.isConnected) {
    toastHost = h("div", { class: "toasts", role: "status", "aria-live": "polite" });
    (toastAnchor?.isConnected ? toastAnchor : document.body).append(toastHost);
  }
  while (toastHost.firstElementChild && toastHost.children.length >= 2) toastHost.firstElementChild.remove();
  const item = h("div", { class: `toast toast-${kind}` }, node);
  toastHost.append(item);
  setTimeout(() => {
    item.classList.add("leaving");
    setTimeout(() => item.remove(), 300);
  }, ms);
  return item;
}

/**
 * A dialog's button: the catalog key of its label, what it does (the dialog closes first
 * unless `keepOpen`), its look (`kind`: primary, danger) and id.
 * @typedef {{ key: string, onclick?: () => void, kind?: string, params?: Params,
 *   id?: string, keepOpen?: boolean }} DialogAction
 */

/**
 * A modal dialog. `body` may be a function (drawn again on a change of language); returns
 * {close, el}. Escape or the backdrop closes it when `dismissable`.
 * @param {{ title?: string, titleParams?: Params | (() => Params),
 *   body?: Child | (() => Child), actions?: DialogAction[], dismissable?: boolean, id?: string,
 *   onClose?: () => void }} options
 */
export function dialog({ title, titleParams, body, actions = [], dismissable = true, id, onClose }) {
  const backdrop = h("div", { class: "backdrop" });
  const box = h("div", { class: "dialog", role: "dialog", "aria-modal": "true", id });
  let off = () => {};
  const close = () => {
    backdrop.remove();
    off();
    document.removeEventListener("keydown", onKey, true);
    if (onClose) onClose();
  };
  const onKey = (/** @type {KeyboardEvent} */ event) => {
    if (event.key === "Escape" && dismissable) {
      event.stopPropagation();
      close();
    }
  };
  // Drawn again when the language changes; `body` may be a function for that reason.
  const draw = () => {
    // (Element.append would write a null as the text "null": the parts go through `h`'s rules.)
    clear(box);
    append(
      box,
      title ? tx(title, typeof titleParams === "function" ? titleParams() : titleParams, "h2") : null,
      body ? h("div", { class: "dialog-body" }, typeof body === "function" ? body() : body) : null,
      h(
        "div",
        { class: "dialog-actions" },
        actions.map((a) =>
          button(
            a.key,
            () => {
              if (a.keepOpen !== true) close();
              if (a.onclick) a.onclick();
            },
            { class: `btn ${a.kind || ""}`, params: a.params, id: a.id },
          ),
        ),
      ),
    );
  };
  // Named by its first heading (the title, or the body's own), as a screen reader says it.
  const name = () => {
    const heading = box.querySelector("h1, h2, h3");
    if (!heading) return;
    if (!heading.id) heading.id = `${id || "dialog"}-title`;
    box.setAttribute("aria-labelledby", heading.id);
  };
  draw();
  name();
  off = onLanguage(() => {
    draw();
    name();
  });
  backdrop.append(box);
  if (dismissable) backdrop.addEventListener("click", (event) => event.target === backdrop && close());
  document.addEventListener("keydown", onKey, true);
  document.body.append(backdrop);
  const first = box.querySelector(".dialog-actions button");
  if (first instanceof HTMLElement) first.focus();
  return { close, el: box };
}

export function closeDialogs() {
  for (const el of document.querySelectorAll(".backdrop")) el.remove();
}

/**
 * A row of toggle buttons, one of them on.
 * @template T
 * @param {string} name
 * @param {{ value: T, key: string, params?: Params }[]} choices
 * @param {T} value
 * @param {(value: T) => void} onchange
 */
export function segmented(name, choices, value, onchange) {
  const group = h("div", { class: "segmented", role: "radiogroup", "data-name": name });
  const draw = (/** @type {T} */ current) => {
    clear(group);
    for (const choice of choices) {
      group.append(
        button(
          choice.key,
          () => {
            onchange(choice.value);
            draw(choice.value);
          },
          {
            class: choice.value === current ? "seg on" : "seg",
            role: "radio",
            "aria-checked": choice.value === current ? "true" : "false",
            "data-value": String(choice.value),
            params: choice.params,
          },
        ),
      );
    }
  };
  draw(value);
  return group;
}

/** Copy text to the clipboard; falls back to selecting a temporary field. */
export async function copyText(/** @type {string} */ text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { class: "offscreen" });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

/** Seconds as m:ss (rounded up, never below 0:00). */
export function formatClock(/** @type {number} */ seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  // A correspondence clock counts days and hours (docs/correspondence.md).
  if (s >= 86400) return t("clock.days", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  if (s >= 3600) return t("clock.hours", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function pct(/** @type {number} */ x) {
  return `${(100 * x).toFixed(1)}%`;
}

/** A figure with its sign, the minus as the review's losses write it (U+2212, not a hyphen). */
export function signed(/** @type {number} */ x, digits = 3) {
  const v = Math.abs(Number(x)).toFixed(digits);
  return x >= 0 ? `+${v}` : `\u2212${v}`;
}

export { t };
