// @ts-check
// Taps on the board: the rectangles that take them (a half column per point, the bar, the
// tray) and which point a tap means, a near miss snapping to the closest point that can be
// tapped now. board.js listens for the click and says the point.
import { G, pointX } from "./board-geometry.js";
import { s } from "./dom.js";
import { BAR, OFF } from "./selection.js";

/** @import { At } from "./board-geometry.js" */
/** @import { BoardState } from "./types.js" */

/** The tap areas, drawn last (on top): each point's half, the bar and the tray. */
export function tapAreas() {
  const parts = [];
  for (let p = 1; p <= 24; p += 1) {
    const { x, low } = pointX(p);
    parts.push(
      s("rect", {
        x: x - G.PW / 2,
        y: low ? G.mid : G.top,
        width: G.PW,
        height: G.half,
        class: "hit",
        "data-point": p,
      }),
    );
  }
  parts.push(s("rect", { x: G.xBar, y: G.mid, width: G.BARW, height: G.half, class: "hit", "data-point": BAR }));
  parts.push(s("rect", { x: G.xTray, y: G.mid, width: G.TRAY, height: G.half, class: "hit", "data-point": OFF }));
  return parts;
}

/** @param {SVGElement} svg @param {MouseEvent} event @returns {At} */
function toLocal(svg, event) {
  const box = svg.getBoundingClientRect();
  const scale = Math.min(box.width / G.W, box.height / G.H);
  const ox = (box.width - G.W * scale) / 2,
    oy = (box.height - G.H * scale) / 2;
  return { x: (event.clientX - box.left - ox) / scale, y: (event.clientY - box.top - oy) / scale };
}

/**
 * The point under a tap; near misses snap to the closest point that can be tapped now.
 * @param {SVGElement} svg
 * @param {BoardState} state
 * @param {MouseEvent} event
 */
export function pick(svg, state, event) {
  const target = /** @type {Element | null} */ (event.target);
  const hit = target?.closest?.("[data-point]");
  const direct = hit ? Number(hit.getAttribute("data-point")) : null;
  const candidates =
    state.selected !== null && state.selected !== undefined
      ? [...(state.dests ? state.dests.keys() : []), state.selected]
      : [...(state.movable || [])];
  if (direct !== null && (candidates.includes(direct) || candidates.length === 0)) return direct;
  if (!candidates.length) return direct;
  const at = toLocal(svg, event);
  let best = null,
    distance = Infinity;
  for (const p of candidates) {
    const c =
      p === BAR
        ? { x: G.barX, y: G.mid + G.half / 2 }
        : p === OFF
          ? { x: G.trayX, y: G.mid + G.half / 2 }
          : { x: pointX(p).x, y: pointX(p).low ? G.mid + G.half / 2 : G.mid - G.half / 2 };
    const sameHalf = c.y > G.mid === at.y > G.mid;
    const d = Math.abs(c.x - at.x) + (sameHalf ? 0 : 1000);
    if (d < distance) {
      best = p;
      distance = d;
    }
  }
  return distance <= G.PW * 1.25 ? best : direct;
}
