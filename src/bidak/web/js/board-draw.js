// @ts-check
// Drawing the board: the SVG elements of one state (frame, points, checkers, bar, trays, the
// points a picked checker can reach, dice, cube and arrows), in board-geometry.js's places. Only
// builds elements; board.js puts them in its SVG.

import { barAt, checkerAt, G, landing, pointX, trayAt } from "./board-geometry.js";
import { s } from "./dom.js";
import { BAR, OFF } from "./selection.js";

/** @import { Arrow, Board, BoardState } from "./types.js" */

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
export function checker(x, y, mine, extra = "") {
  return s(
    "g",
    { class: `checker ${mine ? "ck-me" : "ck-them"} ${extra}`, transform: `translate(${x} ${y})` },
    s("circle", { r: G.R - 1, class: "ck-body" }),
    s("circle", { r: G.R - 9, class: "ck-ring" }),
  );
}

/**
 * The elements of `next`, bottom first; `texture`: the id of the board theme's pattern to lay
 * over the surface (and its name), or null.
 * @param {BoardState} next
 * @param {{ id: string, name: string } | null} texture
 * @returns {SVGElement[]}
 */
export function drawBoard(next, texture) {
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
          fill: `url(#${texture.id})`,
          "data-texture": texture.name,
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
  return parts;
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
