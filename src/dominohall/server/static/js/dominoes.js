// SVG dominoes. domino(a, b, {vertical}) returns an <svg> element.  Each half shows its
// value as pips (the pattern itself tells the number, so colour is never the only cue)
// or, with setFace("numerals"), as a large numeral: 10-12 pip halves are hard to count.
// Sizes come from CSS (the --u custom property: the side of one half), so the tile-size
// setting and the board's fit only change a variable.
const NS = "http://www.w3.org/2000/svg";
// Pip colours by value, as on a coloured Mexican Train set.
const COLOURS = ["#000", "#1a6f9c", "#1f7a36", "#c0302a", "#7a4f24", "#1d3f9e", "#8a7000",
  "#6b3590", "#0f6b4f", "#8f1f2f", "#222", "#176f6f", "#555", "#a03c6c", "#3d7a1f",
  "#a8531a", "#4a4a9e", "#6a6a1a", "#2f2f2f"];

const G = [0.25, 0.5, 0.75];
const SPOTS = {
  0: [], 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
  7: [[0, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [2, 2]],
  8: [[0, 0], [1, 0], [2, 0], [0, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
  9: [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
};

let FACE = "pips";

/** "pips" or "numerals": how tiles drawn from now on show their values. */
export function setFace(face) { FACE = face === "numerals" ? "numerals" : "pips"; }
export function face() { return FACE; }

/** Pip centres (fractions of a square half) and radius for a value 0..18. */
export function pips(n) {
  if (n <= 9) return { r: 0.085, at: SPOTS[n].map(([x, y]) => [G[x], G[y]]) };
  const cols = 3, rows = Math.ceil(n / 3);
  const at = [];
  for (let row = 0; row < rows; row++) {
    const inRow = Math.min(cols, n - row * cols);
    const y = (row + 1) / (rows + 1);
    for (let c = 0; c < inRow; c++) {
      const x = (c + 1 + (cols - inRow) / 2) / (cols + 1);
      at.push([x, y]);
    }
  }
  return { r: rows > 4 ? 0.05 : 0.065, at };
}

function half(svg, n, ox, oy, u) {
  if (FACE === "numerals") {
    const t = document.createElementNS(NS, "text");
    t.setAttribute("x", (ox + u / 2).toFixed(1));
    t.setAttribute("y", (oy + u / 2).toFixed(1));
    t.setAttribute("class", "num");
    t.setAttribute("fill", COLOURS[n % COLOURS.length]);
    t.setAttribute("font-size", n >= 10 ? "22" : "26");
    t.setAttribute("text-anchor", "middle");
    t.setAttribute("dominant-baseline", "central");
    t.textContent = String(n);
    svg.appendChild(t);
    return;
  }
  const { r, at } = pips(n);
  for (const [x, y] of at) {
    const c = document.createElementNS(NS, "circle");
    c.setAttribute("cx", (ox + x * u).toFixed(1));
    c.setAttribute("cy", (oy + y * u).toFixed(1));
    c.setAttribute("r", (r * u).toFixed(1));
    c.setAttribute("fill", COLOURS[n % COLOURS.length]);
    svg.appendChild(c);
  }
}

/** An <svg> domino showing a | b (a on the left, or on top when vertical). */
export function domino(a, b, { vertical = false, cls = "", title = "" } = {}) {
  const u = 40;
  const w = vertical ? u : 2 * u, h = vertical ? 2 * u : u;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("class", `domino ${vertical ? "v" : "h"} ${a === b ? "double" : ""} ${cls}`.replace(/\s+/g, " ").trim());
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", title || `${a}-${b}`);
  svg.dataset.tile = `${Math.max(a, b)}-${Math.min(a, b)}`;
  svg.dataset.face = FACE;
  const body = document.createElementNS(NS, "rect");
  Object.entries({ x: 1, y: 1, width: w - 2, height: h - 2, rx: 5, class: "face" })
    .forEach(([k, v]) => body.setAttribute(k, v));
  svg.appendChild(body);
  const line = document.createElementNS(NS, "line");
  const [x1, y1, x2, y2] = vertical ? [5, u, u - 5, u] : [u, 5, u, u - 5];
  Object.entries({ x1, y1, x2, y2, class: "bar" }).forEach(([k, v]) => line.setAttribute(k, v));
  svg.appendChild(line);
  half(svg, a, 0, 0, u);
  if (vertical) half(svg, b, 0, u, u); else half(svg, b, u, 0, u);
  return svg;
}

/** "12-5" -> [12, 5] */
export function halves(text) {
  const [a, b] = text.split("-").map(Number);
  return [a, b];
}

/** A tile as held: high half on top. */
export function handTile(text, opts = {}) {
  const [a, b] = halves(text);
  return domino(a, b, { vertical: true, title: text, ...opts });
}

/**
 * Orient a chain of tiles whose outermost open value is `openEnd`:
 * returns [[inner, outer], ...] in chain order (centre outwards).
 */
export function orient(tiles, openEnd) {
  const out = new Array(tiles.length);
  let cur = openEnd;
  for (let i = tiles.length - 1; i >= 0; i--) {
    const [a, b] = halves(tiles[i]);
    if (b === cur) { out[i] = [a, b]; cur = a; } else { out[i] = [b, a]; cur = b; }
  }
  return out;
}
