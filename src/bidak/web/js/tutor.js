// @ts-check
// Tutor mode at a practice table (off by default; the switch is remembered in localStorage as
// `bidak.tutor`): before a play or a double is sent, the server says what it gives up; past its
// threshold the table asks whether to reconsider or send anyway. A busy or refused question sends.
import { api } from "./api.js";
import { tx } from "./dom.js";
import { dialog } from "./ui.js";

const KEY = "bidak.tutor";

export function tutorOn() {
  return localStorage.getItem(KEY) === "1";
}

export function setTutor(/** @type {boolean} */ on) {
  localStorage.setItem(KEY, on ? "1" : "0");
}

/**
 * Ask the tutor about a play (`{ steps }`) or a cube decision (`{ cube: "double" }`,
 * `"no_double"` before a roll that could have been a double, `"take"`, `"drop"`), then
 * `send()` at once (no warning) or after "send anyway".
 * @param {string} code the room
 * @param {{ steps: number[][] } | { cube: string }} question
 * @param {() => void} send
 * @param {() => void} [reconsider] what "reconsider" does besides closing the warning (the
 *   take dialog opens again)
 */
export async function askTutor(code, question, send, reconsider) {
  let advice;
  try {
    advice = await api.tutor(code, question);
  } catch {
    send();
    return;
  }
  if (!advice.warn) {
    send();
    return;
  }
  const cube = "cube" in question;
  dialog({
    id: "tutor-dialog",
    title: "tutor.title",
    body: () =>
      tx(cube ? "tutor.body_cube" : "tutor.body", { loss: advice.loss.toFixed(3) }, "p", { id: "tutor-loss" }),
    actions: [
      { key: "tutor.reconsider", kind: "primary", id: "tutor-reconsider", onclick: reconsider },
      { key: "tutor.send", id: "tutor-send", onclick: send },
    ],
  });
}

/**
 * At a practice table with the tutor on, and when `ask`, ask it about `question` before
 * `send` (askTutor); otherwise `send` at once. Every tutored button of the table comes here.
 * @param {{ kind: string | null, code: string }} table
 * @param {boolean} ask
 * @param {{ steps: number[][] } | { cube: string }} question
 * @param {() => void} send
 * @param {() => void} [reconsider]
 */
export function tutorFirst(table, ask, question, send, reconsider) {
  if (table.kind === "practice" && ask && tutorOn()) askTutor(table.code, question, send, reconsider);
  else send();
}
