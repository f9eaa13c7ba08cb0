// @ts-check
// Catalogs: every visible string comes from i18n/{id,en,fi}.json (same keys in each).
// A key missing from the active catalog renders as ⟦key⟧ and is recorded in `missing`,
// so tests (and translators) can detect it. The catalogs are modules of the page's module
// graph (the server serves each i18n/<code>.json also as i18n/<code>.js, `export default`):
// they arrive with the scripts, so the first view is drawn in the first paint (no fetch to
// wait for), a change of language is immediate, and no browser needs JSON import attributes.

import en from "../i18n/en.js";
import fi from "../i18n/fi.js";
import id from "../i18n/id.js";

export const LANGUAGES = [
  { code: "id", name: "Bahasa Indonesia" },
  { code: "en", name: "English" },
  { code: "fi", name: "Suomi" },
];
const STORAGE_KEY = "bidak.lang";
/** @import { Params } from "./types.js" */
/** @type {Record<string, Record<string, string>>} */
const catalogs = { id, en, fi };
let current = "en";
/** @type {Set<(code: string) => void>} */
const listeners = new Set();
export const missing = new Set();

export function defaultLanguage() {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved && LANGUAGES.some((l) => l.code === saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base === "in" || base === "ms") return "id";
    if (LANGUAGES.some((l) => l.code === base)) return base;
  }
  return "en";
}

/** @param {string} code @param {boolean} [remember] */
export function setLanguage(code, remember = true) {
  if (!catalogs[code]) return;
  current = code;
  document.documentElement.lang = code;
  if (remember) localStorage.setItem(STORAGE_KEY, code);
  for (const fn of listeners) fn(code);
}

export function language() {
  return current;
}

/** Call `fn` at every change of language; returns the function that stops it. */
export function onLanguage(/** @type {(code: string) => void} */ fn) {
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
  };
}

/**
 * The text of `key` in the current language, with {name} placeholders filled in (and, for a
 * number `n`, the plural form `key.one` etc. where the catalog has it).
 * @param {string} key
 * @param {Params} [params]
 */
export function t(key, params = {}) {
  const catalog = catalogs[current] || {};
  // A count `n` picks the language's plural form when the catalog has one ("tour.players.one":
  // "1 player"); the key itself is every other form.
  const n = params.n;
  const form = typeof n === "number" ? `${key}.${new Intl.PluralRules(current).select(n)}` : "";
  const text = form && typeof catalog[form] === "string" ? catalog[form] : catalog[key];
  if (typeof text !== "string") {
    missing.add(`${current}:${key}`);
    return `⟦${key}⟧`;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Whether `key` exists (for optional texts such as event names). */
export function has(/** @type {string} */ key) {
  return typeof catalogs[current]?.[key] === "string";
}

window.__bidakI18n = { missing, catalogs, t, language: () => current };
