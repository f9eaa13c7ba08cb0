// @ts-check
// The seats' clocks: the countdown of the decision that runs against the clock (the store's
// `deadline`, in the server's time), drawn into each seat's `.clock` four times a second.
// This timer is a real clock, not a poll: nothing arrives while the seconds run.
import { formatClock } from "./ui.js";

/** @import { TableView } from "./types.js" */

const TICK_MS = 250;

/** Draw the clocks under `root` from `v`. */
export function renderClocks(/** @type {HTMLElement} */ root, /** @type {TableView} */ v) {
  for (const node of root.querySelectorAll(".clock")) {
    if (!(node instanceof HTMLElement)) continue;
    const player = Number(node.dataset.seat);
    const d = v.deadline;
    if (d && d.player === player && v.table && v.table.phase !== "match_over") {
      const left = d.at - (Date.now() / 1000 + v.offset);
      node.textContent = formatClock(left);
      node.dataset.raw = "";
      node.classList.add("running");
      node.classList.toggle("low", left <= 10);
      const frac = Math.max(0, Math.min(1, left / (d.seconds || 60)));
      node.style.setProperty("--frac", frac.toFixed(3));
    } else {
      node.textContent = "";
      node.classList.remove("running", "low");
    }
  }
}

/** Keep the clocks under `root` running; returns the function that stops them. */
export function runClocks(/** @type {HTMLElement} */ root, /** @type {TableView} */ v) {
  const ticker = setInterval(() => renderClocks(root, v), TICK_MS);
  return () => clearInterval(ticker);
}
