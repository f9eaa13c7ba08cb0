// @ts-check
// Reading standard move notation ("24/18*/13", "8/5(2)", "bar/22", "6/off") into steps, only to
// draw arrows for a play the server or the review named. Points are the mover's numbering.

function point(/** @type {string} */ text) {
  const clean = text.replace("*", "").toLowerCase();
  if (clean === "bar") return 25;
  if (clean === "off") return 0;
  const n = Number(clean);
  return Number.isInteger(n) && n >= 0 && n <= 25 ? n : null;
}

/** The steps `[start, end]` of a play's notation (unknown tokens are left out). */
export function stepsOf(/** @type {string | null | undefined} */ notation) {
  /** @type {number[][]} */
  const steps = [];
  for (const token of String(notation || "")
    .trim()
    .split(/\s+/)) {
    if (!token) continue;
    const m = /^(.*?)(?:\((\d)\))?$/.exec(token);
    if (!m) continue;
    const found = m[1].split("/").map(point);
    const hops = found.filter((p) => p !== null);
    if (hops.length < 2 || hops.length < found.length) continue;
    const times = m[2] ? Number(m[2]) : 1;
    for (let k = 0; k < times; k += 1) {
      for (let i = 0; i + 1 < hops.length; i += 1) steps.push([hops[i], hops[i + 1]]);
    }
  }
  return steps;
}
