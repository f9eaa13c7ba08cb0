// @ts-check
// The player's accessibility settings (issue 40), kept with the account (PUT /api/me/access):
// reduced motion, high contrast, larger checkers and point numbers, checkers that differ by more
// than hue. Each one on is a class on <html> (`a11y-motion`, ...) that a11y.css draws; the last
// ones known are kept in localStorage too, so a page is drawn with them before /api/me answers.
import { api } from "./api.js";
import { h, tx } from "./dom.js";
import { toast } from "./ui.js";

/** @import { Access, Me } from "./types.js" */

const KEY = "bidak.access";
/** @type {(keyof Access)[]} */
export const SWITCHES = ["motion", "contrast", "large", "shapes"];

/** Draw the page with `access` (null: all off). */
export function applyAccess(/** @type {Access | null | undefined} */ access) {
  for (const name of SWITCHES) document.documentElement.classList.toggle(`a11y-${name}`, Boolean(access?.[name]));
  try {
    localStorage.setItem(KEY, JSON.stringify(access || {}));
  } catch {
    // storage refused (a private window): the account still keeps them
  }
}

/** The settings this browser last knew, drawn at once (before /api/me answers). */
export function restoreAccess() {
  try {
    applyAccess(JSON.parse(localStorage.getItem(KEY) || "null"));
  } catch {
    applyAccess(null);
  }
}

/** No animation: the player's setting, or the system's (prefers-reduced-motion). */
export function reducedMotion() {
  return (
    document.documentElement.classList.contains("a11y-motion") ||
    Boolean(window.matchMedia?.("(prefers-reduced-motion: reduce)").matches)
  );
}

/**
 * The account's Accessibility card: one switch per setting, each kept at once.
 * @param {{ me: () => Me | null, setMe: (me: Me) => void }} context
 */
export function accessCard({ me, setMe }) {
  const who = me();
  /** @type {Record<string, HTMLInputElement>} */
  const boxes = {};
  let asked = 0; // the latest change sent: an older answer arriving later changes nothing
  const rows = SWITCHES.map((name) => {
    const box = h("input", {
      type: "checkbox",
      id: `access-${name}`,
      checked: Boolean(who?.access?.[name]),
      disabled: !who,
    });
    boxes[name] = box;
    box.addEventListener("change", () => {
      // Every switch as it stands on the page: a quick second change must not send the
      // account's state from before the first one's answer came.
      const on = (/** @type {keyof Access} */ each) => Boolean(boxes[each]?.checked);
      /** @type {Access} */
      const now = { motion: on("motion"), contrast: on("contrast"), large: on("large"), shapes: on("shapes") };
      const mine = ++asked;
      applyAccess(now);
      api.setAccess(now).then(
        (answer) => {
          setMe(answer);
          if (mine === asked) applyAccess(answer.access);
        },
        () => {
          if (mine !== asked) return;
          box.checked = !box.checked;
          applyAccess(me()?.access);
          toast(tx("access.failed"), "error");
        },
      );
    });
    return h(
      "div",
      { class: "access-switch" },
      h("label", { class: "check-row", for: `access-${name}` }, box, tx(`access.${name}`)),
      tx(`access.${name}.body`, null, "p", { class: "muted small", id: `access-${name}-body` }),
    );
  });
  return h(
    "section",
    { class: "card", id: "account-access" },
    h(
      "div",
      { class: "card-head" },
      h("span", { class: "card-icon icon-access", "aria-hidden": "true" }),
      tx("access.title", null, "h2"),
    ),
    tx("access.body", null, "p", { class: "muted small" }),
    ...rows,
  );
}
