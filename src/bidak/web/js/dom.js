// A tiny element builder. Text from catalogs goes through `tx` (marks data-i18n); any other
// visible text (names, numbers, notation) through `raw` (marks data-raw) so tests can tell
// a translated string from data.
import { t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2).toLowerCase(), value);
    } else {
      el.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") el.className = value;
    else if (name === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2).toLowerCase(), value);
    } else if (name in el && typeof value !== "string") el[name] = value;
    else el.setAttribute(name, value === true ? "" : String(value));
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** A span holding the catalog text of `key`. */
export function tx(key, params, tag = "span", attrs = {}) {
  return h(tag, { ...attrs, "data-i18n": key }, t(key, params));
}

/** A span holding data that is not translated (a name, a number, a move). */
export function raw(text, tag = "span", attrs = {}) {
  return h(tag, { ...attrs, "data-raw": "" }, text);
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export function button(key, onclick, attrs = {}) {
  const { params, ...rest } = attrs;
  return h("button", { type: "button", ...rest, onclick, "data-i18n": key }, t(key, params));
}
