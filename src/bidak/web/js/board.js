// @ts-check
// The SVG board, drawn from the viewer's side (board-geometry.js), used by the table, the review
// and the rules examples: `render(state)` draws it (board-draw.js), a tap says its point
// (board-taps.js), `animateStep` slides one checker, `setTexture` lays the board theme's tile.

import { checker, drawBoard } from "./board-draw.js";
import { barAt, G, landing, trayAt } from "./board-geometry.js";
import { pick, tapAreas } from "./board-taps.js";
import { s } from "./dom.js";
import { BAR, OFF } from "./selection.js";

/** @import { At } from "./board-geometry.js" */
/** @import { Board, BoardState } from "./types.js" */

let boards = 0;
const TILE = 48; // a texture tile's side in board units (the tile is drawn 24 x 24), calm on a phone

/**
 * A board: `svg` to place, `render(state)` to draw, `animateStep` to move one checker and
 * `setTexture` for the board theme's. `onTarget(point)`: a tap on (or near) a point that can
 * be tapped now (a board without it takes no taps).
 * @param {{ onTarget?: (point: number) => void, label?: string }} [options]
 */
export function createBoard({ onTarget, label = "" } = {}) {
  /** @type {BoardState | null} */
  let state = null;
  /** @type {string | null} the board theme's texture: an SVG pattern over the playing surface */
  let texture = null;
  boards += 1;
  const patternId = `texture-${boards}`;
  const svg = s("svg", {
    viewBox: `0 0 ${G.W} ${G.H}`,
    class: "board",
    role: "img",
    "aria-label": label,
    preserveAspectRatio: "xMidYMid meet",
  });
  const defs = s(
    "defs",
    {},
    s(
      "marker",
      {
        id: "arrowhead",
        viewBox: "0 0 10 10",
        refX: 6,
        refY: 5,
        markerWidth: 4,
        markerHeight: 4,
        orient: "auto-start-reverse",
      },
      s("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead" }),
    ),
    s(
      "marker",
      {
        id: "arrowhead-last",
        viewBox: "0 0 10 10",
        refX: 6,
        refY: 5,
        markerWidth: 4,
        markerHeight: 4,
        orient: "auto-start-reverse",
      },
      s("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead-last" }),
    ),
    s(
      "filter",
      { id: "glow", x: "-50%", y: "-50%", width: "200%", height: "200%" },
      s("feGaussianBlur", { stdDeviation: 5, result: "b" }),
      s("feMerge", {}, s("feMergeNode", { in: "b" }), s("feMergeNode", { in: "SourceGraphic" })),
    ),
  );
  const layer = s("g", {});
  const floating = s("g", { class: "floating" });
  svg.append(defs, layer, floating);

  svg.addEventListener("click", (event) => {
    if (!state || !onTarget) return;
    const target = pick(svg, state, event);
    if (target !== null) onTarget(target);
  });

  /** Draw `next` (kept: an animation and a new texture draw it again). */
  function render(/** @type {BoardState} */ next) {
    state = next;
    const b = next.board;
    const parts = drawBoard(next, texture ? { id: patternId, name: texture } : null);
    if (onTarget) parts.push(...tapAreas());
    layer.replaceChildren(...parts);
    svg.dataset.movable = [...(next.movable || [])].join(",");
    svg.dataset.dests = next.dests ? [...next.dests.entries()].map(([p, st]) => `${p}:${st.length}`).join(",") : "";
    svg.dataset.selected = String(next.selected ?? "");
    svg.dataset.position = `${b.points.join(",")}|${b.bar.join(",")}|${b.off.join(",")}`;
  }

  /** Slide one checker from `a` to `z` (board coordinates), then a hit one to the bar. */
  /** @param {At} a @param {At} z @param {boolean} mine @param {number} ms @returns {Promise<void>} */
  function slide(a, z, mine, ms) {
    return new Promise((resolve) => {
      const piece = checker(a.x, a.y, mine, "moving");
      floating.append(piece);
      const started = performance.now();
      const frame = (/** @type {number} */ now) => {
        const u = Math.min(1, (now - started) / ms);
        const e = u < 0.5 ? 2 * u * u : 1 - (-2 * u + 2) ** 2 / 2;
        const lift = Math.sin(Math.PI * u) * 18;
        piece.setAttribute("transform", `translate(${a.x + (z.x - a.x) * e} ${a.y + (z.y - a.y) * e - lift})`);
        if (u < 1) requestAnimationFrame(frame);
        else {
          piece.remove();
          resolve();
        }
      };
      requestAnimationFrame(frame);
    });
  }

  /**
   * Animate one step: `before` is the board before it, `after` the board after it; `mine` whose
   * checker moves; start/end in the viewer's numbering. Resolves when the board shows `after`.
   * @param {Board} before
   * @param {Board} after
   * @param {{ start: number, end: number, mine: boolean, hit?: boolean }} step
   * @param {number} ms
   */
  async function animateStep(before, after, { start, end, mine, hit }, ms) {
    if (!ms) {
      render({ ...state, board: after });
      return;
    }
    const from = start === BAR ? barAt(mine, before.bar[mine ? 0 : 1] - 1) : landing(before, start, mine, false);
    const lifted = { points: [...before.points], bar: [...before.bar], off: [...before.off] };
    if (start === BAR) lifted.bar[mine ? 0 : 1] -= 1;
    else lifted.points[start - 1] -= mine ? 1 : -1;
    const to = end === OFF ? trayAt(mine, before.off[mine ? 0 : 1]) : landing(lifted, end, mine, true);
    render({ ...state, board: lifted, selected: null, dests: null, movable: null });
    svg.classList.add("animating");
    await slide(from, to, mine, ms);
    if (hit && end !== OFF) {
      const victim = { ...lifted, points: [...lifted.points] };
      victim.points[end - 1] = 0;
      const moved = { points: [...victim.points], bar: [...lifted.bar], off: [...lifted.off] };
      moved.points[end - 1] = mine ? 1 : -1;
      render({ ...state, board: moved, selected: null, dests: null, movable: null });
      await slide(to, barAt(!mine, lifted.bar[mine ? 1 : 0]), !mine, ms * 0.7);
    }
    svg.classList.remove("animating");
    render({ ...state, board: after });
  }

  /** Lay the texture `name` (a tile at /api/shop/textures/{name}.svg) over the surface, or none. */
  function setTexture(/** @type {string | null} */ name) {
    const next = name || null;
    if (next === texture) return;
    texture = next;
    const old = defs.querySelector(`#${patternId}`);
    if (old) old.remove();
    if (texture) {
      defs.append(
        s(
          "pattern",
          { id: patternId, width: TILE, height: TILE, patternUnits: "userSpaceOnUse", x: G.xL, y: G.top },
          s("image", {
            href: `/api/shop/textures/${encodeURIComponent(texture)}.svg`,
            width: TILE,
            height: TILE,
            preserveAspectRatio: "none",
          }),
        ),
      );
    }
    if (state) render(state);
  }

  return {
    svg,
    render,
    animateStep,
    setTexture,
    get state() {
      return state;
    },
  };
}
