// A player's page (/players/NAME): their rating per game with its graph (inline SVG), plain
// statistics and their rated matches, newest first, each with a link to its replay.
import { $, api, day, el, ready, startPage, t } from "./community.js";
import { GAME_LABELS } from "./api.js";

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

/** The rating after each rated match of one game, oldest first, as a line. */
export function ratingGraph(game, points) {
  const W = 320, H = 120, P = 28;
  const values = points.map((p) => p.rating);
  const lo = Math.min(...values), hi = Math.max(...values);
  const span = Math.max(hi - lo, 20);
  const x = (i) => P + (points.length === 1 ? (W - 2 * P) / 2 : (i * (W - 2 * P)) / (points.length - 1));
  const y = (v) => H - P / 2 - ((v - lo) / span) * (H - P);
  const label = t("{game}: rating after each rated match, from {first} to {last}",
    { game: GAME_LABELS[game] || game, first: values[0], last: values[values.length - 1] });
  const root = svg("svg", { class: "rating-graph", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label,
    "data-game": game });
  root.append(svg("title", {}, label));
  root.append(svg("line", { x1: P, y1: y(lo), x2: W - P / 2, y2: y(lo), class: "axis" }));
  root.append(svg("text", { x: 2, y: y(hi) + 4, class: "tick" }, String(hi)));
  if (hi !== lo) root.append(svg("text", { x: 2, y: y(lo) + 4, class: "tick" }, String(lo)));
  root.append(svg("polyline", { class: "line", points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ") }));
  points.forEach((p, i) => root.append(svg("circle", { class: "dot", cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 3 })));
  return root;
}

function stat(label, value) { return [el("dt", { text: label }), el("dd", { text: String(value) })]; }

function gameCard(r, history) {
  const mine = history.filter((h) => h.game === r.game).reverse();
  const id = `game-${r.game}`;
  return el("section", { class: "card", id, "aria-labelledby": `${id}-h` },
    el("h2", { id: `${id}-h`, text: GAME_LABELS[r.game] || r.game }),
    el("p", { class: "rating" }, el("strong", { class: "rating-value", text: String(r.rating) }),
      r.provisional ? ` ${t("(provisional)")}` : ""),
    el("dl", { class: "stats" },
      ...stat(t("Matches"), r.matches),
      ...stat(t("Wins"), r.wins),
      ...stat(t("Average points per match"), r.average_points === null ? "—" : r.average_points),
      ...stat(t("Rounds played"), r.rounds),
      ...stat(t("Rounds gone out"), r.rounds_out)),
    mine.length ? ratingGraph(r.game, mine) : null);
}

function historyTable(history) {
  if (!history.length) return el("p", { class: "hint", text: t("No rated matches yet.") });
  const head = el("tr", {}, ...[t("Date"), t("Game"), t("Place"), t("Points"), t("Rating"), t("Replays")]
    .map((text) => el("th", { scope: "col", text })));
  const rows = history.map((h) => el("tr", {},
    el("td", { text: day(h.time) }),
    el("td", { text: GAME_LABELS[h.game] || h.game }),
    el("td", { text: t("{place} of {players}", { place: h.place, players: h.players }) }),
    el("td", { text: String(h.score) }),
    el("td", { text: String(h.rating) }),
    el("td", {}, el("a", { href: h.replay, class: "replay-link", text: t("Watch the replay") }))));
  return el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-labelledby": "history-h" },
    el("table", { id: "history" }, el("thead", {}, head), el("tbody", {}, ...rows)));
}

async function main() {
  await startPage("players", () => t("Player — dominohall"));
  const name = decodeURIComponent(location.pathname.replace(/^\/players\//, ""));
  let p;
  try {
    p = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (err) {
    $("main").replaceChildren(el("section", { class: "card" },
      el("h2", { text: t("Player") }), el("p", { class: "error", role: "alert", text: err.message }),
      el("p", {}, el("a", { href: "/players", text: t("Leaderboards") }))));
    ready();
    return;
  }
  document.title = t("{name} — dominohall", { name: p.name });
  $("main").replaceChildren(
    el("section", { class: "card", "aria-labelledby": "player-h" },
      el("h2", { id: "player-h", class: "player-name", text: p.name }),
      el("p", { class: "hint", text: t("Playing since {date}", { date: day(p.since) }) }),
      p.ratings.length ? null : el("p", { text: t("Not rated in any game yet.") })),
    ...p.ratings.map((r) => gameCard(r, p.history)),
    el("section", { class: "card", "aria-labelledby": "history-h" },
      el("h2", { id: "history-h", text: t("Rated matches") }), historyTable(p.history)));
  ready();
}

main();
