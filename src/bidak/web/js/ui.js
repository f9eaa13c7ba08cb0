// Dialogs, toasts and small shared widgets.
import { h, tx, button, clear } from "./dom.js";
import { t, onLanguage } from "./i18n.js";

let toastHost = null;

export function toast(node, kind = "info", ms = 2600) {
  if (!toastHost) {
    toastHost = h("div", { class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(toastHost);
  }
  while (toastHost.children.length >= 2) toastHost.firstChild.remove();
  const item = h("div", { class: `toast toast-${kind}` }, node);
  toastHost.append(item);
  setTimeout(() => {
    item.classList.add("leaving");
    setTimeout(() => item.remove(), 300);
  }, ms);
  return item;
}

/**
 * A modal dialog. `actions`: [{key, onclick, kind, params, id}]; returns {close, el}.
 * Escape or the backdrop closes it when `dismissable`.
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
  const onKey = (event) => {
    if (event.key === "Escape" && dismissable) {
      event.stopPropagation();
      close();
    }
  };
  // Drawn again when the language changes; `body` may be a function for that reason.
  const draw = () => {
    clear(box).append(
      title ? tx(title, typeof titleParams === "function" ? titleParams() : titleParams, "h2") : null,
      body ? h("div", { class: "dialog-body" }, typeof body === "function" ? body() : body) : null,
      h("div", { class: "dialog-actions" },
        actions.map((a) => button(a.key, () => {
          if (a.keepOpen !== true) close();
          a.onclick && a.onclick();
        }, { class: `btn ${a.kind || ""}`, params: a.params, id: a.id }))));
  };
  draw();
  off = onLanguage(draw);
  backdrop.append(box);
  if (dismissable) backdrop.addEventListener("click", (event) => event.target === backdrop && close());
  document.addEventListener("keydown", onKey, true);
  document.body.append(backdrop);
  const first = box.querySelector(".dialog-actions button");
  if (first) first.focus();
  return { close, el: box };
}

export function closeDialogs() {
  for (const el of document.querySelectorAll(".backdrop")) el.remove();
}

/** A row of toggle buttons; `choices`: [{value, key, params}]. */
export function segmented(name, choices, value, onchange) {
  const group = h("div", { class: "segmented", role: "radiogroup", "data-name": name });
  const draw = (current) => {
    clear(group);
    for (const choice of choices) {
      group.append(button(choice.key, () => {
        onchange(choice.value);
        draw(choice.value);
      }, {
        class: choice.value === current ? "seg on" : "seg",
        role: "radio",
        "aria-checked": choice.value === current ? "true" : "false",
        "data-value": String(choice.value),
        params: choice.params,
      }));
    }
  };
  draw(value);
  return group;
}

/** Copy text to the clipboard; falls back to selecting a temporary field. */
export async function copyText(text) {
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

export function prefersReducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export function formatClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function pct(x) {
  return `${(100 * x).toFixed(1)}%`;
}

export function signed(x, digits = 3) {
  const v = Number(x).toFixed(digits);
  return x >= 0 ? `+${v}` : v;
}

export { t };
