// The replay viewer: step through a finished match move by move and round by round.
//
// The positions come from the server (POST /api/replay), which replays the record with the
// engine: this page shows them and never applies a rule itself.  The record is a finished
// table's (/replay?table=ID, from GET /api/tables/ID/record) or a record file the player
// opens (dominohall play --save, the terminal game's autosave, selfplay --save).
import { api, el, GAME_LABELS } from "./api.js";
import { t, tEvent, tn } from "./i18n.js";
import { siteNav, startI18n } from "./chrome.js";
import { mountBoard, refitOnResize } from "./board.js";
import { domino, halves } from "./dominoes.js";
import { matchSummary } from "./summary.js";
import { playerLabel, seatName } from "./words.js";
import { analysisTab } from "./analysis.js";

const $ = (id) => document.getElementById(id);
const R = {
  recordText: null, names: [], meta: null, rounds: new Map(), pages: new Map(), step: 0, table: null, loading: null,
  timer: null, ghost: null,
};
const PLAY_MS = 700;          // one move every this many milliseconds while playing

function who(seat) { return R.names[seat] || playerLabel(seat); }

function tile(text, cls = "small") {
  const [a, b] = halves(text);
  return domino(a, b, { cls, title: text });
}

// ---- loading ------------------------------------------------------------------------------

// A record's seed can have more bits than a JavaScript number keeps, so the record goes
// to the server as the text it was read from (a table's record never leaves the server).
function fetchPage(round) {
  if (R.table) return api(`/api/tables/${encodeURIComponent(R.table.id)}/replay?round=${round}`);
  return api("/api/replay", { method: "POST", raw: `{"record": ${R.recordText}, "round": ${round}}` });
}

async function fetchRound(round) {
  if (!R.rounds.has(round)) R.rounds.set(round, fetchPage(round));
  try {
    const page = await R.rounds.get(round);
    R.pages.set(round, page);
    return page;
  } catch (err) {
    R.rounds.delete(round);
    throw err;
  }
}

function roundOf(step) { return R.meta.rounds.find((r) => r.first <= step && step <= r.last); }

async function positionAt(step) {
  const r = roundOf(step);
  const page = await fetchRound(r.round);
  return page.positions[step - r.first];
}

async function load(names = []) {
  if (R.timer) togglePlay();
  R.names = names;
  R.rounds = new Map();
  R.pages = new Map();
  $("load-error").textContent = "";
  const first = await fetchRound(1);
  R.meta = first;
  buildViewer();
  await go(0);
}

async function loadTable(id) {
  const info = await api(`/api/tables/${encodeURIComponent(id)}`);
  R.table = info;
  try {
    // a bot seat's default name is the server's English label: said in the reader's language
    await load(info.seats.map((s) => seatName(info.seats, s.seat)));
  } catch (err) {
    if (err.status === 409) throw new Error(t("This table's match is not over yet: its replay opens when the match ends."));
    throw err;
  }
}

async function loadFile(file) {
  $("load-error").textContent = "";
  let text, record;
  try {
    text = await file.text();
    record = JSON.parse(text);
  } catch {
    $("load-error").textContent = t("{file} is not a game record (not JSON).", { file: file.name });
    return;
  }
  if (!record || typeof record !== "object" || Array.isArray(record)) {
    $("load-error").textContent = t("{file} is not a game record.", { file: file.name });
    return;
  }
  R.table = null;
  R.recordText = text;
  try {
    await load(Array.isArray(record.names) ? record.names.map(String) : []);
  } catch (err) {
    $("load-error").textContent = t("Cannot replay {file}: {reason}", { file: file.name, reason: err.message });
  }
}

// ---- the viewer ---------------------------------------------------------------------------

function buildViewer() {
  const m = R.meta;
  const mt = m.game === "mexican_train";
  const last = m.steps - 1;
  // visible words name the buttons (arrows are decoration); the keys are announced too
  const button = (id, text, onclick, key, before = "", after = "") => el("button", { id, type: "button",
    "aria-keyshortcuts": key, onclick },
  before ? el("span", { "aria-hidden": "true", text: `${before} ` }) : null, text,
  after ? el("span", { "aria-hidden": "true", text: ` ${after}` }) : null);
  $("viewer").replaceChildren(
    el("h2", { id: "viewer-h", text: t("{game}: replay", { game: GAME_LABELS[m.game] || m.game }) }),
    el("div", { class: "controls", role: "group", "aria-label": t("Replay controls") },
      button("rp-start", t("Start"), () => go(0), "Home", "|◀"), // i18n: not text (key names)
      button("rp-prev-round", mt ? t("Previous round") : t("Previous hand"), () => jumpRound(-1), "PageUp", "◀◀"),
      button("rp-prev", t("Previous"), () => go(R.step - 1), "ArrowLeft", "◀"),
      button("rp-next", t("Next"), () => go(R.step + 1), "ArrowRight", "", "▶"),
      button("rp-next-round", mt ? t("Next round") : t("Next hand"), () => jumpRound(1), "PageDown", "", "▶▶"),
      button("rp-end", t("End"), () => go(last), "End", "", "▶|"), // i18n: not text (key names)
      el("button", { id: "rp-play", type: "button", "aria-pressed": "false", "aria-keyshortcuts": "Space", // i18n: not text (key names)
        onclick: togglePlay, text: t("Play") }),
      el("input", { id: "rp-slider", type: "range", min: 0, max: last, value: 0, "aria-label": t("Move"),
        oninput: (ev) => go(Number(ev.target.value)) })),
    el("p", { id: "rp-where", class: "where", "aria-live": "polite" }),
    el("p", { class: "hint", text: t("Keys: ← → a move, Page Up / Page Down a round, Home / End the start and the end, Space plays or pauses.") }),
    el("section", { id: "rp-moves", "aria-label": t("What happened") }),
    el("section", { id: "rp-board", class: "rp-board", "aria-label": t("Table") }),
    el("section", { id: "rp-players", class: "rp-players", "aria-label": t("Players") }),
    el("section", { id: "rp-summary" }),
    // a finished table's analysis (the server refuses it before the end; a file has none)
    R.table ? analysisTab(R.table.id, { who, go, options: m.options, showGhost: (step, ghost) => { R.ghost = ghost ? { step, ghost } : null; } }) : null);
  $("viewer").hidden = false;
  refitOnResize($("rp-board"));
  document.body.dataset.steps = String(m.steps);
}

function togglePlay() {
  const b = $("rp-play");
  if (R.timer) {
    clearInterval(R.timer);
    R.timer = null;
  } else {
    if (R.step >= R.meta.steps - 1) go(0);
    R.timer = setInterval(() => {
      if (R.step >= R.meta.steps - 1) togglePlay();
      else go(R.step + 1);
    }, PLAY_MS);
  }
  b.setAttribute("aria-pressed", R.timer ? "true" : "false");
  b.textContent = R.timer ? t("Pause") : t("Play");
}

function jumpRound(dir) {
  const r = roundOf(R.step);
  const i = R.meta.rounds.indexOf(r);
  if (dir < 0) go(R.step > r.first ? r.first : R.meta.rounds[Math.max(0, i - 1)].first);
  else go(i + 1 < R.meta.rounds.length ? R.meta.rounds[i + 1].first : R.meta.steps - 1);
}

async function go(step) {
  const last = R.meta.steps - 1;
  step = Math.max(0, Math.min(last, step));
  const ticket = (R.loading = Symbol("go"));
  let pos;
  try {
    pos = await positionAt(step);
  } catch (err) {
    $("load-error").textContent = err.message;
    return;
  }
  if (ticket !== R.loading) return;         // a later step was asked for meanwhile
  R.step = step;
  render(pos);
}

function render(pos) {
  const m = R.meta;
  const last = m.steps - 1;
  $("rp-slider").value = String(pos.step);
  $("rp-prev").disabled = $("rp-start").disabled = pos.step === 0;
  $("rp-next").disabled = $("rp-end").disabled = pos.step === last;
  const unit = m.game === "mexican_train"
    ? t("Round {round} of {rounds}", { round: pos.round, rounds: m.rounds.length })
    : t("Hand {round} of {rounds}", { round: pos.round, rounds: m.rounds.length });
  $("rp-where").textContent = pos.step === 0
    ? t("{where} · the deal", { where: unit })
    : t("{where} · move {step} of {steps}", { where: unit, step: pos.step, steps: last });
  document.body.dataset.step = String(pos.step);
  document.body.dataset.over = pos.is_over ? "1" : "0";
  renderMoves(pos);
  renderBoard(pos);
  renderPlayers(pos);
  renderSummary(pos);
}

function renderMoves(pos) {
  const items = pos.events.map((e) => el("li", { class: `ev-${e.type}`, text: eventText(e) }));
  const end = pos.events.find((e) => e.type === "round_end");
  $("rp-moves").replaceChildren(
    el("h3", { class: "visually-hidden", text: t("What happened") }),
    items.length ? el("ul", { class: "moves" }, ...items) : el("p", { class: "hint", text: t("The tiles are dealt.") }),
    ...(end ? [roundOver(end)] : []));
}

function eventText(e) {
  // the same words as the table's log, as a spectator says them
  return tEvent(e, { seat: null, nameOf: who, game: R.meta.game });
}

function roundOver(e) {
  return el("div", { class: "round-over" },
    el("table", {},
      el("thead", {}, el("tr", {}, ...[t("Player"), t("Tiles left"), t("Points"), t("Total")].map((x) => el("th", { scope: "col", text: x })))),
      el("tbody", {}, ...e.hands.map((h, i) => el("tr", {},
        el("td", { text: who(i) }),
        el("td", {}, ...(h.length ? h.map((x) => tile(x)) : [t("none")])),
        el("td", { text: String(e.points[i]) }),
        el("td", { text: String(e.scores[i]) }))))));
}

/** The events of the position's round up to it (the board's last move and spinners). */
function roundLog(pos) {
  const page = R.pages.get(pos.round);
  if (!page) return pos.events;
  return page.positions.filter((p) => p.step <= pos.step).flatMap((p) => p.events);
}

function renderBoard(pos) {
  const box = $("rp-board");
  const log = roundLog(pos);
  // the position after a move: that move is the one outlined
  const ghost = R.ghost && R.ghost.step === pos.step ? R.ghost.ghost : null;
  mountBoard(box, { ...pos, options: R.meta.options }, { seat: null, nameOf: who, log, ghost });
  box.append(el("p", { class: "hint rp-boneyard", text: boneyardText(pos.boneyard) }));
}

function boneyardText(n) { return t("Boneyard: {n}", { n }); }

function renderPlayers(pos) {
  $("rp-players").replaceChildren(...pos.hands.map((hand, i) => el("div", {
    class: `rp-player${pos.current_seat === i && !pos.is_over ? " turn" : ""}`, "data-seat": i },
  el("div", {}, el("strong", { text: who(i) }), pos.current_seat === i && !pos.is_over ? ` — ${t("to play")}` : ""),
  el("div", { class: "stats", text: tn("{n} tile · total {total}", "{n} tiles · total {total}", hand.length, { total: pos.scores[i] }) }),
  el("div", { class: "hand", "aria-label": t("{name}'s hand", { name: who(i) }), role: "group" }, ...hand.map((x) => tile(x))))));
}

function renderSummary(pos) {
  const box = $("rp-summary");
  if (!pos.is_over) { box.replaceChildren(); return; }
  const m = R.meta;
  const view = { game: m.game, players: m.players, options: m.options, scores: m.final.scores,
    winners: m.final.winners, log: m.final.round_ends };
  const next = R.table && R.table.next_table;
  box.replaceChildren(el("div", { class: "card" }, matchSummary(view, R.names),
    el("p", { id: "final-scores", "data-scores": JSON.stringify(pos.scores),
      text: t("Final totals: {list}", { list: pos.scores.map((s, i) => t("{name}: {total}", { name: who(i), total: s })).join(", ") }) }),
    next ? el("p", {}, el("a", { class: "button", href: `/t/${next}`, text: t("The next match at this table") })) : null));
}

function onKey(ev) {
  if (!R.meta || ev.target.closest("input[type='file']")) return;
  if (ev.target.id === "rp-slider" && ["ArrowLeft", "ArrowRight", "Home", "End"].includes(ev.key)) return; // i18n: not text (key names)
  if (ev.key === " " && ev.target.tagName !== "BUTTON") { ev.preventDefault(); togglePlay(); return; }
  const keys = { ArrowLeft: () => go(R.step - 1), ArrowRight: () => go(R.step + 1), Home: () => go(0),
    End: () => go(R.meta.steps - 1), PageUp: () => jumpRound(-1), PageDown: () => jumpRound(1) };
  if (keys[ev.key] && !ev.altKey && !ev.ctrlKey && !ev.metaKey) { ev.preventDefault(); keys[ev.key](); }
}

async function main() {
  await startI18n();
  document.title = t("dominohall — replay");
  $("top").append(el("span", { class: "sub", text: t("Replays") }), siteNav("replay"));
  const table = new URLSearchParams(location.search).get("table");
  $("replay").replaceChildren(
    el("section", { class: "card loader", id: "loader", "aria-labelledby": "loader-h" },
      el("h2", { id: "loader-h", text: t("Watch a match again") }),
      el("label", { for: "record-file", text: t("Open a game record (JSON)") }),
      el("input", { id: "record-file", type: "file", accept: ".json,application/json",
        "aria-describedby": "record-help", onchange: (ev) => ev.target.files[0] && loadFile(ev.target.files[0]) }),
      el("p", { id: "record-help", class: "hint",
        text: t("Saved by dominohall play --save or selfplay --save; a finished table's replay opens from its page.") }),
      el("p", { id: "load-error", class: "error", role: "alert" })),
    el("section", { class: "card", id: "viewer", hidden: true, "aria-labelledby": "viewer-h" }));
  document.addEventListener("keydown", onKey);
  document.body.dataset.ready = "1";
  if (table) {
    try { await loadTable(table); } catch (err) { $("load-error").textContent = err.message; }
  }
}

main();
