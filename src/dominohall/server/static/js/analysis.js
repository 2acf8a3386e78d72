// The replay viewer's Analysis tab: a finished table's post-game analysis (issue 22).
//
// The server works it out once, after the match (POST /api/tables/ID/analysis; before the
// end it answers 409 and this tab is not shown).  The tab draws the evaluation graph (the
// value of each decision's chosen move for its mover's side), lists every decision with
// its mark, and a click on one opens the position before it with the better move drawn
// as a ghost tile (board.js) and the top three actions with their values.
import { api, el } from "./api.js";
import { t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const POLL_MS = 700;
export const MARK_WORDS = {
  best: () => t("best"), good: () => t("good"), inaccuracy: () => t("inaccuracy"),
  mistake: () => t("mistake"), blunder: () => t("blunder"),
};

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

function signed(x) { return (Math.round(x * 10) / 10).toFixed(1).replace(/^(?!-)/, "+").replace("+0.0", "0.0"); }

/** {tile, target, label} for board.js's ghost from an action text ("6-4>R", "6-6"). */
export function ghostOf(action, label) {
  const [tile, target] = action.split(">");
  return { tile, target: target || "lead", label };
}

/** The side a seat plays for when the match has two sides (two players, or partners),
 * else null (then each point is its mover's own). */
function sideOf(seat, result, options) {
  if (result.players === 2) return seat;
  if (options && options.teams) return seat % 2;
  return null;
}

/** The evaluation graph: one point per decision, its chosen move's value; with two sides,
 * as the first side's expected score difference (up: the first side ahead). */
function graph(decisions, result, options, onPick) {
  const W = 600, H = 160, P = 24;
  const two = sideOf(0, result, options) !== null;
  const ys = decisions.map((d) => {
    const v = d.values[d.action];
    return two && sideOf(d.seat, result, options) !== 0 ? -v : v;
  });
  const top = Math.max(1, ...ys.map(Math.abs));
  const x = (i) => P + (decisions.length > 1 ? i * (W - 2 * P) / (decisions.length - 1) : (W - 2 * P) / 2);
  const y = (v) => H / 2 - v * (H / 2 - P) / top;
  const line = svg("polyline", { class: "eval-line", fill: "none", points: ys.map((v, i) => `${x(i)},${y(v)}`).join(" ") });
  const dots = decisions.map((d, i) => {
    const c = svg("circle", { class: `eval-dot mark-${d.mark}`, cx: x(i), cy: y(ys[i]), r: 5, "data-index": d.index,
      "data-value": ys[i], tabindex: 0 },
    svg("title", {}, document.createTextNode(`${d.action}: ${MARK_WORDS[d.mark]()}`)));
    c.addEventListener("click", () => onPick(d));
    return c;
  });
  const label = two
    ? t("Evaluation graph: the expected score difference for the first side (up) against the second (down), move by move")
    : t("Evaluation graph: the value of each chosen move for its player's side");
  return svg("svg", { class: "eval-graph", viewBox: `0 0 ${W} ${H}`, role: "img", "data-points": decisions.length,
    "data-sides": two ? 2 : "", "aria-label": label },
  svg("line", { class: "eval-zero", x1: P, x2: W - P, y1: H / 2, y2: H / 2 }), line, ...dots);
}

/** The Analysis section for the table `tableId`: a button, then the analysis. */
export function analysisTab(tableId, { who, go, showGhost, options }) {
  const box = el("section", { id: "rp-analysis", class: "card rp-analysis", "aria-labelledby": "rp-analysis-h" });
  const status = el("p", { id: "an-status", class: "hint", "aria-live": "polite" });
  const detail = el("div", { id: "an-detail" });
  const start = el("button", { id: "an-start", type: "button", text: t("Analyse this match") });
  box.append(el("h3", { id: "rp-analysis-h", text: t("Analysis") }), start, status, detail);
  const path = `/api/tables/${encodeURIComponent(tableId)}/analysis`;

  function pick(d) {
    const best = d.best;
    const ranked = Object.entries(d.values).sort((a, b) => b[1] - a[1]).slice(0, 3);
    detail.replaceChildren(
      el("p", { id: "an-move", text: d.mark === "best"
        ? t("{name} played {action}: {mark}", { name: who(d.seat), action: d.action, mark: MARK_WORDS[d.mark]() })
        : t("{name} played {action}: {mark}, {loss} points lost; better: {best}", { name: who(d.seat),
          action: d.action, mark: MARK_WORDS[d.mark](), loss: d.loss.toFixed(1), best }) }),
      el("ol", { id: "an-top", "aria-label": t("The best actions and their values") },
        ...ranked.map(([a, v]) => el("li", { "data-action": a, text: t("{action}: {value} points", { action: a, value: signed(v) }) }))));
    showGhost(d.step, best === d.action ? null : ghostOf(best, t("better: {action}", { action: best })));
    go(d.step);
  }

  function show(result) {
    const ds = result.decisions;
    start.hidden = true;
    status.textContent = t("Every decision weighed from what its player could see then; values are points of the player's side against the others for the rest of the hand or round.");
    const items = ds.map((d) => el("li", {},
      el("button", { type: "button", class: `an-item mark-${d.mark}`, "data-index": d.index, "data-mark": d.mark,
        onclick: () => pick(d), text: t("Move {step}, {name}: {action} — {mark}", { step: d.step + 1, name: who(d.seat), action: d.action, mark: MARK_WORDS[d.mark]() }) })));
    const summary = result.players_summary.map((p) => el("li", { text: t("{name}: {lost} points lost, accuracy {accuracy}%", {
      name: who(p.seat), lost: p.total_loss.toFixed(1), accuracy: Math.round(p.accuracy) }) }));
    box.replaceChildren(box.firstChild, status, graph(ds, result, options, pick), el("ul", { id: "an-summary" }, ...summary),
      el("ol", { id: "an-list", class: "an-list" }, ...items), detail);
  }

  async function poll() {
    const r = await api(path);
    if (r.status === "done") { show(r.analysis); return; }
    if (r.status === "failed") { status.textContent = t("The analysis failed; try again."); start.hidden = false; return; }
    if (r.status === "running") {
      status.textContent = t("Analysing: {done} of {total} decisions", { done: r.done, total: r.total || "…" });
      setTimeout(() => poll().catch((err) => { status.textContent = err.message; }), POLL_MS);
    }
  }

  start.addEventListener("click", async () => {
    start.disabled = true;
    try {
      await api(path, { method: "POST" });
      await poll();
    } catch (err) {
      status.textContent = err.message;
    } finally {
      start.disabled = false;
    }
  });
  poll().catch(() => {});          // already worked out (or running): show it
  return box;
}
