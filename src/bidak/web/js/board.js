// @ts-check
// The SVG board, drawn from the viewer's side: their home board bottom right (points 1-6),
// the opponent's home board top right (their 1-6 = the viewer's 19-24), bar in the middle,
// trays on the right. Used by the table, the review and the rules examples.
// Over 400 lines since Biome formats the element builders one argument a line (about 340 before);
// it is one drawing, of one SVG, and reads top to bottom.
import { s } from "./dom.js";
import { BAR, OFF } from "./selection.js";

/** @import { Arrow, Board, BoardState } from "./types.js" */
/** @typedef {{ x: number, y: number }} At a place on the board, in its own units */

export const G = (() => {
  const F = 14,
    FT = 36,
    PW = 66,
    BARW = 64,
    TRAY = 84,
    R = 30;
  const xL = F,
    xBar = xL + 6 * PW,
    xR = xBar + BARW,
    xEnd = xR + 6 * PW;
  const xTray = xEnd + F,
    W = xTray + TRAY + F;
  const top = FT,
    H = 728,
    bottom = H - FT,
    mid = H / 2;
  return {
    F,
    FT,
    PW,
    BARW,
    TRAY,
    R,
    xL,
    xBar,
    xR,
    xEnd,
    xTray,
    W,
    top,
    H,
    bottom,
    mid,
    barX: xBar + BARW / 2,
    trayX: xTray + TRAY / 2,
    half: (bottom - top) / 2,
    tri: 278,
    slab: 12,
  };
})();

/** Column centre and whether the point is on the bottom row (viewer's numbering). */
export function pointX(/** @type {number} */ p) {
  if (p <= 6) return { x: G.xR + (6 - p) * G.PW + G.PW / 2, low: true };
  if (p <= 12) return { x: G.xL + (12 - p) * G.PW + G.PW / 2, low: true };
  if (p <= 18) return { x: G.xL + (p - 13) * G.PW + G.PW / 2, low: false };
  return { x: G.xR + (p - 19) * G.PW + G.PW / 2, low: false };
}

function spacing(/** @type {number} */ count) {
  const room = G.half - 8 - 2 * G.R;
  return count <= 5 ? 2 * G.R : Math.min(2 * G.R, room / (count - 1));
}

/** Centre of the k-th checker (0 = at the edge) of a stack of `count` on point p. */
/** @param {number} p @param {number} k @param {number} [count] @returns {At} */
export function checkerAt(p, k, count = k + 1) {
  const { x, low } = pointX(p);
  const d = spacing(Math.max(count, k + 1));
  return { x, y: low ? G.bottom - G.R - k * d : G.top + G.R + k * d };
}

/** Centre of the k-th checker on the bar, `mine` below the middle, the opponent's above. */
/** @param {boolean} mine @param {number} k @returns {At} */
export function barAt(mine, k) {
  const d = 2 * G.R - 4;
  return { x: G.barX, y: mine ? G.mid + 44 + G.R + k * d : G.mid - 44 - G.R - k * d };
}

/** @param {boolean} mine @param {number} k @returns {At} */
export function trayAt(mine, k) {
  const y = mine ? G.bottom - 10 - (k + 1) * G.slab : G.top + 10 + k * G.slab;
  return { x: G.trayX, y: y + G.slab / 2 };
}

/** Where a checker of `mine` sits or lands at `point` (25 bar, 0 off) given the board. */
/** @param {Board} board @param {number} point @param {boolean} mine @returns {At} */
export function landing(board, point, mine, arriving = true) {
  if (point === BAR) return barAt(mine, Math.max(0, board.bar[mine ? 0 : 1] - (arriving ? 0 : 1)));
  if (point === OFF) return trayAt(mine, Math.max(0, board.off[mine ? 0 : 1] - (arriving ? 0 : 1)));
  const n = Math.abs(board.points[point - 1]);
  const own = mine ? board.points[point - 1] > 0 : board.points[point - 1] < 0;
  const k = arriving ? (own ? n : 0) : Math.max(0, n - 1);
  return checkerAt(point, k, arriving ? k + 1 : n);
}

/** @type {Record<number, number[][]>} */
const PIPS = {
  1: [[0, 0]],
  2: [
    [-1, -1],
    [1, 1],
  ],
  3: [
    [-1, -1],
    [0, 0],
    [1, 1],
  ],
  4: [
    [-1, -1],
    [1, -1],
    [-1, 1],
    [1, 1],
  ],
  5: [
    [-1, -1],
    [1, -1],
    [0, 0],
    [-1, 1],
    [1, 1],
  ],
  6: [
    [-1, -1],
    [1, -1],
    [-1, 0],
    [1, 0],
    [-1, 1],
    [1, 1],
  ],
};

/** @param {number} x @param {number} y @param {number} face @param {string} cls */
function die(x, y, face, cls) {
  const size = 52;
  return s(
    "g",
    { class: `die ${cls}`, transform: `translate(${x} ${y})`, "data-face": face },
    s("rect", { x: -size / 2, y: -size / 2, width: size, height: size, rx: 10, class: "die-body" }),
    ...PIPS[face].map(([dx, dy]) => s("circle", { cx: dx * 13, cy: dy * 13, r: 5.4, class: "pip" })),
  );
}

/** @param {number} x @param {number} y @param {boolean} mine */
function checker(x, y, mine, extra = "") {
  return s(
    "g",
    { class: `checker ${mine ? "ck-me" : "ck-them"} ${extra}`, transform: `translate(${x} ${y})` },
    s("circle", { r: G.R - 1, class: "ck-body" }),
    s("circle", { r: G.R - 9, class: "ck-ring" }),
  );
}

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
    const target = pick(state, event);
    if (target !== null) onTarget(target);
  });

  /** @param {MouseEvent} event @returns {At} */
  function toLocal(event) {
    const box = svg.getBoundingClientRect();
    const scale = Math.min(box.width / G.W, box.height / G.H);
    const ox = (box.width - G.W * scale) / 2,
      oy = (box.height - G.H * scale) / 2;
    return { x: (event.clientX - box.left - ox) / scale, y: (event.clientY - box.top - oy) / scale };
  }

  /**
   * The point under a tap; near misses snap to the closest point that can be tapped now.
   * @param {BoardState} state
   * @param {MouseEvent} event
   */
  function pick(state, event) {
    const target = /** @type {Element | null} */ (event.target);
    const hit = target?.closest?.("[data-point]");
    const direct = hit ? Number(hit.getAttribute("data-point")) : null;
    const candidates =
      state.selected !== null && state.selected !== undefined
        ? [...(state.dests ? state.dests.keys() : []), state.selected]
        : [...(state.movable || [])];
    if (direct !== null && (candidates.includes(direct) || candidates.length === 0)) return direct;
    if (!candidates.length) return direct;
    const at = toLocal(event);
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

  /** Draw `next` (kept: an animation and a new texture draw it again). */
  function render(/** @type {BoardState} */ next) {
    state = next;
    const b = next.board;
    const parts = [];
    // Frame, playing surface, trays.
    parts.push(s("rect", { x: 0, y: 0, width: G.W, height: G.H, rx: 18, class: "frame" }));
    parts.push(s("rect", { x: G.xL, y: G.top, width: 6 * G.PW, height: G.bottom - G.top, class: "surface" }));
    parts.push(s("rect", { x: G.xR, y: G.top, width: 6 * G.PW, height: G.bottom - G.top, class: "surface" }));
    if (texture) {
      for (const x of [G.xL, G.xR]) {
        parts.push(
          s("rect", {
            x,
            y: G.top,
            width: 6 * G.PW,
            height: G.bottom - G.top,
            class: "texture",
            fill: `url(#${patternId})`,
            "data-texture": texture,
          }),
        );
      }
    }
    parts.push(s("rect", { x: G.xBar, y: G.top - 6, width: G.BARW, height: G.bottom - G.top + 12, class: "bar" }));
    if (next.trays !== false) {
      parts.push(s("rect", { x: G.xTray, y: G.top, width: G.TRAY, height: G.half - 6, rx: 6, class: "tray" }));
      parts.push(s("rect", { x: G.xTray, y: G.mid + 6, width: G.TRAY, height: G.half - 6, rx: 6, class: "tray" }));
    }
    // Points.
    for (let p = 1; p <= 24; p += 1) {
      const { x, low } = pointX(p);
      const base = low ? G.bottom : G.top;
      const tip = low ? G.bottom - G.tri : G.top + G.tri;
      const dark = p % 2 === 0;
      const isDest = next.dests?.has(p);
      parts.push(
        s("path", {
          d: `M${x - G.PW / 2 + 2},${base} L${x + G.PW / 2 - 2},${base} L${x},${tip} Z`,
          class: `point ${dark ? "pt-a" : "pt-b"}${isDest ? " pt-dest" : ""}`,
        }),
      );
      if (next.labels !== false) {
        parts.push(
          s(
            "text",
            {
              x,
              y: low ? G.H - 12 : 25,
              class: `label${isDest ? " label-dest" : ""}`,
              "text-anchor": "middle",
            },
            String(p),
          ),
        );
      }
    }
    // Checkers on points.
    for (let p = 1; p <= 24; p += 1) {
      const n = b.points[p - 1];
      const count = Math.abs(n);
      const mine = n > 0;
      const movable = next.movable?.has(p) && mine;
      const selected = next.selected === p;
      for (let k = 0; k < count; k += 1) {
        const top = k === count - 1;
        const { x, y } = checkerAt(p, k, count);
        const cls = top && selected ? "selected" : top && movable ? "movable" : "";
        parts.push(checker(x, y, mine, cls));
      }
      if (count > 5) {
        const { x, y } = checkerAt(p, count - 1, count);
        parts.push(
          s(
            "text",
            { x, y: y + 8, class: `stack-count ${mine ? "on-me" : "on-them"}`, "text-anchor": "middle" },
            String(count),
          ),
        );
      }
    }
    // Bar.
    for (const mine of [true, false]) {
      const count = b.bar[mine ? 0 : 1];
      for (let k = 0; k < count; k += 1) {
        const { x, y } = barAt(mine, Math.min(k, 3));
        const top = k === count - 1;
        const cls = mine && top ? (next.selected === BAR ? "selected" : next.movable?.has(BAR) ? "movable" : "") : "";
        parts.push(checker(x, y, mine, cls));
      }
      if (count > 1) {
        const { x, y } = barAt(mine, Math.min(count - 1, 3));
        parts.push(
          s(
            "text",
            { x, y: y + 8, class: `stack-count ${mine ? "on-me" : "on-them"}`, "text-anchor": "middle" },
            String(count),
          ),
        );
      }
    }
    // Trays.
    if (next.trays !== false) {
      for (const mine of [true, false]) {
        const count = b.off[mine ? 0 : 1];
        for (let k = 0; k < count; k += 1) {
          const { y } = trayAt(mine, k);
          parts.push(
            s("rect", {
              x: G.xTray + 10,
              y: y - G.slab / 2 + 1,
              width: G.TRAY - 20,
              height: G.slab - 2,
              rx: 3,
              class: `slab ${mine ? "ck-me" : "ck-them"}`,
            }),
          );
        }
        if (count > 0) {
          const { y } = trayAt(mine, count - 1);
          parts.push(
            s(
              "text",
              {
                x: G.trayX,
                y: mine ? y - 14 : y + 30,
                class: "tray-count",
                "text-anchor": "middle",
                "data-off": mine ? "me" : "them",
              },
              String(count),
            ),
          );
        }
      }
    }
    // Destination markers.
    if (next.dests) {
      for (const [p, steps] of next.dests) {
        let at;
        if (p === OFF) at = { x: G.trayX, y: G.mid + G.half / 2 };
        else at = landing(b, p, true, true);
        parts.push(
          s("circle", { cx: at.x, cy: at.y, r: G.R - 4, class: `dest${steps.length > 1 ? " dest-combined" : ""}` }),
        );
        if (p === OFF)
          parts.push(
            s("rect", {
              x: G.xTray + 2,
              y: G.mid + 8,
              width: G.TRAY - 4,
              height: G.half - 10,
              rx: 6,
              class: "tray-dest",
            }),
          );
      }
    }
    // Dice.
    if (next.dice?.faces.length) {
      const mine = next.dice.side === "me";
      const cx = mine ? G.xR + 3 * G.PW : G.xL + 3 * G.PW;
      const faces = next.dice.faces;
      const gap = 64;
      const start = cx - ((faces.length - 1) * gap) / 2;
      faces.forEach((f, i) => {
        parts.push(die(start + i * gap, G.mid, f.face, `${mine ? "die-me" : "die-them"}${f.used ? " used" : ""}`));
      });
    }
    // Cube.
    if (next.cube) {
      const { value, where, offered } = next.cube;
      const y = where === "me" ? G.mid + 96 : where === "them" ? G.mid - 96 : G.mid;
      parts.push(
        s(
          "g",
          { class: `cube cube-${where}`, transform: `translate(${G.trayX} ${y})` },
          s("rect", { x: -27, y: -27, width: 54, height: 54, rx: 8, class: "cube-body" }),
          s("text", { y: 9, "text-anchor": "middle", class: "cube-text" }, String(where === "center" ? 64 : value)),
        ),
      );
      if (offered) {
        parts.push(
          s(
            "g",
            { class: "cube offered", transform: `translate(${G.barX} ${G.mid})` },
            s("rect", { x: -30, y: -30, width: 60, height: 60, rx: 9, class: "cube-body" }),
            s("text", { y: 10, "text-anchor": "middle", class: "cube-text" }, String(offered)),
          ),
        );
      }
    }
    // Arrows (hint, last move).
    for (const arrow of next.arrows || []) parts.push(arrowPath(b, arrow));
    // Tap areas.
    if (onTarget) {
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
    }
    layer.replaceChildren(...parts);
    svg.dataset.movable = [...(next.movable || [])].join(",");
    svg.dataset.dests = next.dests ? [...next.dests.entries()].map(([p, st]) => `${p}:${st.length}`).join(",") : "";
    svg.dataset.selected = String(next.selected ?? "");
    svg.dataset.position = `${b.points.join(",")}|${b.bar.join(",")}|${b.off.join(",")}`;
  }

  /** An arrow for a step; `after`: the board already shows the step made (the last move). */
  function arrowPath(
    /** @type {Board} */ b,
    /** @type {Arrow} */ { from, to, kind = "hint", mine = true, after = false },
  ) {
    const a = from === BAR ? barAt(mine, 0) : from === OFF ? trayAt(mine, 0) : landing(b, from, mine, after);
    const z =
      to === OFF
        ? { x: G.trayX, y: mine ? G.mid + G.half / 2 : G.mid - G.half / 2 }
        : to === BAR
          ? barAt(mine, 0)
          : landing(b, to, mine, !after);
    const mx = (a.x + z.x) / 2,
      my = (a.y + z.y) / 2;
    const bend = Math.abs(a.y - z.y) < 40 ? (a.y > G.mid ? -70 : 70) : 0;
    return s("path", {
      d: `M${a.x},${a.y} Q${mx},${my + bend} ${z.x},${z.y}`,
      class: `arrow arrow-${kind}`,
      "marker-end": `url(#${kind === "last" ? "arrowhead-last" : "arrowhead"})`,
    });
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
