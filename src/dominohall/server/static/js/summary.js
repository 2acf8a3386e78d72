// The match summary: every player's total after each round, as an SVG line chart with a
// table beside it (the table is the chart's text alternative).
//
//   import { matchSummary } from "./summary.js";
//   box.appendChild(matchSummary(view, names));   // view: the final Game.view (with its log)
//   matchSummary({ ...view, log }, names, { replayHref: `/replay?table=${id}` })   // + a link
//
// `view` needs `log` (its round_end events carry the totals after each round), `players`,
// `scores`, `winners` and `game`; `names` lists the seats' display names.
import { api, el } from "./api.js";
import { t, withLang } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
// Okabe–Ito colours (told apart with the common colour-vision deficiencies), and for
// anyone who still cannot, a marker shape and a dash pattern per player.
const COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
  "#882255", "#777777", "#44AA99"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 0", "4 4", "10 4", "3 6", "12 3 3 3", "2 2"];
const SHAPES = ["circle", "square", "triangle", "diamond", "circle", "square", "triangle", "diamond",
  "circle", "square"];

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  for (const c of children.flat()) if (c) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  return node;
}

function marker(shape, x, y, colour, r = 4) {
  const style = { fill: colour, stroke: "#fff", "stroke-width": 1 };
  if (shape === "square") return svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, ...style });
  if (shape === "triangle") return svg("polygon", { points: `${x},${y - r - 1} ${x + r + 1},${y + r} ${x - r - 1},${y + r}`, ...style });
  if (shape === "diamond") return svg("polygon", { points: `${x},${y - r - 1} ${x + r + 1},${y} ${x},${y + r + 1} ${x - r - 1},${y}`, ...style });
  return svg("circle", { cx: x, cy: y, r, ...style });
}

/** Round numbers and the totals after each: [{round: 0, scores: [0, ...]}, ...]. */
export function totalsByRound(view) {
  const n = view.players;
  const rows = [{ round: 0, scores: Array(n).fill(0) }];
  for (const e of view.log || []) if (e.type === "round_end") rows.push({ round: e.round, scores: e.scores.slice() });
  return rows;
}

function niceStep(span) {
  const raw = span / 5;
  const mag = 10 ** Math.floor(Math.log10(raw || 1));
  return [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) || mag * 10;
}

function who(names, seat) { return names[seat] || t("Player {n}", { n: seat + 1 }); }

/** Partners hold one score: the chart and its legend draw one line per team. */
function teams(view) { return !!(view.teams || (view.options && view.options.teams)); }

/** The seats that get a line (the first of each team), and a line's name ("Ana & Cy"). */
function lineSeats(view) { return teams(view) ? [0, 1] : Array.from({ length: view.players }, (_, seat) => seat); }
function lineName(view, names, seat) {
  return teams(view) ? t("{a} & {b}", { a: who(names, seat), b: who(names, seat + 2) }) : who(names, seat);
}

/** The chart alone: one line per player, one marked point per round (and the start). */
export function totalsChart(view, names = []) {
  const rows = totalsByRound(view);
  const n = view.players;
  const W = 600, H = 300, L = 48, R = 16, T = 14, B = 36;
  const all = rows.flatMap((r) => r.scores);
  const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
  const step = niceStep(hi - lo);
  const y0 = Math.floor(lo / step) * step, y1 = Math.ceil(hi / step) * step;
  const xs = (i) => L + (rows.length > 1 ? (i * (W - L - R)) / (rows.length - 1) : (W - L - R) / 2);
  const ys = (v) => T + ((y1 - v) * (H - T - B)) / (y1 - y0 || 1);
  const unit = view.game === "mexican_train" ? t("Round") : t("Hand");
  const grid = [];
  for (let v = y0; v <= y1 + 1e-9; v += step) {
    grid.push(svg("line", { class: "grid", x1: L, x2: W - R, y1: ys(v), y2: ys(v) }),
      svg("text", { x: L - 6, y: ys(v) + 4, "text-anchor": "end" }, String(v)));
  }
  const every = Math.ceil(rows.length / 14);
  const xlabels = rows.map((r, i) => (i % every === 0 || i === rows.length - 1)
    ? svg("text", { x: xs(i), y: H - B + 16, "text-anchor": "middle" }, r.round === 0 ? t("start") : String(r.round)) : null);
  // partners hold one score: one line per team (seats 0+2 and 1+3), not two on top of each other
  const lines = lineSeats(view).map((seat) => {
    const colour = COLOURS[seat % COLOURS.length];
    const pts = rows.map((r, i) => [xs(i), ys(r.scores[seat])]);
    return svg("g", { class: "player", "data-seat": seat },
      svg("polyline", { class: "player-line", "data-seat": seat, stroke: colour, fill: "none", "stroke-width": 2.5,
        "stroke-dasharray": DASHES[seat % DASHES.length] || null,
        points: pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ") }),
      svg("g", { class: "points", "data-seat": seat }, ...pts.map(([x, y]) => marker(SHAPES[seat % SHAPES.length], x, y, colour))));
  });
  const title = view.game === "mexican_train" ? t("Every player's total after each round") : t("Every player's total after each hand");
  const desc = lineSeats(view).map((seat) => t("{name}: {total}", { name: lineName(view, names, seat), total: view.scores[seat] })).join("; ");
  const id = `chart-${Math.random().toString(36).slice(2, 8)}`;
  return svg("svg", { class: "summary-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-labelledby": `${id}-t ${id}-d`, "data-points": rows.length },
  svg("title", { id: `${id}-t` }, title), svg("desc", { id: `${id}-d` }, desc),
  ...grid,
  svg("line", { class: "axis", x1: L, x2: W - R, y1: ys(y0), y2: ys(y0) }),
  svg("line", { class: "axis", x1: L, x2: L, y1: T, y2: H - B }),
  ...xlabels,
  svg("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle" }, unit),
  ...lines);
}

/** Link summary.css once, so the summary looks the same on any page that mounts it. */
function ensureStyles() {
  if (document.querySelector("link[data-summary-css]")) return;
  document.head.appendChild(el("link", { rel: "stylesheet", href: "/static/summary.css", "data-summary-css": "" }));
}

/** "Play again with the same seats" (POST /api/tables/{id}/again): the next table, where
 * the caller keeps their seat; the first caller makes it, the others join it. */
function againButton(tableId) {
  const msg = el("p", { class: "error", role: "alert" });
  const button = el("button", { type: "button", class: "primary", id: "play-again", text: t("Play again with the same seats"),
    onclick: async () => {
      button.disabled = true;
      try {
        const next = await api(`/api/tables/${encodeURIComponent(tableId)}/again`, { method: "POST", body: {} });
        location.href = withLang(`/t/${next.id}`);
      } catch (err) {
        msg.textContent = err.message;
        button.disabled = false;
      }
    } });
  return el("div", { class: "summary-again" }, button, msg);
}

/** The whole summary: who won, the chart, its legend and the totals table.  Options:
 * `replayHref` adds a link to watch the match again; `again` (a table id, for a player
 * of that table) adds "Play again with the same seats". */
export function matchSummary(view, names = [], { replayHref = null, again = null } = {}) {
  ensureStyles();
  const rows = totalsByRound(view);
  const n = view.players;
  const winners = new Set(view.winners || []);
  const won = [...winners].map((s) => who(names, s)).join(" & ");
  const legend = el("ul", { class: "summary-legend", "aria-hidden": "true" },
    ...lineSeats(view).map((seat) => {
      const colour = COLOURS[seat % COLOURS.length];
      const key = svg("svg", { width: 34, height: 12, viewBox: "0 0 34 12" },
        svg("line", { x1: 1, x2: 33, y1: 6, y2: 6, stroke: colour, "stroke-width": 2.5,
          "stroke-dasharray": DASHES[seat % DASHES.length] || null }),
        marker(SHAPES[seat % SHAPES.length], 17, 6, colour));
      return el("li", {}, key, lineName(view, names, seat));
    }));
  const unit = view.game === "mexican_train" ? t("Round") : t("Hand");
  const table = el("table", { class: "summary-table" },
    el("caption", { class: "hint", text: view.game === "mexican_train" ? t("Totals after each round") : t("Totals after each hand") }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: unit }),
      ...Array.from({ length: n }, (_, s) => el("th", { scope: "col", text: who(names, s) })))),
    el("tbody", {}, ...rows.slice(1).map((r) => el("tr", {},
      el("th", { scope: "row", text: String(r.round) }), ...r.scores.map((v) => el("td", { text: String(v) }))))));
  const lowWins = view.options && view.options.scoring === "penalty";
  return el("section", { class: "summary", "aria-label": t("Match summary") },
    el("h2", { text: won ? t("{names} won the match", { names: won }) : t("Match summary") }),
    lowWins ? el("p", { class: "hint", text: t("Penalty scoring: the lowest total wins.") }) : null,
    totalsChart(view, names), legend,
    el("div", { class: "summary-wrap", tabindex: "0", role: "region", "aria-label": view.game === "mexican_train" ? t("Totals after each round") : t("Totals after each hand") }, table),
    again ? againButton(again) : null,
    replayHref ? el("p", {}, el("a", { class: "button", href: replayHref, text: t("Watch the replay") })) : null);
}
