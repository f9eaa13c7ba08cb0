// @ts-check
// A tiny element builder. Text from catalogs goes through `tx` (marks data-i18n); any other
// visible text (names, numbers, notation) through `raw` (marks data-raw) so tests can tell
// a translated string from data.
import { t } from "./i18n.js";

/** @import { Child, Params } from "./types.js" */

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Attributes: `class`, `dataset`, `style` (an object), `on...` listeners, properties the
 * element has (`value`, `disabled`, `tabIndex`...) and any other attribute as text; null,
 * undefined and false leave the attribute out.
 * @typedef {Record<string, unknown>} Attrs
 */

/**
 * An HTML element.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {Child[]} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, ...children);
  return el;
}

/**
 * An SVG element.
 * @param {string} tag
 * @param {Attrs} [attrs]
 * @param {Child[]} children
 * @returns {SVGElement}
 */
export function s(tag, attrs = {}, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2).toLowerCase(), /** @type {EventListener} */ (value));
    } else {
      el.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(el, ...children);
  return el;
}

/** @param {HTMLElement} el @param {Attrs | null} attrs */
function setAttrs(el, attrs) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") el.className = String(value);
    else if (name === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2).toLowerCase(), /** @type {EventListener} */ (value));
    } else if (name in el && typeof value !== "string")
      /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (el))[name] = value;
    else el.setAttribute(name, value === true ? "" : String(value));
  }
}

/** Append `children` to `el` (nested lists flattened; null, undefined and false left out). */
export function append(/** @type {Element} */ el, /** @type {Child[]} */ ...children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, ...child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * An element (a span unless `tag` says otherwise) holding the catalog text of `key`.
 * @template {keyof HTMLElementTagNameMap} [K="span"]
 * @param {string} key
 * @param {Params | null} [params]
 * @param {K} [tag]
 * @param {Attrs} [attrs]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function tx(key, params, tag = /** @type {K} */ ("span"), attrs = {}) {
  return h(tag, { ...attrs, "data-i18n": key }, t(key, params || {}));
}

/**
 * An element (a span unless `tag` says otherwise) holding data that is not translated (a
 * name, a number, a move).
 * @template {keyof HTMLElementTagNameMap} [K="span"]
 * @param {string} text
 * @param {K} [tag]
 * @param {Attrs} [attrs]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function raw(text, tag = /** @type {K} */ ("span"), attrs = {}) {
  return h(tag, { ...attrs, "data-raw": "" }, text);
}

/**
 * `el` emptied.
 * @template {Element} E
 * @param {E} el
 * @returns {E}
 */
export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/**
 * A button labelled with the catalog text of `key` (`attrs.params` fills it in).
 * @param {string} key
 * @param {(event: MouseEvent) => void} onclick
 * @param {Attrs & { params?: Params | null }} [attrs]
 */
export function button(key, onclick, attrs = {}) {
  const { params, ...rest } = attrs;
  return h("button", { type: "button", ...rest, onclick, "data-i18n": key }, t(key, params || {}));
}
