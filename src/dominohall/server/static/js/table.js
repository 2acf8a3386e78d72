// The game page: one websocket, the seat's own view only; click a tile, then a lit target
// (or drag the tile onto a lit target: pointer events, so mouse, pen and touch alike).
import { api, el, GAME_LABELS } from "./api.js";
import { domino, halves, handTile, orient } from "./dominoes.js";
import { t as tr } from "./i18n.js";
import { matchSummary } from "./summary.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/")[2];

const S = {
  view: null, log: [], table: null, info: null, selected: null, pending: false,
  ws: null, retry: 500, modal: null, pauseDeadline: 0, inviteShown: false, loaded: false,
  turnDeadline: 0, drag: null, suppressClick: false,
};

// ---- helpers ---------------------------------------------------------------------------

function mySeat() { return S.view ? S.view.seat : null; }

function nameOf(seat) {
  if (seat === null || seat === undefined) return "nobody";
  const s = S.table && S.table.seats[seat];
  return (s && s.name) || `seat ${seat}`;
}

function who(seat) { return seat === mySeat() ? "you" : nameOf(seat); }

function niceText(text) {
  return text.replace(/\bseat (\d+)\b/g, (_, n) => nameOf(Number(n)));
}

function parseAction(text) {
  const m = text.match(/^(\d+)-(\d+)(?:>(.+))?$/);
  if (!m) return { kind: text, text };
  const a = Number(m[1]), b = Number(m[2]);
  return { kind: "play", tile: `${Math.max(a, b)}-${Math.min(a, b)}`, target: m[3] || "lead", text };
}

function plays() { return (S.view ? S.view.legal_actions : []).map(parseAction).filter((a) => a.kind === "play"); }

function toast(text, kind = "") {
  const t = el("div", { class: `toast ${kind}`, text });
  $("toasts").appendChild(t);
  setTimeout(() => t.remove(), 4000);
}

function say(text, kind = "") {
  $("msg").textContent = text;
  $("msg").className = `msg ${kind}`;
}

// ---- connection ------------------------------------------------------------------------

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${tableId}`);
  S.ws = ws;
  ws.onopen = () => { S.retry = 500; $("conn").className = "conn on"; $("conn").title = "connected"; };
  ws.onclose = () => {
    $("conn").className = "conn off"; $("conn").title = "reconnecting…";
    if (S.ws === ws) setTimeout(connect, S.retry);
    S.retry = Math.min(S.retry * 2, 5000);
  };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
}

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) { S.ws.send(JSON.stringify(msg)); return true; }
  say("Not connected — reconnecting…", "error");
  return false;
}

function onMessage(m) {
  if (m.type === "state") {
    const fresh = m.log_start === 0 ? m.events : S.log.slice(0, m.log_start).concat(m.events);
    const first = !S.loaded;
    const newEvents = first ? [] : m.events;
    S.view = m.view;
    S.log = fresh;
    setTable(m.table);
    S.pending = false;
    if (S.selected && !S.view.hand?.includes(S.selected)) S.selected = null;
    if (!S.view.legal_actions.length) S.selected = null;
    S.loaded = true;
    render();
    for (const e of newEvents) announce(e);
    if (first) {
      const lastEnd = [...S.log].reverse().find((e) => e.type === "round_end");
      if (S.view.is_over) showRoundEnd(lastEnd, S.log.find((e) => e.type === "game_end"));
      else if (lastEnd && S.table.pause > 0) showRoundEnd(lastEnd, null);
    }
  } else if (m.type === "table") {
    setTable(m.table);
    render();
  } else if (m.type === "error") {
    S.pending = false;
    say(m.message, "error");
    toast(m.message, "error");
    render();
  }
}

function setTable(t) {
  const wasPaused = S.table && S.table.pause > 0;
  const seen = S.table ? (S.table.notices || []).length : null;
  S.table = t;
  // server: the host's re-invites are told to everyone; the deal's commitment is shown
  if (seen !== null) for (const n of (t.notices || []).slice(seen)) toast(noticeText(n), "alert");
  renderFairness(t);
  S.pauseDeadline = Date.now() + t.pause * 1000;
  S.turnDeadline = t.turn ? Date.now() + t.turn.left * 1000 : 0;   // the server keeps time
  if (wasPaused && t.pause === 0 && S.modal === "round" ) closeModal();
  if (S.modal === "round") renderReady();
}

function announce(e) {
  if (e.type === "last_tile") toast(`${who(e.seat) === "you" ? "You have" : who(e.seat) + " has"} one tile left!`, "alert");
  if (e.type === "round_end") {
    const end = S.log.find((x) => x.type === "game_end");
    showRoundEnd(e, end || null);
  }
}

// ---- actions ---------------------------------------------------------------------------

function act(text) {
  if (S.pending || !S.view) return;
  if (!S.view.legal_actions.includes(text)) { say(`${text} is not legal now`, "error"); return; }
  if (send({ type: "action", action: text, version: S.view.version })) {
    S.pending = true;
    S.selected = null;
    say("");
    render();
  }
}

function clickTile(tile) {
  if (S.suppressClick) return;              // the click that ends a drag
  const mine = plays().filter((a) => a.tile === tile);
  if (!S.view.legal_actions.length) { say(S.view.seat === null ? "" : "It is not your turn.", ""); return; }
  if (!mine.length) { say(`${tile} has nowhere to go.`, "error"); S.selected = null; render(); return; }
  if (S.selected === tile && mine.length === 1) { act(mine[0].text); return; }  // tap twice: play
  S.selected = S.selected === tile ? null : tile;
  say(S.selected ? "Now click a lit target." : "");
  render();
}

function clickTarget(target) {
  if (S.suppressClick) return;
  if (!S.selected) { say("Pick a tile from your hand first.", ""); return; }
  const a = plays().find((p) => p.tile === S.selected && p.target === target);
  if (a) act(a.text); else say(`${S.selected} cannot go there.`, "error");
}

function litTargets() {
  return new Set(plays().filter((a) => a.tile === S.selected).map((a) => a.target));
}

// ---- drag and drop ---------------------------------------------------------------------
// Press a playable tile and move: its legal targets light up (as after a click) and a
// copy follows the pointer; releasing it over a lit target plays it there.  Only lit
// targets (from view.legal_actions) take a tile; anywhere else it stays selected.

const DRAG_START = 6;        // pixels a press must travel to become a drag (else a click)

function tilePointerDown(ev, tile) {
  if (S.drag || !ev.isPrimary || (ev.pointerType === "mouse" && ev.button !== 0)) return;
  if (S.pending || !plays().some((a) => a.tile === tile)) return;
  S.drag = { tile, id: ev.pointerId, x: ev.clientX, y: ev.clientY, ghost: null };
}

function dragMove(ev) {
  const d = S.drag;
  if (!d || ev.pointerId !== d.id) return;
  if (!d.ghost) {
    if (Math.hypot(ev.clientX - d.x, ev.clientY - d.y) < DRAG_START) return;
    startDrag(d);
  }
  ev.preventDefault();
  d.ghost.style.transform = `translate(${ev.clientX}px, ${ev.clientY}px)`;
  const t = targetAt(ev.clientX, ev.clientY);
  for (const n of document.querySelectorAll(".drop-hover")) if (n !== t) n.classList.remove("drop-hover");
  if (t && t.classList.contains("lit")) t.classList.add("drop-hover");
}

function startDrag(d) {
  S.selected = d.tile;
  renderBoard();                            // light the tile's targets; the hand stays as it is
  for (const n of $("hand").querySelectorAll("svg.domino")) {
    n.classList.toggle("selected", n.dataset.tile === d.tile);
    n.classList.toggle("drag-source", n.dataset.tile === d.tile);
  }
  const [a, b] = halves(d.tile);
  d.ghost = domino(a, b, { vertical: true, cls: "drag-ghost" });
  d.ghost.style.transform = `translate(${d.x}px, ${d.y}px)`;
  document.body.appendChild(d.ghost);
  document.body.classList.add("dragging");
  say("Drop it on a lit target.");
}

function targetAt(x, y) {
  const node = document.elementFromPoint(x, y);
  return node ? node.closest("[data-target]") : null;
}

function dragEnd(ev) {
  const d = S.drag;
  if (!d || ev.pointerId !== d.id) return;
  S.drag = null;
  if (!d.ghost) return;                     // a press, not a drag: the click handler has it
  d.ghost.remove();
  document.body.classList.remove("dragging");
  for (const n of document.querySelectorAll(".drop-hover, .drag-source")) n.classList.remove("drop-hover", "drag-source");
  S.suppressClick = true;                   // the click this release may fire is not a click
  setTimeout(() => { S.suppressClick = false; }, 0);
  const t = ev.type === "pointerup" ? targetAt(ev.clientX, ev.clientY) : null;
  const a = t && t.classList.contains("lit")
    && plays().find((p) => p.tile === d.tile && p.target === t.dataset.target);
  if (a) { act(a.text); return; }
  if (t) say(`${d.tile} cannot go there.`, "error");
  else if (ev.type === "pointerup") say("Drop it on a lit target — or click one.");
  else say("");
  render();
}

document.addEventListener("pointermove", dragMove, { passive: false });
document.addEventListener("pointerup", dragEnd);
document.addEventListener("pointercancel", dragEnd);

// ---- rendering -------------------------------------------------------------------------

function render() {
  if (!S.view) return;
  const v = S.view;
  document.body.dataset.version = v.version;
  document.body.dataset.myTurn = v.legal_actions.length && !S.pending ? "1" : "0";
  document.body.dataset.over = v.is_over ? "1" : "0";
  document.body.dataset.seat = v.seat === null ? "spectator" : v.seat;
  const roundTxt = v.game === "mexican_train" ? `round ${v.round}/${v.rounds}` : `hand ${v.round}`;
  $("title").textContent = `${GAME_LABELS[v.game] || v.game} · ${roundTxt}`;
  $("status").textContent = S.table.status === "waiting" ? "waiting for players"
    : v.is_over ? "match over" : `boneyard ${v.boneyard}`;
  renderBanner();
  renderPlayers();
  renderBoard();
  renderHand();
  renderLog();
  renderScores();
  renderClock();
}

// The turn timer: the server counts, the page only shows what is left.
function renderClock() {
  const t = S.table && S.table.turn;
  const clock = $("clock");
  if (!t || !S.view || S.view.is_over) { clock.hidden = true; return; }
  const left = Math.max(0, Math.ceil((S.turnDeadline - Date.now()) / 1000));
  const mine = t.seat === mySeat();
  const text = left > 0 ? `${left}s` : "time's up";
  clock.hidden = false;
  clock.textContent = mine ? (left > 0 ? `${left}s left` : "time's up: the stand-in bot plays")
    : `${nameOf(t.seat)}: ${text}`;
  clock.className = `clock${mine ? " mine" : ""}${left <= 5 ? " low" : ""}`;
  clock.dataset.seat = t.seat;
  clock.dataset.seconds = left;
  for (const n of document.querySelectorAll(".pclock")) n.textContent = text;
}

setInterval(renderClock, 250);

function noticeText(n) {
  return n.type === "reinvited" ? tr("Seat {seat} was re-invited by the host", { seat: n.seat }) : "";
}

function renderFairness(t) {
  const f = t.fairness;
  let box = $("fair");
  if (!box) { box = el("p", { id: "fair", class: "hint fair" }); $("players").after(box); }
  if (!f || !f.commitment) { box.replaceChildren(); return; }
  const nodes = [tr("Deal commitment {hash}", { hash: `${f.commitment.slice(0, 16)}…` })];
  if (f.seed) {
    nodes.push(" · ", el("a", { href: `/api/tables/${tableId}/record`, download: "", text: tr("download the record (seed revealed)") }));
  }
  box.title = f.commitment;
  box.replaceChildren(...nodes);
}

function renderBanner() {
  const b = $("banner");
  const t = S.table;
  if (t.status === "waiting") {
    const open = t.seats.filter((s) => s.kind === "human" && !s.name).map((s) => `seat ${s.seat}`);
    b.textContent = `Waiting for ${open.join(", ")} to join.` + (S.info && S.info.invites ? " Send them their invite link (Invite)." : "");
    b.hidden = false;
  } else if (mySeat() === null && !S.view.is_over) {
    b.textContent = "You are watching: hands stay hidden until the round ends.";
    b.hidden = false;
  } else if ((t.notices || []).length) {
    b.textContent = noticeText(t.notices[t.notices.length - 1]);
    b.hidden = false;
  } else b.hidden = true;
}

function renderPlayers() {
  const v = S.view;
  const cards = S.table.seats.map((s) => {
    const i = s.seat;
    const badges = [];
    if (i === mySeat()) badges.push(el("span", { class: "badge you", text: "you" }));
    if (s.kind === "bot") badges.push(el("span", { class: "badge bot", text: `bot · ${s.bot}` }));
    else if (s.controller === "away") badges.push(el("span", { class: "badge away", text: "away · bot plays" }));
    else if (!s.connected && s.name) badges.push(el("span", { class: "badge off", text: "offline" }));
    if (!s.name && s.kind === "human") badges.push(el("span", { class: "badge off", text: "open seat" }));
    if (v.teams) badges.push(el("span", { class: "badge", text: i % 2 ? "team B" : "team A" }));
    const turn = v.current_seat === i && !v.is_over;
    return el("div", { class: `player${turn ? " turn" : ""}`, "data-seat": i },
      el("div", { class: "pname" }, turn ? "▶ " : "", nameOf(i), " ", ...badges,
        S.table.turn && S.table.turn.seat === i ? el("span", { class: "pclock" }) : null),
      el("div", { class: "pstats" },
        el("span", { class: "tiles-left", text: `${v.hand_sizes[i]} tile${v.hand_sizes[i] === 1 ? "" : "s"}` }),
        el("span", { class: "score", text: `score ${v.scores[i]}` })));
  });
  $("players").replaceChildren(...cards,
    el("div", { class: "boneyard", text: `Boneyard: ${v.boneyard} tile${v.boneyard === 1 ? "" : "s"}` }));
}

function chain(tiles, openEnd, { reverse = false, vertical = false, max = 0 } = {}) {
  let oriented = orient(tiles, openEnd);
  let hidden = 0;
  if (max && oriented.length > max) { hidden = oriented.length - max; oriented = oriented.slice(hidden); }
  const nodes = oriented.map(([inner, outer]) => {
    const dbl = inner === outer;
    if (vertical) {
      return reverse ? domino(outer, inner, { vertical: !dbl }) : domino(inner, outer, { vertical: !dbl });
    }
    return reverse ? domino(outer, inner, { vertical: dbl }) : domino(inner, outer, { vertical: dbl });
  });
  if (hidden) nodes.unshift(el("span", { class: "more", text: `+${hidden}` }));
  return nodes;
}

function renderBoard() {
  const v = S.view;
  const lit = litTargets();
  const board = $("board");
  if (v.game === "mexican_train") board.replaceChildren(mexicanBoard(v, lit));
  else board.replaceChildren(lineBoard(v, lit));
}

function mexicanBoard(v, lit) {
  const [e] = halves(v.engine);
  const owed = new Set(v.owed);
  const rows = v.trains.map((t) => {
    const mine = t.owner !== null && t.owner === mySeat();
    const label = t.owner === null ? "Mexican train" : `${nameOf(t.owner)}${mine ? " (you)" : ""}`;
    const open = t.owner === null || t.marker;
    const cls = ["train", mine ? "mine" : "", open ? "open" : "", owed.has(t.id) ? "owed" : "",
      lit.has(t.id) ? "target lit" : ""].join(" ");
    const row = el("div", { class: cls, "data-target": t.id, role: "button",
      "aria-label": `${label} train, open end ${t.open_end}`, onclick: () => clickTarget(t.id) },
    el("div", { class: "tlabel" },
      el("span", { class: "tname", text: label }),
      t.owner !== null && t.marker ? el("span", { class: "marker", title: "marker: open to everyone", text: "marker: open" }) : null,
      owed.has(t.id) ? el("span", { class: "owed-badge", text: "double to cover" }) : null,
      t.owner === null && !t.started ? el("span", { class: "hint", text: "not started" }) : null),
    el("div", { class: "ttiles" }, ...chain(t.tiles, t.open_end, { max: 8 }),
      el("span", { class: "end", title: "open end", text: String(t.open_end) })));
    return row;
  });
  return el("div", { class: "mt" },
    el("div", { class: "engine-box" }, el("span", { class: "hint", text: "engine" }),
      domino(e, e, { vertical: true, cls: "engine" }),
      v.owed.length ? el("span", { class: "owed-badge", text: `owed: ${v.owed.map(trainName).join(", ")}` }) : null),
    el("div", { class: "trains" }, ...rows));
}

function trainName(id) { return id === "mx" ? "Mexican train" : `${nameOf(Number(id.slice(1)))}'s train`; }

function lineBoard(v, lit) {
  const L = v.layout;
  const ends = Object.fromEntries(L.ends.map((e) => [e.id, e]));
  const arm = (id, opts) => {
    const e = ends[id];
    if (!e) return el("div", { class: `arm arm-${id}` });
    const chip = el("span", { class: `end${lit.has(id) ? " target lit" : ""}`, "data-target": id,
      role: "button", "aria-label": `end ${id}: ${e.value}`, text: String(e.value), onclick: () => clickTarget(id) });
    return el("div", { class: `arm arm-${id}` }, ...chain(e.tiles, e.value, opts), chip);
  };
  let centre;
  if (L.lead) {
    let [a, b] = halves(L.lead);
    const left = ends.L ? (ends.L.tiles.length ? orient(ends.L.tiles, ends.L.value)[0][0] : ends.L.value) : a;
    if (left === b) [a, b] = [b, a];
    centre = domino(a, b, { vertical: a === b, cls: L.spinner === L.lead ? "spinner" : "" });
  } else {
    centre = el("span", { class: `end lead${lit.has("lead") ? " target lit" : ""}`, "data-target": "lead",
      role: "button", text: "lead here", onclick: () => clickTarget("lead") });
  }
  const extra = L.ends.filter((e) => !["L", "R", "U", "D"].includes(e.id));
  const count = el("div", { class: `count${L.count && L.count % 5 === 0 ? " scoring" : ""}` },
    `Count ${L.count}`, L.spinner ? ` · spinner ${L.spinner}` : "");
  return el("div", { class: "line" }, count,
    el("div", { class: "cross" },
      arm("U", { vertical: true, reverse: true }),
      arm("L", { reverse: true }), el("div", { class: "centre" }, centre), arm("R", {}),
      arm("D", { vertical: true })),
    extra.length ? el("div", { class: "extra" }, ...extra.map((e) => arm(e.id, {}))) : null);
}

function renderHand() {
  const v = S.view;
  const hand = $("hand");
  const legal = new Set(v.legal_actions);
  const playable = new Set(plays().map((a) => a.tile));
  if (v.hand === null) {
    hand.replaceChildren(el("span", { class: "hint", text: "Spectating." }));
  } else {
    const drawn = v.turn && v.turn.drawn;
    hand.replaceChildren(...v.hand.map((t) => {
      const cls = [playable.has(t) ? "playable" : "", S.selected === t ? "selected" : "", drawn === t ? "new" : ""].join(" ");
      const d = handTile(t, { cls });
      d.setAttribute("tabindex", "0");
      d.addEventListener("click", () => clickTile(t));
      d.addEventListener("pointerdown", (ev) => tilePointerDown(ev, t));
      d.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") clickTile(t); });
      return d;
    }));
  }
  for (const [id, a] of [["btn-draw", "draw"], ["btn-pass", "pass"], ["btn-end", "end"]]) {
    $(id).disabled = S.pending || !legal.has(a);
    $(id).hidden = v.hand === null;
  }
  let turn;
  if (v.is_over) turn = `Match over — ${v.winners.map(who).join(" & ")} won`;
  else if (S.table.status === "waiting") turn = "Waiting for players to join";
  else if (v.legal_actions.length) turn = S.pending ? "…" : "Your turn";
  else turn = `${nameOf(v.current_seat)}'s turn`;
  if (!v.is_over && S.table.pause > 0) turn += " (round summary)";
  $("turn").textContent = turn;
  $("turn").className = `turn${v.legal_actions.length ? " mine" : ""}`;
}

function renderLog() {
  const box = $("log");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  const items = S.log.slice(-200).map((e) => el("div", { class: `ev ev-${e.type}`, text: niceText(e.text) }));
  box.replaceChildren(...items);
  if (atBottom || true) box.scrollTop = box.scrollHeight;
}

function renderScores() {
  const v = S.view;
  const ends = S.log.filter((e) => e.type === "round_end");
  const head = el("tr", {}, el("th", { text: v.game === "mexican_train" ? "Round" : "Hand" }),
    ...S.table.seats.map((s) => el("th", { text: nameOf(s.seat) })));
  const rows = ends.map((e) => el("tr", {}, el("td", { text: String(e.round) }),
    ...e.points.map((p) => el("td", { text: String(p) }))));
  const total = el("tr", { class: "total" }, el("td", { text: "Total" }), ...v.scores.map((s) => el("td", { text: String(s) })));
  $("scores").replaceChildren(el("table", {}, el("thead", {}, head), el("tbody", {}, ...rows, total)));
}

// ---- modals ----------------------------------------------------------------------------

function openModal(kind, ...children) {
  S.modal = kind;
  $("modal-box").replaceChildren(...children);
  $("modal").hidden = false;
  $("modal").dataset.kind = kind;
}

function closeModal() { S.modal = null; $("modal").hidden = true; }

function showRoundEnd(e, gameEnd) {
  if (!e) return;
  const reason = { domino: `${who(e.seat)} went out`, blocked: "the game is blocked", target: "target reached" }[e.reason] || e.reason;
  const rows = e.hands.map((h, i) => el("tr", {},
    el("td", { class: "who", text: nameOf(i) }),
    el("td", { class: "revealed" }, ...h.map((t) => { const [a, b] = halves(t); return domino(a, b, { cls: "small" }); })),
    el("td", { text: String(e.pips[i]) }), el("td", { text: String(e.points[i]) }),
    el("td", { class: "total", text: String(e.scores[i]) })));
  const title = gameEnd ? `Match over — ${gameEnd.winners.map(who).join(" & ")} won` : `Round ${e.round} over`;
  const buttons = el("div", { class: "modal-buttons", id: "ready-box" });
  openModal(gameEnd ? "over" : "round",
    el("h2", { text: title }), el("p", { text: `Round ${e.round}: ${reason}.` }),
    el("table", { class: "round-end" },
      el("thead", {}, el("tr", {}, ...["Player", "Tiles left", "Pips", "Points", "Total"].map((t) => el("th", { text: t })))),
      el("tbody", {}, ...rows)),
    ...(gameEnd ? [matchSummary({ ...S.view, log: S.log }, S.table.seats.map((s) => nameOf(s.seat)), { replayHref: `/replay?table=${tableId}`, again: S.view.seat !== null ? tableId : null })] : []),
    buttons);
  renderReady();
}

function renderReady() {
  const box = document.getElementById("ready-box");
  if (!box) return;
  const t = S.table;
  const seconds = Math.max(0, Math.ceil((S.pauseDeadline - Date.now()) / 1000));
  const nodes = [];
  if (S.modal === "over") {
    nodes.push(el("button", { onclick: closeModal, text: "Close" }), el("a", { href: "/", class: "button", text: "Back to the lobby" }));
  } else if (t.pause > 0 && mySeat() !== null) {
    const ready = t.ready.includes(mySeat());
    nodes.push(el("button", { class: "primary", id: "ready", disabled: ready,
      onclick: () => send({ type: "ready" }), text: ready ? "Waiting for the others…" : "Ready" }),
    el("span", { class: "hint", text: ` next round in ${seconds}s` }));
  } else {
    nodes.push(el("button", { class: "primary", id: "ready", onclick: closeModal, text: "Continue" }));
  }
  box.replaceChildren(...nodes);
}

setInterval(() => { if (S.modal === "round") renderReady(); }, 1000);

function showInvites() {
  const inv = S.info && S.info.invites;
  if (!inv) return;
  const link = (url, label, seat = "spectator") => {
    const input = el("input", { value: url, readonly: true, class: "link", "aria-label": label, "data-seat": seat });
    return el("div", { class: "invite" }, el("span", { class: "invite-label", text: label }), input,
      el("button", { class: "small", text: "Copy", onclick: async () => {
        input.select();
        try { await navigator.clipboard.writeText(url); toast("Link copied"); } catch { document.execCommand("copy"); }
      } }));
  };
  // server: only unclaimed seats have a link; a claimed seat can be re-invited (lost device)
  const rows = inv.filter((s) => s.kind === "human").map((s) => s.invite_url
    ? link(s.invite_url, `Seat ${s.seat}${s.name ? ` (${s.name})` : " (open)"}`, s.seat)
    : el("div", { class: "invite" }, el("span", { class: "invite-label", text: tr("Seat {seat} ({name}): taken", { seat: s.seat, name: s.name || "" }) }),
      el("button", { class: "small", "data-reinvite": s.seat, text: tr("New invite link"), onclick: async () => {
        try {
          await api(`/api/tables/${tableId}/seats/${s.seat}/invite`, { method: "POST" });
          S.info = await api(`/api/tables/${tableId}`);
          showInvites();
        } catch (e) { toast(e.message, "error"); }
      } })));
  openModal("invite", el("h2", { text: "Invite" }),
    el("p", { class: "hint", text: "Each link opens one seat: send it only to the friend who should sit there." }),
    ...rows, link(`${location.origin}/t/${tableId}`, "Spectators"),
    el("div", { class: "modal-buttons" }, el("button", { onclick: closeModal, text: "Close" })));
}

function joinForm(token) {
  const input = el("input", { id: "join-name", maxlength: 24, placeholder: "Your name", value: localStorage.getItem("dominohall.name") || "" });
  const err = el("p", { class: "error", role: "alert" });
  const go = async (ev) => {
    ev.preventDefault();
    try {
      await api(`/api/tables/${tableId}/join`, { method: "POST", body: { token, name: input.value } });
      localStorage.setItem("dominohall.name", input.value.trim());
      history.replaceState(null, "", `/t/${tableId}`);
      closeModal();
      start();
    } catch (e) { err.textContent = e.message; }
  };
  openModal("join", el("h2", { text: "Join the table" }),
    el("form", { onsubmit: go }, el("label", {}, "Display name ", input), err,
      el("div", { class: "modal-buttons" }, el("button", { class: "primary", id: "join-btn", type: "submit", text: "Take my seat" }))));
  input.focus();
}

// ---- start -----------------------------------------------------------------------------

async function start() {
  try { S.info = await api(`/api/tables/${tableId}`); } catch (e) {
    $("board").replaceChildren(el("p", { class: "error", text: `${e.message}. ` }, el("a", { href: "/", text: "Back to the lobby" })));
    return;
  }
  $("invite-btn").hidden = !S.info.invites;
  if (S.info.invites && S.info.status === "waiting" && !S.inviteShown) { S.inviteShown = true; showInvites(); }
  connect();
}

$("invite-btn").addEventListener("click", showInvites);
$("btn-draw").addEventListener("click", () => act("draw"));
$("btn-pass").addEventListener("click", () => act("pass"));
$("btn-end").addEventListener("click", () => act("end"));
$("modal").addEventListener("click", (ev) => { if (ev.target === $("modal") && S.modal !== "join") closeModal(); });
for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => {
    for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t === tab);
    $("log").hidden = tab.dataset.tab !== "log";
    $("scores").hidden = tab.dataset.tab !== "scores";
  });
}

const invite = new URLSearchParams(location.search).get("invite");
// server: an invite works once; this device may already hold the seat it opened
if (invite) {
  api(`/api/tables/${tableId}`).then((info) => {
    if (info.you && info.you.seat !== null) { history.replaceState(null, "", `/t/${tableId}`); start(); } else joinForm(invite);
  }).catch(() => joinForm(invite));
} else start();
