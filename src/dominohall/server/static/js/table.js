// The game page: one websocket, the seat's own view only.  Play by clicking a tile, then a
// lit target; by dragging a tile onto a lit target (pointer events: mouse, pen and touch);
// or from the keyboard (arrows choose a tile, Enter picks it, arrows choose a target,
// Enter plays; D draw, P pass, E end turn, H hint, Esc cancels).
import { againOffer, renderOffer, waitingForText } from "./again.js";
import { api, el, GAME_LABELS } from "./api.js";
import { chatCatchUp, chatLanguage, chatMessage, mountChat } from "./chat.js";
import { mountBoard, refitOnResize } from "./board.js";
import { domino, halves, handTile, setFace } from "./dominoes.js";
import { currentLanguage, initI18n, languageMenu, roundHow, t, tError, tEvent, tn, withLang } from "./i18n.js";
import { matchSummary } from "./summary.js";
import { initialState, reduce, sent } from "./table_state.js";
import { botLevel, listAnd, listOr, seatName, targetName as nameTarget, whoName } from "./words.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/")[2];
const REDUCED_MOTION = matchMedia("(prefers-reduced-motion: reduce)").matches;

// the game's state (table_state.js: what the server's messages make of it) and the page's own
let S = {
  ...initialState(), info: null,
  ws: null, retry: 500, retryAt: 0, retryTimer: 0, connected: false, everOpen: false,
  modal: null, inviteShown: false, drag: null, suppressClick: false,
  focusTile: null, refocusHand: false, wasMyTurn: false, autoTimer: 0,
  again: null, againAsked: null, tableAt: 0,      // Play again's notice (js/again.js)
};

// ---- preferences (remembered per browser) ----------------------------------------------

const PREFS_KEY = "dominohall.table.prefs";
const PREF_DEFAULTS = { size: "normal", face: "pips", sound: false, autoDraw: false, autoPass: false };
const SIZES = ["normal", "large", "huge"];

function loadPrefs() {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(PREFS_KEY) || "{}") || {}; } catch { saved = {}; }
  const p = { ...PREF_DEFAULTS, ...saved };
  if (!SIZES.includes(p.size)) p.size = "normal";
  if (p.face !== "numerals") p.face = "pips";
  for (const k of ["sound", "autoDraw", "autoPass"]) p[k] = p[k] === true;
  return p;
}

const P = loadPrefs();

function savePrefs() {
  try { localStorage.setItem(PREFS_KEY, JSON.stringify(P)); } catch { /* private mode */ }
  applyPrefs();
  render();
}

function applyPrefs() {
  document.body.dataset.size = P.size;
  document.body.dataset.face = P.face;
  setFace(P.face);
}

// ---- helpers ---------------------------------------------------------------------------

function mySeat() { return S.view ? S.view.seat : null; }

function nameOf(seat) { return seatName(S.table && S.table.seats, seat); }

function words() { return { game: S.view ? S.view.game : null, seat: mySeat(), nameOf }; }

function who(seat) { return whoName(seat, words()); }

/** A log event in the player's language, said again from its fields (names for seats). */
function logText(e) {
  return tEvent(e, { seat: mySeat(), nameOf, game: S.view ? S.view.game : null });
}

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

/** What a player calls a target: "Ana's train", "the Mexican train", "the left end". */
function targetName(id) { return nameTarget(id, words()); }

function describeAction(text) {
  const a = parseAction(text);
  if (a.kind === "play") return a.target === "lead" ? t("lead {tile}", { tile: a.tile }) : t("{tile} on {target}", { tile: a.tile, target: targetName(a.target) });
  return { draw: t("draw a tile"), pass: t("pass"), end: t("end the turn") }[a.kind] || text;
}

function toast(text, kind = "") {
  const n = el("div", { class: `toast ${kind}`, text });
  $("toasts").appendChild(n);
  setTimeout(() => n.remove(), 4000);
}

function say(text, kind = "") {
  $("msg").textContent = text;
  $("msg").className = `msg ${kind}`;
}

function speak(text) {                       // for screen readers: a polite live region
  const sr = $("sr");
  sr.textContent = "";
  setTimeout(() => { sr.textContent = text; }, 30);
}

// ---- the page's fixed text -------------------------------------------------------------

function staticText() {
  document.title = t("dominohall — table");
  $("invite-btn").textContent = t("Invite");
  $("conn").setAttribute("aria-label", t("connecting"));
  $("btn-settings").textContent = t("Settings");
  $("btn-draw").textContent = t("Draw");
  $("btn-pass").textContent = t("Pass");
  $("btn-end").textContent = t("End turn");
  $("btn-hint").textContent = t("Hint");
  $("btn-reconnect").textContent = t("Reconnect now");
  $("tab-log").textContent = t("Log");
  $("tab-scores").textContent = t("Scores");
  $("board").setAttribute("aria-label", t("board"));
  $("players").setAttribute("aria-label", t("players"));
  $("log").setAttribute("aria-label", t("log"));
  $("scores").setAttribute("aria-label", t("score sheet"));
  $("me").setAttribute("aria-label", t("your hand"));
  $("hand").setAttribute("aria-label", t("your tiles"));
  $("keys").textContent = t("Keys: ← → choose a tile, Enter picks it; ← → choose where it goes, Enter plays. D draw, P pass, E end turn, H hint, Esc cancels.");
  $("settings-title").textContent = t("Settings");
  $("lbl-size").textContent = t("Tile size");
  $("lbl-face").textContent = t("Tile faces");
  $("lbl-sound").textContent = t("Sound when it is your turn");
  $("lbl-auto-draw").textContent = t("Draw automatically when drawing is all I can do");
  $("lbl-auto-pass").textContent = t("Pass automatically when passing is all I can do");
  $("settings-close").textContent = t("Close");
  const size = $("set-size");
  size.replaceChildren(el("option", { value: "normal", text: t("Normal") }),
    el("option", { value: "large", text: t("Large") }), el("option", { value: "huge", text: t("Extra large") }));
  $("set-face").replaceChildren(el("option", { value: "pips", text: t("Pips") }),
    el("option", { value: "numerals", text: t("Numerals") }));
}

function syncSettings() {
  $("set-size").value = P.size;
  $("set-face").value = P.face;
  $("set-sound").checked = P.sound;
  $("set-auto-draw").checked = P.autoDraw;
  $("set-auto-pass").checked = P.autoPass;
}

function toggleSettings(open = $("settings").hidden) {
  $("settings").hidden = !open;
  $("btn-settings").setAttribute("aria-expanded", String(open));
  if (open) { syncSettings(); $("set-size").focus(); } else $("btn-settings").focus();
}

// ---- connection ------------------------------------------------------------------------

function connect() {
  clearTimeout(S.retryTimer);
  if (S.ws) { S.ws.onclose = null; try { S.ws.close(); } catch { /* already closed */ } }
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${tableId}`);
  S.ws = ws;
  ws.onopen = () => {
    const back = S.everOpen && !S.connected;
    S.retry = 500; S.connected = true; S.everOpen = true;
    renderConn();
    if (back) { toast(t("Reconnected")); chatCatchUp(); }
  };
  ws.onclose = () => {
    if (S.ws !== ws) return;
    S.connected = false;
    S.retryAt = Date.now() + S.retry;
    S.retryTimer = setTimeout(connect, S.retry);
    S.retry = Math.min(S.retry * 2, 8000);
    S.pending = false;
    renderConn();
  };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "chat") chatMessage(m.message); else onMessage(m);
  };
}

function renderConn() {
  const dot = $("conn"), banner = $("conn-banner");
  dot.className = `conn ${S.connected ? "on" : "off"}`;
  dot.setAttribute("aria-label", S.connected ? t("connected") : t("not connected"));
  dot.title = dot.getAttribute("aria-label");
  if (S.connected || !S.everOpen) { banner.hidden = true; return; }
  const left = Math.max(0, Math.ceil((S.retryAt - Date.now()) / 1000));
  $("conn-text").textContent = left > 0
    ? tn("Connection lost. Reconnecting in {n} second…", "Connection lost. Reconnecting in {n} seconds…", left)
    : t("Connection lost. Reconnecting…");
  banner.dataset.seconds = left;
  banner.hidden = false;
}

setInterval(() => { if (!S.connected && S.everOpen) renderConn(); }, 250);

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) { S.ws.send(JSON.stringify(msg)); return true; }
  say(t("Not connected — reconnecting…"), "error");
  return false;
}

function onMessage(m) {
  if (m.type === "again") { S.again = againOffer(m.table, m.again, Date.now()); renderAgain(); return; }
  const { state, effects } = reduce(S, m, Date.now());
  S = state;
  if (m.type === "state" || m.type === "table") S.tableAt = Date.now();
  for (const fx of effects) {
    if (fx.type === "render") render();
    else if (fx.type === "notice") toast(noticeText(fx.notice), "alert");
    else if (fx.type === "event") announce(fx.event);
    else if (fx.type === "round_end") {
      for (const n of document.querySelectorAll(".toast.alert")) n.remove();   // the notices end with the round
      showRoundEnd(fx.event, fx.gameEnd);
    } else if (fx.type === "pause_over") { if (S.modal === "round") closeModal(); }
    else if (fx.type === "hint") speak($("hint-text").textContent);
    else if (fx.type === "error") { say(tError(fx.error), "error"); toast(tError(fx.error), "error"); }
  }
  if (m.type === "state" || m.type === "table") {
    renderFairness(S.table);
    if (S.modal === "round") renderReady();
    askAgain();
  }
}

/** A Play again table already made (a page opened after it): its notice, from its info. */
async function askAgain() {
  const next = S.table && S.table.next_table;
  if (!next || S.againAsked === next || mySeat() === null) return;
  S.againAsked = next;
  try {
    const info = await api(`/api/tables/${encodeURIComponent(next)}`);
    if (info.again && !S.again) { S.again = againOffer(next, info.again, Date.now()); renderAgain(); }
  } catch { S.againAsked = null; }
}

function renderAgain() {
  renderOffer($("again-offer"), S.again, mySeat(), tableId);
  if (S.table && S.table.again && (S.table.again.reserved || []).length) renderBanner();
}

setInterval(renderAgain, 500);

function announce(e) {
  if (e.type === "last_tile") {
    toast(e.seat === mySeat() ? t("You have one tile left!") : t("{name} has one tile left!", { name: nameOf(e.seat) }), "alert");
  }
  if (e.type === "play" && e.seat !== mySeat()) speak(logText(e));
}

// ---- actions ---------------------------------------------------------------------------

function act(text) {
  if (S.pending || !S.view) return;
  if (!S.view.legal_actions.includes(text)) { say(t("{action} is not legal now", { action: text }), "error"); return; }
  if (send({ type: "action", action: text, version: S.view.version })) {
    const active = document.activeElement;
    S.refocusHand = !!active && ($("hand").contains(active) || $("board").contains(active) || active.closest?.(".buttons"));
    S = sent(S);
    say("");
    render();
  }
}

function clickTile(tile) {
  if (S.suppressClick) return;              // the click that ends a drag
  S.focusTile = tile;
  const mine = plays().filter((a) => a.tile === tile);
  if (!S.view.legal_actions.length) { say(S.view.seat === null ? "" : t("It is not your turn."), ""); return; }
  if (!mine.length) { say(t("{tile} has nowhere to go.", { tile }), "error"); S.selected = null; render(); return; }
  if (S.selected === tile && mine.length === 1) { act(mine[0].text); return; }  // tap twice: play
  S.selected = S.selected === tile ? null : tile;
  say(S.selected ? t("Now click a lit target (or press Enter on one).") : "");
  render();
}

function clickTarget(target) {
  if (S.suppressClick) return;
  if (!S.selected) { say(t("Pick a tile from your hand first."), ""); return; }
  const a = plays().find((p) => p.tile === S.selected && p.target === target);
  if (a) act(a.text); else say(t("{tile} cannot go there.", { tile: S.selected }), "error");
}

function litTargets() {
  return new Set(plays().filter((a) => a.tile === S.selected).map((a) => a.target));
}

// ---- hints -----------------------------------------------------------------------------

function hintsAllowed() { return !!(S.table && S.table.hints); }

function askHint() {
  if (!S.view || !S.view.legal_actions.length || !hintsAllowed() || S.hintAsked !== null) return;
  if (send({ type: "hint", lang: currentLanguage() })) {   // the why, in the page's language
    S.hintAsked = S.view.version;
    renderHint();
  }
}

function renderHint() {
  const box = $("hint-text"), btn = $("btn-hint");
  const v = S.view;
  btn.hidden = !hintsAllowed() || !v || v.seat === null || v.is_over;
  btn.disabled = S.pending || !v || !v.legal_actions.length || S.hintAsked !== null;
  btn.textContent = S.hintAsked !== null ? t("Thinking…") : t("Hint");
  if (S.hint) {
    box.textContent = t("Hint: {action} — {why}", { action: describeAction(S.hint.action), why: niceText(S.hint.why) });
    box.dataset.action = S.hint.action;
    box.hidden = false;
  } else {
    box.textContent = "";
    delete box.dataset.action;
    box.hidden = true;
  }
  for (const id of ["btn-draw", "btn-pass", "btn-end"]) {
    $(id).classList.toggle("hinted", !!S.hint && S.hint.action === { "btn-draw": "draw", "btn-pass": "pass", "btn-end": "end" }[id]);
  }
}

function hintedTarget() {
  if (!S.hint) return null;
  const a = parseAction(S.hint.action);
  return a.kind === "play" && a.tile === S.selected ? a.target : null;
}

// ---- automatic draw and pass (a player with no choice) ---------------------------------

function maybeAuto() {
  clearTimeout(S.autoTimer);
  const v = S.view;
  if (!v || S.pending || !S.table || S.table.pause > 0 || v.legal_actions.length !== 1) return;
  const only = v.legal_actions[0];
  if (!((only === "draw" && P.autoDraw) || (only === "pass" && P.autoPass))) return;
  const version = v.version;
  S.autoTimer = setTimeout(() => {
    if (S.view && S.view.version === version && !S.pending) {
      say(only === "draw" ? t("Nothing fits: drawing for you.") : t("Nothing fits and nothing to draw: passing for you."));
      act(only);
    }
  }, 450);
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
  const tg = targetAt(ev.clientX, ev.clientY);
  for (const n of document.querySelectorAll(".drop-hover")) if (n !== tg) n.classList.remove("drop-hover");
  if (tg && tg.classList.contains("lit")) tg.classList.add("drop-hover");
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
  d.ghost.setAttribute("aria-hidden", "true");
  d.ghost.style.transform = `translate(${d.x}px, ${d.y}px)`;
  document.body.appendChild(d.ghost);
  document.body.classList.add("dragging");
  say(t("Drop it on a lit target."));
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
  const tg = ev.type === "pointerup" ? targetAt(ev.clientX, ev.clientY) : null;
  const a = tg && tg.classList.contains("lit")
    && plays().find((p) => p.tile === d.tile && p.target === tg.dataset.target);
  if (a) { act(a.text); return; }
  if (tg) say(t("{tile} cannot go there.", { tile: d.tile }), "error");
  else if (ev.type === "pointerup") say(t("Drop it on a lit target — or click one."));
  else say("");
  render();
}

document.addEventListener("pointermove", dragMove, { passive: false });
document.addEventListener("pointerup", dragEnd);
document.addEventListener("pointercancel", dragEnd);

// ---- keyboard --------------------------------------------------------------------------

function handNodes() { return [...$("hand").querySelectorAll("svg.domino")]; }
function litNodes() { return [...$("board").querySelectorAll("[data-target].lit")]; }

function moveFocus(nodes, current, step) {
  if (!nodes.length) return null;
  let i = nodes.indexOf(current);
  if (step === "first") i = 0;
  else if (step === "last") i = nodes.length - 1;
  else i = i < 0 ? 0 : (i + step + nodes.length) % nodes.length;
  nodes[i].focus();
  return nodes[i];
}

const STEPS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: "first", End: "last" };

function tileKey(ev, tile) {
  if (ev.key in STEPS) {
    ev.preventDefault();
    const n = moveFocus(handNodes(), ev.currentTarget, STEPS[ev.key]);
    if (n) { S.focusTile = n.dataset.tile; rovingHand(); }
  } else if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault();
    clickTile(tile);
    if (S.selected === tile) {
      const lit = litNodes();
      const hinted = lit.find((n) => n.classList.contains("hinted"));
      (hinted || lit[0])?.focus();
    }
  }
}

function targetKey(ev, target) {
  if (ev.key in STEPS) {
    ev.preventDefault();
    moveFocus(litNodes(), ev.currentTarget, STEPS[ev.key]);
  } else if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault();
    clickTarget(target);
  }
}

function rovingHand() {
  const nodes = handNodes();
  const focus = nodes.find((n) => n.dataset.tile === S.focusTile) || nodes.find((n) => n.classList.contains("playable")) || nodes[0];
  for (const n of nodes) n.setAttribute("tabindex", n === focus ? "0" : "-1");
}

document.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || S.modal) return;
  const tag = ev.target && ev.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (ev.key === "Escape") {
    if (!$("settings").hidden) { toggleSettings(false); return; }
    if (S.selected) {
      const back = S.selected;
      S.selected = null; say(""); render();
      handNodes().find((n) => n.dataset.tile === back)?.focus();
    }
    return;
  }
  const button = { d: "btn-draw", p: "btn-pass", e: "btn-end", h: "btn-hint" }[ev.key.toLowerCase()];
  if (button && !$(button).hidden && !$(button).disabled) { ev.preventDefault(); $(button).click(); }
});

// ---- rendering -------------------------------------------------------------------------

function render() {
  if (!S.view) return;
  const v = S.view;
  const myTurn = v.legal_actions.length > 0 && !S.pending;
  document.body.dataset.version = v.version;
  document.body.dataset.myTurn = myTurn ? "1" : "0";
  document.body.dataset.over = v.is_over ? "1" : "0";
  document.body.dataset.seat = v.seat === null ? "spectator" : v.seat;
  const label = t(GAME_LABELS[v.game] || v.game);
  const roundTxt = v.game === "mexican_train" ? t("round {round}/{rounds}", { round: v.round, rounds: v.rounds }) : t("hand {n}", { n: v.round });
  $("title").textContent = t("{game} · {round}", { game: label, round: roundTxt });
  $("status").textContent = S.table.status === "waiting" ? t("waiting for players")
    : v.is_over ? t("match over") : tn("boneyard {n}", "boneyard {n}", v.boneyard);
  $("hints-badge").textContent = hintsAllowed() ? t("hints allowed") : t("hints off");
  $("hints-badge").hidden = false;
  renderTitle(myTurn);
  renderBanner();
  renderPlayers();
  renderBoard();
  renderHand();
  renderHint();
  renderNotices();
  renderLog();
  renderScores();
  renderClock();
  renderConn();
  animateLast();
  maybeAuto();
}

/** "Your turn" in the tab's title (and a short tone, when the player asked for one). */
function renderTitle(myTurn) {
  const v = S.view;
  const base = t("{game} — dominohall", { game: t(GAME_LABELS[v.game] || v.game) });
  document.title = myTurn ? t("▶ Your turn — {title}", { title: base }) : base;
  if (myTurn && !S.wasMyTurn) {
    if (P.sound) beep();
    speak(t("Your turn"));
  }
  S.wasMyTurn = myTurn;
}

let audioCtx = null;

/** A short two-note chime made with WebAudio (no sound file is fetched). */
function beep() {
  try {
    audioCtx = audioCtx || new (window.AudioContext || window.webkitAudioContext)();
    const now = audioCtx.currentTime;
    for (const [i, freq] of [[0, 660], [1, 880]]) {
      const osc = audioCtx.createOscillator(), gain = audioCtx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      const at = now + i * 0.14;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.22);
      osc.connect(gain).connect(audioCtx.destination);
      osc.start(at);
      osc.stop(at + 0.25);
    }
    document.body.dataset.chimes = String(Number(document.body.dataset.chimes || 0) + 1);
  } catch { /* no audio device: the title still says it */ }
}

// The turn timer: the server counts, the page only shows what is left.
function renderClock() {
  const tm = S.table && S.table.turn;
  const clock = $("clock");
  if (!tm || !S.view || S.view.is_over) { clock.hidden = true; return; }
  const left = Math.max(0, Math.ceil((S.turnDeadline - Date.now()) / 1000));
  const mine = tm.seat === mySeat();
  const text = left > 0 ? t("{n}s", { n: left }) : t("time's up");
  clock.hidden = false;
  clock.textContent = mine ? (left > 0 ? t("{n}s left", { n: left }) : t("time's up: the stand-in bot plays"))
    : t("{name}: {time}", { name: nameOf(tm.seat), time: text });
  clock.className = `clock${mine ? " mine" : ""}${left <= 5 ? " low" : ""}`;
  clock.dataset.seat = tm.seat;
  clock.dataset.seconds = left;
  for (const n of document.querySelectorAll(".pclock")) n.textContent = text;
}

setInterval(renderClock, 250);

function noticeText(n) {
  return n.type === "reinvited" ? t("{name} was re-invited by the host", { name: nameOf(n.seat) }) : "";
}

function renderFairness(tb) {
  const f = tb.fairness;
  let box = $("fair");
  if (!box) { box = el("p", { id: "fair", class: "hint fair" }); $("players").after(box); }
  if (!f || !f.commitment) { box.replaceChildren(); return; }
  const nodes = [t("Deal commitment {hash}", { hash: `${f.commitment.slice(0, 16)}…` })];
  if (f.seed) {
    nodes.push(" · ", el("a", { href: `/api/tables/${tableId}/record`, download: "", text: t("download the record (seed revealed)") }));
  }
  box.title = f.commitment;
  box.replaceChildren(...nodes);
}

function renderBanner() {
  const b = $("banner");
  const tb = S.table;
  const kept = waitingForText(tb, listAnd(((tb.again || {}).reserved || []).map((s) => nameOf(s))), Date.now(), S.tableAt);
  if (kept) {
    b.textContent = kept;
    b.hidden = false;
  } else if (tb.status === "waiting") {
    const open = tb.seats.filter((s) => s.kind === "human" && !s.name).map((s) => t("Player {n}", { n: s.seat + 1 }));
    b.textContent = S.info && S.info.invites
      ? t("Waiting for {seats} to join. Send them their invite link (Invite).", { seats: listAnd(open) })
      : t("Waiting for {seats} to join.", { seats: listAnd(open) });
    b.hidden = false;
  } else if (mySeat() === null && !S.view.is_over) {
    b.textContent = lineGame() ? t("You are watching: hands stay hidden until the hand ends.")
      : t("You are watching: hands stay hidden until the round ends.");
    b.hidden = false;
  } else if ((tb.notices || []).length) {
    b.textContent = noticeText(tb.notices[tb.notices.length - 1]);
    b.hidden = false;
  } else b.hidden = true;
}

function renderPlayers() {
  const v = S.view;
  const cards = S.table.seats.map((s) => {
    const i = s.seat;
    const badges = [];
    if (i === mySeat()) badges.push(el("span", { class: "badge you", text: t("you") }));
    if (s.kind === "bot") badges.push(el("span", { class: "badge bot", text: t("bot · {level}", { level: botLevel(s.bot) }) }));
    // after the match nobody plays for anyone: not "away · bot plays"
    else if (s.controller === "away" && !v.is_over) badges.push(el("span", { class: "badge away", text: t("away · bot plays") }));
    else if (!s.connected && s.name) badges.push(el("span", { class: "badge off", text: t("offline") }));
    if (!s.name && s.kind === "human") badges.push(el("span", { class: "badge off", text: t("open seat") }));
    if (v.teams) badges.push(el("span", { class: "badge", text: i % 2 ? t("team B") : t("team A") }));
    if (v.hand_sizes[i] === 1 && !v.is_over) badges.push(el("span", { class: "badge one-left", text: t("one tile left") }));
    const turn = v.current_seat === i && !v.is_over;
    return el("div", { class: `player${turn ? " turn" : ""}`, "data-seat": i },
      el("div", { class: "pname" }, turn ? el("span", { class: "turn-mark", "aria-label": t("to play"), text: "▶ " }) : "", nameOf(i), " ", ...badges,
        S.table.turn && S.table.turn.seat === i ? el("span", { class: "pclock" }) : null),
      el("div", { class: "pstats" },
        el("span", { class: "tiles-left", text: tn("{n} tile", "{n} tiles", v.hand_sizes[i]) }),
        el("span", { class: "score", text: t("score {n}", { n: v.scores[i] }) })));
  });
  $("players").replaceChildren(...cards,
    el("div", { class: "boneyard", text: tn("Boneyard: {n} tile", "Boneyard: {n} tiles", v.boneyard) }));
}

/** "X has one tile left" while it is true in this round; gone at the round's end. */
function renderNotices() {
  const v = S.view;
  const box = $("notices");
  const inRound = !v.is_over && !(S.table.pause > 0);
  const items = inRound ? v.hand_sizes.map((n, i) => [n, i]).filter(([n]) => n === 1).map(([, i]) =>
    el("span", { class: "notice", "data-seat": i,
      text: i === mySeat() ? t("You have one tile left!") : t("{name} has one tile left!", { name: nameOf(i) }) })) : [];
  box.replaceChildren(...items);
  box.hidden = !items.length;
}

// The board: board.js draws it from the view (the same drawing as the replay and the
// analysis); the page lights the selected tile's targets and plays on the one clicked.
const WIDE = () => matchMedia("(min-width: 761px)").matches;

function renderBoard() {
  const v = S.view;
  const board = $("board");
  const focused = board.contains(document.activeElement) ? document.activeElement.dataset.target : null;
  mountBoard(board, v, { seat: mySeat(), nameOf, log: S.log, lit: litTargets(), selected: S.selected,
    hinted: hintedTarget(), onTarget: clickTarget, onTargetKey: targetKey, fitHeight: WIDE() });
  if (focused) board.querySelector(`[data-target="${focused}"]`)?.focus();
}

// Refit when the board's room changes (on a phone the board's height follows the layout,
// so only its width counts there: no refit loop).
refitOnResize($("board"), { fitHeight: WIDE });

/** A bot's (or another player's) tile travels briefly from the mover's card to its place. */
function animateLast() {
  const e = S.animate;
  S.animate = null;
  if (!e || REDUCED_MOTION) return;
  const node = $("board").querySelector(`svg.domino[data-tile="${e.tile}"]`);
  const card = $("players").querySelector(`.player[data-seat="${e.seat}"]`);
  if (!node || !card || !node.animate) return;
  const from = card.getBoundingClientRect(), to = node.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  node.classList.add("arriving");
  $("board").dataset.animated = e.tile;
  const anim = node.animate([{ transform: `translate(${dx}px, ${dy}px) scale(1.4)`, opacity: 0.4 },
    { transform: "translate(0, 0) scale(1)", opacity: 1 }], { duration: 420, easing: "ease-out" });
  anim.onfinish = () => node.classList.remove("arriving");
}

function handLabel(tile, targets) {
  if (!S.view.legal_actions.length) return tile;
  if (!targets.length) return t("{tile}, no play", { tile });
  if (targets.includes("lead")) return t("{tile}, can lead", { tile });
  return t("{tile}, plays on {targets}", { tile, targets: listOr(targets.map(targetName)) });
}

function renderHand() {
  const v = S.view;
  const hand = $("hand");
  const legal = new Set(v.legal_actions);
  const options = {};
  for (const a of plays()) (options[a.tile] = options[a.tile] || []).push(a.target);
  const hadFocus = hand.contains(document.activeElement) || (S.refocusHand && document.activeElement === document.body);
  if (v.hand === null) {
    hand.replaceChildren(el("span", { class: "hint", text: t("Spectating.") }));
  } else {
    const drawn = v.turn && v.turn.drawn;
    const hinted = S.hint && parseAction(S.hint.action).kind === "play" ? parseAction(S.hint.action).tile : null;
    hand.replaceChildren(...v.hand.map((tile) => {
      const cls = [options[tile] ? "playable" : "", S.selected === tile ? "selected" : "", drawn === tile ? "new" : "",
        hinted === tile ? "hinted" : ""].join(" ").replace(/\s+/g, " ").trim();
      const d = handTile(tile, { cls });
      d.setAttribute("role", "button");
      d.setAttribute("aria-label", handLabel(tile, options[tile] || []));
      d.setAttribute("aria-pressed", S.selected === tile ? "true" : "false");
      d.addEventListener("click", () => clickTile(tile));
      d.addEventListener("pointerdown", (ev) => tilePointerDown(ev, tile));
      d.addEventListener("keydown", (ev) => tileKey(ev, tile));
      d.addEventListener("focus", () => { S.focusTile = tile; });
      return d;
    }));
    rovingHand();
    if (hadFocus || S.refocusHand) {
      const nodes = handNodes();
      const n = nodes.find((x) => x.dataset.tile === S.focusTile) || nodes.find((x) => x.classList.contains("playable")) || nodes[0];
      if (n && !S.pending) { n.focus(); S.refocusHand = false; }
    }
  }
  for (const [id, a] of [["btn-draw", "draw"], ["btn-pass", "pass"], ["btn-end", "end"]]) {
    $(id).disabled = S.pending || !legal.has(a);
    $(id).hidden = v.hand === null;
  }
  $("btn-end").hidden = !legal.has("end");          // only inside Mexican Train's first-turn chain
  let turn;
  if (v.is_over) turn = t("Match over — {winners} won", { winners: listAnd(v.winners.map(who)) });
  else if (S.table.status === "waiting") turn = t("Waiting for players to join");
  else if (v.legal_actions.length) turn = S.pending ? "…" : t("Your turn");
  else turn = t("{name}'s turn", { name: nameOf(v.current_seat) });
  if (!v.is_over && S.table.pause > 0) turn = lineGame() ? t("{turn} (hand summary)", { turn }) : t("{turn} (round summary)", { turn });
  $("turn").textContent = turn;
  $("turn").className = `turn${v.legal_actions.length ? " mine" : ""}`;
  $("keys").hidden = v.hand === null;
}

function renderLog() {
  const box = $("log");
  const items = S.log.slice(-200).map((e) => el("div", { class: `ev ev-${e.type}`, text: logText(e) }));
  box.replaceChildren(...items);
  box.scrollTop = box.scrollHeight;
}

function renderScores() {
  const v = S.view;
  const ends = S.log.filter((e) => e.type === "round_end");
  const head = el("tr", {}, el("th", { text: v.game === "mexican_train" ? t("Round") : t("Hand") }),
    ...S.table.seats.map((s) => el("th", { text: nameOf(s.seat) })));
  const rows = ends.map((e) => el("tr", {}, el("td", { text: String(e.round) }),
    ...e.points.map((p) => el("td", { text: String(p) }))));
  const total = el("tr", { class: "total" }, el("td", { text: t("Total") }), ...v.scores.map((s) => el("td", { text: String(s) })));
  $("scores").replaceChildren(el("table", {}, el("thead", {}, head), el("tbody", {}, ...rows, total)));
}

// ---- modals ----------------------------------------------------------------------------

function openModal(kind, ...children) {
  S.modal = kind;
  $("modal-box").replaceChildren(...children);
  $("modal").hidden = false;
  $("modal").dataset.kind = kind;
  const focusable = $("modal-box").querySelector("input, button, a");
  if (focusable) setTimeout(() => focusable.focus(), 0);
}

function closeModal() { S.modal = null; $("modal").hidden = true; }

function showRoundEnd(e, gameEnd) {
  if (!e) return;
  const hand = lineGame();
  const rows = e.hands.map((h, i) => el("tr", {},
    el("td", { class: "who", text: nameOf(i) }),
    el("td", { class: "revealed" }, ...h.map((tile) => { const [a, b] = halves(tile); return domino(a, b, { cls: "small" }); })),
    el("td", { text: String(e.pips[i]) }), el("td", { text: String(e.points[i]) }),
    el("td", { class: "total", text: String(e.scores[i]) })));
  const title = gameEnd ? t("Match over — {winners} won", { winners: listAnd(gameEnd.winners.map(who)) })
    : hand ? t("Hand {n} over", { n: e.round }) : t("Round {n} over", { n: e.round });
  const buttons = el("div", { class: "modal-buttons", id: "ready-box" });
  openModal(gameEnd ? "over" : "round",
    el("h2", { id: "modal-title", text: title }), el("p", { class: "round-how", text: roundHow(e, { seat: mySeat(), nameOf, game: S.view.game }) }),
    el("table", { class: "round-end" },
      el("thead", {}, el("tr", {}, ...[t("Player"), t("Tiles left"), t("Pips"), t("Points"), t("Total")].map((x) => el("th", { text: x })))),
      el("tbody", {}, ...rows)),
    ...(gameEnd ? [matchSummary({ ...S.view, log: S.log }, S.table.seats.map((s) => nameOf(s.seat)), { replayHref: `/replay?table=${tableId}`, again: S.view.seat !== null ? tableId : null })] : []),
    buttons);
  renderReady();
}

/** Mexican Train plays rounds, the line games (All Fives, Draw, Block) hands. */
function lineGame() { return !!(S.view && S.view.game && S.view.game !== "mexican_train"); }

/** "next hand in 5 seconds", or "the last round starts in 5 seconds" before the last one. */
function nextIn(seconds) {
  const v = S.view;
  const ends = S.log.filter((e) => e.type === "round_end");
  const done = ends.length ? ends[ends.length - 1].round : 0;
  const total = v.game === "mexican_train" ? v.rounds : (v.options && v.options.hands) || null;
  const last = total && done + 1 === total;
  if (lineGame()) {
    return last ? tn("the last hand starts in {n} second", "the last hand starts in {n} seconds", seconds)
      : tn("next hand in {n} second", "next hand in {n} seconds", seconds);
  }
  return last ? tn("the last round starts in {n} second", "the last round starts in {n} seconds", seconds)
    : tn("next round in {n} second", "next round in {n} seconds", seconds);
}

function renderReady() {
  const box = document.getElementById("ready-box");
  if (!box) return;
  const tb = S.table;
  const seconds = Math.max(0, Math.ceil((S.pauseDeadline - Date.now()) / 1000));
  const nodes = [];
  if (S.modal === "over") {
    nodes.push(el("button", { onclick: closeModal, text: t("Close") }), el("a", { href: "/", class: "button", text: t("Back to the lobby") }));
  } else if (tb.pause > 0 && mySeat() !== null) {
    const ready = tb.ready.includes(mySeat());
    nodes.push(el("button", { class: "primary", id: "ready", disabled: ready,
      onclick: () => send({ type: "ready" }), text: ready ? t("Waiting for the others…") : t("Ready") }),
    el("span", { class: "hint", id: "next-in", text: nextIn(seconds) }));
  } else {
    nodes.push(el("button", { class: "primary", id: "ready", onclick: closeModal, text: t("Continue") }));
  }
  const hadFocus = box.contains(document.activeElement);
  box.replaceChildren(...nodes);
  if (hadFocus) box.querySelector("button:not([disabled])")?.focus();
}

setInterval(() => { if (S.modal === "round") renderReady(); }, 1000);

function showInvites() {
  const inv = S.info && S.info.invites;
  if (!inv) return;
  const link = (url, label, seat = "spectator") => {
    const input = el("input", { value: url, readonly: true, class: "link", "aria-label": label, "data-seat": seat });
    return el("div", { class: "invite" }, el("span", { class: "invite-label", text: label }), input,
      el("button", { class: "small", text: t("Copy"), "aria-label": t("Copy the link for {who}", { who: label }), onclick: async () => {
        input.select();
        try { await navigator.clipboard.writeText(url); toast(t("Link copied")); } catch { document.execCommand("copy"); }
      } }));
  };
  // only unclaimed seats have a link; a claimed seat can be re-invited (a lost device)
  const kept = new Set((S.info.again || {}).reserved || []);      // Play again: not the host's to give
  const rows = inv.filter((s) => s.kind === "human").map((s) => kept.has(s.seat)
    ? el("div", { class: "invite" }, el("span", { class: "invite-label", text: t("Player {n} ({name}): kept for them until the countdown ends", { n: s.seat + 1, name: s.name || "" }) }))
    : s.invite_url
    ? link(s.invite_url, s.name ? t("Player {n} ({name})", { n: s.seat + 1, name: s.name }) : t("Player {n} (open)", { n: s.seat + 1 }), s.seat)
    : el("div", { class: "invite" }, el("span", { class: "invite-label", text: t("Player {n} ({name}): taken", { n: s.seat + 1, name: s.name || "" }) }),
      el("button", { class: "small", "data-reinvite": s.seat, text: t("New invite link"), onclick: async () => {
        try {
          await api(`/api/tables/${tableId}/seats/${s.seat}/invite`, { method: "POST", body: {} });
          S.info = await api(`/api/tables/${tableId}`);
          showInvites();
        } catch (e) { toast(e.message, "error"); }
      } })));
  openModal("invite", el("h2", { id: "modal-title", text: t("Invite") }),
    el("p", { class: "hint", text: t("Each link opens one seat: send it only to the friend who should sit there.") }),
    ...rows, link(`${location.origin}/t/${tableId}`, t("Spectators")),
    el("div", { class: "modal-buttons" }, el("button", { onclick: closeModal, text: t("Close") })));
}

/** What the join form says about the table: the game and who is already seated. */
function tableAbout(info) {
  if (!info) return [];
  const game = GAME_LABELS[info.game] || info.game;
  const seated = (info.seats || []).filter((s) => s.kind === "bot" || s.name)
    .map((s) => seatName(info.seats, s.seat));
  const host = info.invite && info.invite.host;
  const out = [el("p", { class: "join-game", text: host ? t("{host} invites you to a game of {game}.", { host, game }) : t("A game of {game}.", { game }) })];
  if (info.invite && info.invite.seat !== null && info.invite.seat !== undefined) {
    out.push(el("p", { class: "join-seat", text: t("The link invites you to sit as player {n}.", { n: info.invite.seat + 1 }) }));
  }
  if (seated.length) out.push(el("p", { class: "join-seated", text: t("Already at the table: {names}.", { names: listAnd(seated) }) }));
  return out;
}

/** An invite link that was used (or retired by a re-invite): said before any name form. */
function usedInvite(info) {
  openModal("join", el("h2", { id: "modal-title", text: t("This invite link has been used") }),
    el("p", { class: "used-invite", text: t("Someone has already taken the seat it opened. Ask the host for a new link, or watch the table.") }),
    ...tableAbout(info),
    el("div", { class: "modal-buttons" },
      el("button", { class: "primary", id: "watch-btn", onclick: () => { history.replaceState(null, "", withLang(`/t/${tableId}`)); closeModal(); start(); }, text: t("Watch the table") }),
      el("a", { href: "/", class: "button", text: t("Back to the lobby") })));
}

function joinForm(token, info = null) {
  const input = el("input", { id: "join-name", maxlength: 24, placeholder: t("Your name"), value: localStorage.getItem("dominohall.name") || "" });
  const err = el("p", { class: "error", role: "alert" });
  const go = async (ev) => {
    ev.preventDefault();
    try {
      await api(`/api/tables/${tableId}/join`, { method: "POST", body: { token, name: input.value } });
      localStorage.setItem("dominohall.name", input.value.trim());
      history.replaceState(null, "", withLang(`/t/${tableId}`));
      closeModal();
      start();
    } catch (e) { err.textContent = e.message; }
  };
  openModal("join", el("h2", { id: "modal-title", text: t("Join the table") }),
    ...tableAbout(info),
    el("form", { onsubmit: go }, el("label", {}, t("Display name"), " ", input), err,
      el("div", { class: "modal-buttons" }, el("button", { class: "primary", id: "join-btn", type: "submit", text: t("Take my seat") }))));
  input.focus();
}

// ---- start -----------------------------------------------------------------------------

async function start() {
  try { S.info = await api(`/api/tables/${tableId}`); } catch (e) {
    $("board").replaceChildren(el("p", { class: "error", text: `${e.message}. ` }, el("a", { href: "/", text: t("Back to the lobby") })));
    return;
  }
  $("invite-btn").hidden = !S.info.invites;
  const keptOnly = S.info.again && (S.info.again.reserved || []).length && !(S.info.invites || []).some((s) => s.invite_url);
  if (S.info.invites && S.info.status === "waiting" && !S.inviteShown && !keptOnly) { S.inviteShown = true; showInvites(); }
  connect();
  mountChat(document.querySelector(".side"), tableId, S.info.you);
}

function wire() {
  $("invite-btn").addEventListener("click", showInvites);
  $("btn-draw").addEventListener("click", () => act("draw"));
  $("btn-pass").addEventListener("click", () => act("pass"));
  $("btn-end").addEventListener("click", () => act("end"));
  $("btn-hint").addEventListener("click", askHint);
  $("btn-reconnect").addEventListener("click", () => { S.retry = 500; connect(); });
  $("btn-settings").addEventListener("click", () => toggleSettings());
  $("settings-close").addEventListener("click", () => toggleSettings(false));
  $("set-size").addEventListener("change", (ev) => { P.size = ev.target.value; savePrefs(); });
  $("set-face").addEventListener("change", (ev) => { P.face = ev.target.value; savePrefs(); });
  $("set-sound").addEventListener("change", (ev) => { P.sound = ev.target.checked; savePrefs(); if (P.sound) beep(); });
  $("set-auto-draw").addEventListener("change", (ev) => { P.autoDraw = ev.target.checked; savePrefs(); });
  $("set-auto-pass").addEventListener("change", (ev) => { P.autoPass = ev.target.checked; savePrefs(); });
  $("modal").addEventListener("click", (ev) => { if (ev.target === $("modal") && S.modal !== "join") closeModal(); });
  $("modal").addEventListener("keydown", (ev) => { if (ev.key === "Escape" && S.modal && S.modal !== "join") closeModal(); });
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => {
      for (const x of document.querySelectorAll(".tab")) {
        x.classList.toggle("active", x === tab);
        x.setAttribute("aria-selected", String(x === tab));
      }
      $("log").hidden = tab.dataset.tab !== "log";
      $("scores").hidden = tab.dataset.tab !== "scores";
    });
  }
}

async function main() {
  await initI18n();
  $("lang-slot").replaceChildren(languageMenu({ onChange: () => { staticText(); render(); chatLanguage(); } }));
  applyPrefs();
  staticText();
  wire();
  const invite = new URLSearchParams(location.search).get("invite");
  // an invite works once; this device may already hold the seat it opened
  if (invite) {
    api(`/api/tables/${tableId}?invite=${encodeURIComponent(invite)}`).then((info) => {
      if (info.you && info.you.seat !== null) { history.replaceState(null, "", withLang(`/t/${tableId}`)); start(); }
      else if (info.invite && !info.invite.valid) usedInvite(info);     // said at once, before any name
      else joinForm(invite, info);
    }).catch(() => joinForm(invite));
  } else start();
}

main();
