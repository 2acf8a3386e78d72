// The board, drawn from a view: one module for the table, the replay and the analysis.
//
//   import { mountBoard } from "./board.js";
//   mountBoard(container, view, { seat, nameOf, log });            // a picture of the position
//   mountBoard(container, view, { seat, nameOf, log, lit, selected, hinted, onTarget });  // play
//   mountBoard(container, view, { ..., last: {seat, tile, target}, ghost: {tile, target} });
//
// `view` is a Game.view (the table's websocket `state`) or a replay position (the same keys:
// `game`, `options`, and `engine`/`trains`/`owed` or `layout`).  Every text comes from
// words.js (the names the log and the hints use too).  The board's root is
// `div.board-view[data-game]`; the Mexican Train trains are `.train[data-target=t0|...|mx]`,
// a line game's open ends `.end[data-target=L|R|U|D|U2...]` (and `lead` before the first
// tile); each tile is an `svg.domino[data-tile]`.
//
// ctx (every field optional):
//   seat      the viewer's seat (their train is "your train"); null: a spectator
//   nameOf    seat -> display name (default "Player N", 1-based)
//   log       the events of the hand so far (the last move and every_double's spinners)
//   last      the move to outline ({seat, tile, target}); default: the hand's last play in log
//   lit       a Set of target ids that take the selected tile now (drawn lit)
//   selected  the tile being played (the lit targets' labels name it)
//   hinted    the target id the hint chose
//   ghost     {tile, target, label}: a tile drawn translucent on a target (a better move)
//   onTarget  (id) => ...: targets become buttons (keyboard: ctx.onTargetKey(ev, id))
//   fit       fit a line game's layout to the container's room (default true; the table's
//             board also fits its height on a wide screen: fitHeight)
import { el } from "./api.js";
import { domino, halves, orient } from "./dominoes.js";
import { t, tn } from "./i18n.js";
import { listAnd, targetName, whoName } from "./words.js";

/** The last play of the hand in progress in `log` ({seat, tile, target}) or null. */
export function lastPlay(log) {
  for (let i = (log || []).length - 1; i >= 0; i--) {
    const e = log[i];
    if (e.type === "play") return e;
    if (e.type === "deal" || e.type === "round_end") return null;
  }
  return null;
}

/** The doubles played in the hand in progress, in play order (every_double: each a spinner). */
export function doublesPlayed(log) {
  const out = [];
  for (let i = (log || []).length - 1; i >= 0; i--) {
    const e = log[i];
    if (e.type === "deal" || e.type === "round_end") break;
    if (e.type === "play") { const [a, b] = halves(e.tile); if (a === b) out.unshift(e.tile); }
  }
  return out;
}

function chain(tiles, openEnd) {
  return orient(tiles, openEnd).map(([inner, outer]) => domino(inner, outer, { vertical: inner === outer }));
}

function ghostTile(ghost, vertical = false) {
  const [a, b] = halves(ghost.tile);
  const node = domino(a, b, { vertical, cls: "ghost", title: ghost.label || ghost.tile });
  node.dataset.ghost = ghost.tile;
  return node;
}

/** Draw `view` into a new element (see the module's comment for ctx). */
export function drawBoard(view, ctx = {}) {
  const c = { seat: null, nameOf: null, log: null, lit: new Set(), selected: null, hinted: null,
    ghost: null, onTarget: null, ...ctx };
  if (!(c.lit instanceof Set)) c.lit = new Set(c.lit || []);
  const words = { game: view.game, seat: c.seat, nameOf: c.nameOf };
  const root = el("div", { class: "board-view", "data-game": view.game });
  root.appendChild(view.game === "mexican_train" ? mexicanBoard(view, c, words) : lineBoard(view, c, words));
  // targets: buttons when the page plays, marks otherwise
  for (const n of root.querySelectorAll("[data-target]")) {
    const id = n.dataset.target;
    const on = c.lit.has(id);
    if (c.onTarget) {
      n.setAttribute("role", "button");
      n.setAttribute("tabindex", on ? "0" : "-1");
      n.setAttribute("aria-disabled", on ? "false" : "true");
      n.addEventListener("click", () => c.onTarget(id));
      if (c.onTargetKey) n.addEventListener("keydown", (ev) => c.onTargetKey(ev, id));
    }
    n.classList.toggle("hinted", on && id === c.hinted);
    if (c.ghost && c.ghost.target === id) n.classList.add("ghost-target");
  }
  const last = c.last !== undefined && c.last !== null ? c.last : lastPlay(c.log);
  if (last && last.tile) {
    const node = [...root.querySelectorAll(`svg.domino[data-tile="${last.tile}"]`)].find((x) => !x.dataset.ghost);
    if (node) {
      node.classList.add("last");
      node.setAttribute("aria-label", t("{tile}, the last move ({name})", { tile: last.tile, name: whoName(last.seat, words) }));
      root.dataset.last = last.tile;
    }
  }
  return root;
}

/** Draw `view` into `container` (its children replaced), fitted to its room. */
export function mountBoard(container, view, ctx = {}) {
  const root = drawBoard(view, ctx);
  container.replaceChildren(root);
  container.dataset.game = view.game;
  if (root.dataset.last) container.dataset.last = root.dataset.last; else delete container.dataset.last;
  if (view.game !== "mexican_train" && ctx.fit !== false) fitLine(container, { fitHeight: !!ctx.fitHeight });
  return root;
}

function targetLabel(id, value, c, words) {
  const name = targetName(id, words);
  if (c.lit.has(id) && c.selected) return t("{target}, open end {value}: play {tile} here", { target: name, value, tile: c.selected });
  return t("{target}, open end {value}", { target: name, value });
}

function mexicanBoard(v, c, words) {
  const [e] = halves(v.engine);
  const owed = new Set(v.owed || []);
  const rows = v.trains.map((tr) => {
    const mine = tr.owner !== null && tr.owner === c.seat;
    const label = tr.owner === null ? t("Mexican train") : mine ? t("Your train")
      : t("{name}'s train", { name: words.nameOf ? words.nameOf(tr.owner) : whoName(tr.owner, words) });
    const open = tr.owner === null || tr.marker;
    const cls = ["train", mine ? "mine" : "", open ? "open" : "", owed.has(tr.id) ? "owed" : "",
      c.lit.has(tr.id) ? "target lit" : ""].join(" ").replace(/\s+/g, " ").trim();
    const tiles = chain(tr.tiles, tr.open_end);
    if (c.ghost && c.ghost.target === tr.id) tiles.push(ghostTile(c.ghost));
    return el("div", { class: cls, "data-target": tr.id, "data-owner": tr.owner === null ? "mx" : tr.owner,
      "aria-label": targetLabel(tr.id, tr.open_end, c, words) },
    el("div", { class: "tlabel" },
      el("span", { class: "tname", text: label }),
      tr.owner !== null && tr.marker ? el("span", { class: "marker", title: t("marker: open to everyone"), text: t("marker: open") }) : null,
      owed.has(tr.id) ? el("span", { class: "owed-badge", text: t("double to cover") }) : null,
      tr.owner === null && !tr.started ? el("span", { class: "hint", text: t("not started") }) : null,
      // the train's length, never to be read as a hand's size
      el("span", { class: "tcount", text: tn("{n} tile laid", "{n} tiles laid", tr.tiles.length) })),
    el("div", { class: "ttiles" }, ...tiles,
      el("span", { class: "end", title: t("open end"), text: String(tr.open_end) })));
  });
  return el("div", { class: "mt" },
    el("div", { class: "engine-box" }, el("span", { class: "hint", text: t("engine") }),
      domino(e, e, { vertical: true, cls: "engine" }),
      (v.owed || []).length ? el("span", { class: "owed-badge", text: t("owed: {trains}", { trains: listAnd(v.owed.map((id) => targetName(id, words))) }) }) : null),
    el("div", { class: "trains" }, ...rows));
}

// All Fives, Draw and Block: the line runs left to right through the lead; doubles lie
// across it; the spinner (wherever it sits in the line) has its arms drawn up and down.
function lineBoard(v, c, words) {
  const L = v.layout;
  const ends = Object.fromEntries(L.ends.map((x) => [x.id, x]));
  const lit = c.lit;
  const ghostAt = (id, vertical) => (c.ghost && c.ghost.target === id ? ghostTile(c.ghost, vertical) : null);
  const chip = (id) => {
    const x = ends[id];
    return el("span", { class: `end end-${id}${lit.has(id) ? " target lit" : ""}`, "data-target": id,
      "data-value": x.value, "aria-label": targetLabel(id, x.value, c, words), text: String(x.value) });
  };
  const count = el("div", { class: `count${L.count && L.count % 5 === 0 ? " scoring" : ""}`, "data-count": L.count },
    el("span", { class: "count-value", text: t("Count {n}", { n: L.count }) }),
    v.game === "all_fives" && L.count && L.count % 5 === 0 ? el("span", { class: "hint", text: t("(a multiple of 5)") }) : null,
    L.spinner ? el("span", { class: "hint", text: t("spinner {tile}", { tile: L.spinner }) }) : null);
  const endsList = el("ul", { class: "ends-list", "aria-label": t("open ends") },
    ...L.ends.map((x) => el("li", { "data-end": x.id, text: t("{target}: {value}", { target: targetName(x.id, { ...words, short: true }), value: x.value }) })));
  if (!L.lead) {
    const lead = el("span", { class: `end lead${lit.has("lead") ? " target lit" : ""}`, "data-target": "lead",
      "aria-label": lit.has("lead") && c.selected ? t("lead {tile} here", { tile: c.selected }) : t("the lead: the first tile goes here"),
      text: t("lead here") });
    return el("div", { class: "line" }, count, el("div", { class: "cross empty" }, lead, ghostAt("lead", false)));
  }
  // the line's cells, left to right: L's chip, L's tiles (outermost first), the lead, R's tiles, R's chip
  const cells = [];
  if (ends.L) { cells.push(chip("L")); const g = ghostAt("L", false); if (g) cells.push(g); }
  const left = ends.L ? orient(ends.L.tiles, ends.L.value) : [];
  for (let i = left.length - 1; i >= 0; i--) {
    const [inner, outer] = left[i];
    cells.push(domino(outer, inner, { vertical: inner === outer }));
  }
  let [a, b] = halves(L.lead);
  const leftOfLead = left.length ? left[0][0] : ends.L ? ends.L.value : a;
  if (leftOfLead === b && a !== b) [a, b] = [b, a];
  cells.push(domino(a, b, { vertical: a === b, cls: "lead-tile" }));
  const right = ends.R ? orient(ends.R.tiles, ends.R.value) : [];
  for (const [inner, outer] of right) cells.push(domino(inner, outer, { vertical: inner === outer }));
  if (ends.R) { const g = ghostAt("R", false); if (g) cells.push(g); cells.push(chip("R")); }
  // the spinners: the first double (first_double), or every double in play order
  // (every_double: the k-th one's arms are U<k>/D<k>, the first's plain U/D)
  const spinners = v.options && v.options.spinner === "every_double" ? doublesPlayed(c.log) : L.spinner ? [L.spinner] : [];
  const grid = el("div", { class: "cross", style: `grid-template-columns: repeat(${cells.length}, auto)` });
  cells.forEach((n, i) => {
    n.style.gridColumn = String(i + 1);
    n.style.gridRow = "2";
    grid.appendChild(n);
  });
  const drawn = new Set();
  spinners.forEach((tile, k) => {
    const at = cells.findIndex((n) => n.dataset && n.dataset.tile === tile && !n.dataset.ghost && n.tagName.toLowerCase() === "svg");
    if (at < 0) return;                          // a spinner on an arm: its arms are listed below
    cells[at].classList.add("spinner");
    const suffix = k === 0 ? "" : String(k + 1);
    for (const side of ["U", "D"]) {
      const id = side + suffix;
      drawn.add(id);
      const armEl = el("div", { class: `arm arm-${side}`, "data-arm": id, style: `grid-column: ${at + 1}; grid-row: ${side === "U" ? 1 : 3}` });
      const x = ends[id];
      if (x) {
        const nodes = orient(x.tiles, x.value).map(([inner, outer]) => (side === "U"
          ? domino(outer, inner, { vertical: inner !== outer })
          : domino(inner, outer, { vertical: inner !== outer })));
        const g = ghostAt(id, true);
        if (g) nodes.push(g);
        if (side === "U") armEl.append(chip(id), ...nodes.reverse());
        else armEl.append(...nodes, chip(id));
      } else {
        armEl.classList.add("closed");
        armEl.append(el("span", { class: "arm-closed", title: t("this side opens once both ends of the spinner are covered"), text: "·" }));
      }
      grid.appendChild(armEl);
    }
  });
  const extra = L.ends.filter((x) => !["L", "R"].includes(x.id) && !drawn.has(x.id));
  return el("div", { class: "line" }, count, grid,
    extra.length ? el("div", { class: "extra" }, ...extra.map((x) =>
      el("div", { class: "arm-row", "data-arm": x.id }, el("span", { class: "hint", text: targetName(x.id, words) }),
        ...chain(x.tiles, x.value), ghostAt(x.id, false), chip(x.id)))) : null,
    endsList);
}

/** Scale a line game's layout so it fills `container` (never below readable, never far
 * above the tile-size setting).  `fitHeight`: fit the height too (the table on a wide
 * screen; elsewhere the page scrolls). */
export function fitLine(container, { fitHeight = false } = {}) {
  const cross = container.querySelector(".cross");
  if (!cross || cross.classList.contains("empty")) return;
  cross.style.removeProperty("--u");
  const base = parseFloat(getComputedStyle(cross).getPropertyValue("--u")) || 22;
  const line = cross.parentElement;
  const css = getComputedStyle(container);
  const padX = parseFloat(css.paddingLeft) + parseFloat(css.paddingRight);
  const padY = parseFloat(css.paddingTop) + parseFloat(css.paddingBottom);
  const others = line.offsetHeight - cross.offsetHeight;      // the count, the ends' list, gaps
  const availW = container.clientWidth - padX - 4;
  const availH = fitHeight ? container.clientHeight - padY - others - 4 : Infinity;
  // chips and gaps do not scale with --u: measure again after each step
  let u = base;
  for (let i = 0; i < 4; i++) {
    const w = cross.scrollWidth, h = cross.scrollHeight;
    if (!w || !h) return;
    const k = Math.min(availW / w, availH / h);
    const next = Math.max(12, base * 0.55, Math.min(base * 1.5, u * k));
    if (Math.abs(next - u) < 0.3 && k >= 1) break;
    u = next;
    cross.style.setProperty("--u", `${u.toFixed(1)}px`);
    if (k >= 1 && i > 0) break;
  }
  cross.dataset.u = u.toFixed(1);
}

/** Refit `container`'s layout whenever its room changes (returns the observer). */
export function refitOnResize(container, { fitHeight = () => false } = {}) {
  let room = "";
  const obs = new ResizeObserver(() => {
    const tall = fitHeight();
    const now = tall ? `${container.clientWidth}x${container.clientHeight}` : `${container.clientWidth}`;
    if (now === room) return;
    room = now;
    if (container.dataset.game && container.dataset.game !== "mexican_train") fitLine(container, { fitHeight: tall });
  });
  obs.observe(container);
  return obs;
}
