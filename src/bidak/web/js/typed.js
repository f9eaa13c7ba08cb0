// @ts-check
// A play typed in standard notation ("8/5 6/5", "bar/22", "6/off(2)", "13/7*/5"), read the way
// the engine reads it (bidak.rules.notation: `parse_hops`, then `resolve`) and matched against
// the legal plays the server sent with the table: nothing here decides legality. A text that
// does not name one of them gives the error a player can act on, as a catalog key and params.
import { button, clear, h, raw, tx } from "./dom.js";
import { t } from "./i18n.js";
import { BAR, OFF } from "./selection.js";

/** @import { Board, LegalPlay, Step } from "./types.js" */

/** @typedef {{ stops: number[], hits: boolean[] }} Hop one checker's path as written */
/** @typedef {{ play: LegalPlay } | { error: string, params?: Record<string, string | number> }} Reading */

const TOKEN = /^([0-9a-z/*]+?)(?:\((\d)\))?$/;

/** A stop's point (25 the bar, 0 off), or null. */
function point(/** @type {string} */ text) {
  if (text === "bar") return BAR;
  if (text === "off") return OFF;
  return /^\d+$/.test(text) && Number(text) <= 25 ? Number(text) : null;
}

/**
 * The hops of `text`, or the error of its first bad token (the rules of `parse_hops`).
 * @param {string} text
 * @returns {{ hops: Hop[] } | { error: string, params: Record<string, string> }}
 */
export function parseHops(text) {
  /** @type {Hop[]} */
  const hops = [];
  for (const token of text.toLowerCase().replace(/,/g, " ").split(/\s+/).filter(Boolean)) {
    const fail = (/** @type {string} */ error) => ({ error, params: { token } });
    const m = TOKEN.exec(token);
    if (!m) return fail("typed.unreadable");
    const parts = m[1].split("/");
    if (parts.length < 2 || parts.some((part) => !part.replace(/\*+$/, ""))) return fail("typed.needs_end");
    const stops = parts.map((part) => point(part.replace(/\*+$/, "")));
    if (stops.some((stop) => stop === null)) return fail("typed.point");
    const sure = /** @type {number[]} */ (stops);
    const hits = parts.map((part) => part.endsWith("*"));
    if (hits[0]) return fail("typed.hit_start");
    if (sure.some((stop, i) => i > 0 && sure[i - 1] <= stop)) return fail("typed.direction");
    if (sure[0] === OFF || sure.slice(1).includes(BAR)) return fail("typed.bar_off");
    const count = Number(m[2] || 1);
    if (count < 1 || count > 4) return fail("typed.count");
    for (let k = 0; k < count; k += 1) hops.push({ stops: sure, hits });
  }
  return { hops };
}

/** The mover's side of a board: checkers on points 1-24, then the bar. */
function side(/** @type {Board} */ b) {
  return [...b.points.map((n) => Math.max(n, 0)), b.bar[0]];
}

/** `side` after `steps` (each `[start, end]`). */
function after(/** @type {number[]} */ mine, /** @type {Step[]} */ steps) {
  const next = [...mine];
  for (const [start, end] of steps) {
    next[start === BAR ? 24 : start - 1] -= 1;
    if (end !== OFF) next[end - 1] += 1;
  }
  return next.join(",");
}

/**
 * The legal play `text` names on `board` with `dice`, or why none is.
 * @param {string} text
 * @param {Board} board the mover's board, before the play
 * @param {LegalPlay[]} legal the server's legal plays of the roll
 * @param {number[]} dice
 * @returns {Reading}
 */
export function readPlay(text, board, legal, dice) {
  if (!text.trim()) return { error: "typed.empty" };
  const parsed = parseHops(text);
  if ("error" in parsed) return parsed;
  const mine = side(board);
  const wanted = [...mine];
  /** @type {Set<number>} */
  const stated = new Set();
  for (const hop of [...parsed.hops].sort((a, b) => b.stops[0] - a.stops[0])) {
    const start = hop.stops[0];
    const end = hop.stops[hop.stops.length - 1];
    const slot = start === BAR ? 24 : start - 1;
    if (wanted[slot] <= 0) return { error: "typed.no_checker", params: { point: start === BAR ? "bar" : start } };
    wanted[slot] -= 1;
    if (end !== OFF) wanted[end - 1] += 1;
    hop.stops.forEach((stop, i) => {
      if (hop.hits[i]) stated.add(stop);
    });
  }
  const key = wanted.join(",");
  const same = legal.filter((play) => after(mine, play.steps) === key);
  if (same.length === 1) return { play: same[0] };
  if (same.length > 1) {
    const exact = same.filter((play) => {
      const hits = new Set(play.steps.filter((step) => step[2]).map((step) => step[1]));
      return hits.size === stated.size && [...hits].every((p) => stated.has(p));
    });
    if (exact.length === 1) return { play: exact[0] };
    return { error: "typed.ambiguous", params: { plays: same.map((p) => p.notation).join(t("typed.or")) } };
  }
  const names = legal.slice(0, 8).map((p) => p.notation);
  return {
    error: "typed.illegal",
    params: { text: text.trim(), dice: dice.join("-"), plays: names.join(", ") + (legal.length > 8 ? " …" : "") },
  };
}

/**
 * The "Type a play" field: Enter reads the text with `read` (null: not the player's move now)
 * and gives the play to `onPlay`, or says why not under the field (`role="alert"`).
 * @param {string} value what the field holds at first
 * @param {(text: string) => Reading | null} read
 * @param {(play: LegalPlay) => void} onPlay
 */
export function typedField(value, read, onPlay) {
  const input = h("input", {
    id: "typed-input",
    autocomplete: "off",
    spellcheck: "false",
    autocapitalize: "off",
    placeholder: "8/5 6/5",
    "aria-describedby": "typed-error",
  });
  input.value = value;
  const error = h("p", { id: "typed-error", class: "typed-error", role: "alert" });
  const form = h(
    "form",
    { id: "typed-play", class: "typed-play" },
    tx("typed.label", null, "label", { for: "typed-input" }),
    h(
      "div",
      { class: "typed-row" },
      input,
      button("typed.send", () => {}, { class: "btn", type: "submit", id: "typed-send" }),
    ),
    error,
  );
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape") input.blur();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const found = read(input.value);
    if (!found) clear(error).append(tx("typed.not_now"));
    else if ("error" in found) clear(error).append(raw(t(found.error, found.params)));
    else {
      clear(error);
      input.value = "";
      onPlay(found.play);
    }
  });
  return { form, input, error, onPlay };
}
