// The table's chat panel: the short phrases (each reader sees them in their own language),
// free text where the table allows it (the host switches it), a mute per player (this
// reader's only, kept for the tab) and the messages, which arrive over the table's
// websocket (table.js hands them to chatMessage) and are read over REST at the start and
// again after a reconnect. Players and spectators each read their own channel.
// Every text is set with textContent: a message's markup is shown, never run.
import { api, el } from "./api.js";
import { currentLanguage, t, tError } from "./i18n.js";

const MAX_TEXT = 200;
const C = { tableId: null, me: null, host: false, last: 0, seen: new Set(), names: {}, muted: new Set(),
  freeText: false, channel: "players", phrases: {}, box: null };
const $ = (id) => document.getElementById(id);

function muteKey() { return `dominohall.mute.${C.tableId}`; }   // i18n: not text
function loadMuted() {
  try { C.muted = new Set(JSON.parse(sessionStorage.getItem(muteKey()) || "[]").map(Number)); } catch { C.muted = new Set(); }
}
function saveMuted() {
  try { sessionStorage.setItem(muteKey(), JSON.stringify([...C.muted])); } catch { /* storage blocked */ }
}

function line(m) {
  return el("li", { class: m.seat === C.me && m.seat !== null ? "chat-msg mine" : "chat-msg", "data-seat": m.seat ?? "" },
    el("b", { class: "chat-name", text: m.name }), ": ",
    el("span", { class: "chat-text", text: (m.phrase && C.phrases[m.phrase]) || m.text }));   // a phrase in this page's language
}

function renderMessages() {
  const list = $("chat-list");
  if (!list) return;
  const shown = C.messages.filter((m) => m.seat === null || !C.muted.has(m.seat));
  list.replaceChildren(...shown.map(line));
  $("chat-empty").hidden = shown.length > 0;
  list.scrollTop = list.scrollHeight;
  renderMutes();
}

function renderMutes() {
  const box = $("chat-mutes");
  const seats = Object.keys(C.names).map(Number).filter((s) => s !== C.me).sort((a, b) => a - b);
  box.replaceChildren(...seats.map((s) => {
    const on = C.muted.has(s);
    return el("button", { type: "button", class: "small chat-mute", "aria-pressed": String(on),
      text: on ? t("Unmute {name}", { name: C.names[s] }) : t("Mute {name}", { name: C.names[s] }),
      onclick: () => { if (on) C.muted.delete(s); else C.muted.add(s); saveMuted(); renderMessages(); $("chat-mutes").querySelector(`[data-s="${s}"]`)?.focus(); },
      "data-s": s });
  }));
  box.hidden = seats.length === 0;
}

function add(m) {
  if (!m || C.seen.has(m.id)) return;
  C.seen.add(m.id);
  C.messages.push(m);
  C.messages.sort((a, b) => a.id - b.id);
  C.last = Math.max(C.last, m.id);
  if (m.seat !== null && m.seat !== undefined) C.names[m.seat] = m.name;
}

/** A message the websocket brought ({id, seat, name, phrase, text, time}). */
export function chatMessage(m) {
  if (!C.box) return;
  add(m);
  renderMessages();
  if (m.seat !== C.me && !(m.seat !== null && C.muted.has(m.seat))) {
    $("chat-sr").textContent = `${m.name}: ${m.text}`;
  }
}

function status(text) { $("chat-status").textContent = text; }

async function say(body) {
  status("");
  try {
    const r = await api(`/api/tables/${C.tableId}/chat`, { method: "POST", body });
    return r;
  } catch (e) {
    status(e.message || tError(e));
    return null;
  }
}

function renderForm() {
  $("chat-form").hidden = !C.freeText;
  const sw = $("chat-free");
  if (sw) sw.checked = C.freeText;
}

async function load() {
  const d = await api(`/api/tables/${C.tableId}/chat?after=${C.last}&lang=${encodeURIComponent(currentLanguage())}`);
  C.channel = d.channel;
  C.freeText = d.free_text;
  C.phrases = d.phrases;
  for (const m of d.messages) add(m);
}

function build() {
  const phrases = el("div", { class: "chat-phrases", role: "group", "aria-label": t("Quick phrases") },
    ...Object.entries(C.phrases).map(([code, text]) => el("button", { type: "button", class: "small",
      "data-phrase": code, text, onclick: () => say({ phrase: code }) })));
  const input = el("input", { id: "chat-input", type: "text", maxlength: MAX_TEXT, autocomplete: "off" });
  const form = el("form", { id: "chat-form", class: "chat-form", hidden: !C.freeText, onsubmit: async (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (await say({ text })) input.value = "";
  } }, el("label", { for: "chat-input", class: "sr-only", text: t("Message") }), input,
  el("button", { type: "submit", class: "small", text: t("Send") }));
  const host = C.host ? el("label", { class: "check chat-switch" },
    el("input", { type: "checkbox", id: "chat-free", checked: C.freeText, onchange: async (ev) => {
      try {
        const r = await api(`/api/tables/${C.tableId}/chat/settings`, { method: "POST", body: { free_text: ev.target.checked } });
        C.freeText = r.free_text;
      } catch (e) { status(e.message); ev.target.checked = C.freeText; }
      renderForm();
    } }), " ", t("Free text at this table")) : null;
  C.box = el("section", { id: "chat", class: "chat", "aria-labelledby": "chat-title" },
    el("h2", { id: "chat-title", text: C.channel === "players" ? t("Chat") : t("Spectators' chat") }),
    C.channel === "players" ? null : el("p", { class: "chat-note", text: t("The players do not read the spectators' chat.") }),
    el("ol", { id: "chat-list", class: "chat-list", tabindex: "0", "aria-label": t("Messages") }),
    el("p", { id: "chat-empty", class: "chat-note", text: t("No messages yet.") }),
    el("div", { id: "chat-mutes", class: "chat-mutes", hidden: true }),
    phrases, form, host,
    el("p", { id: "chat-status", class: "chat-status", role: "status" }),
    el("div", { id: "chat-sr", class: "sr-only", "aria-live": "polite" }));
  return C.box;
}

/** Mount the panel in `parent` for table `tableId`; `you` is the table's {seat, host}. */
export async function mountChat(parent, tableId, you) {
  if (C.box) return;
  C.tableId = tableId;
  C.me = you && you.seat !== undefined ? you.seat : null;
  C.host = Boolean(you && you.host);
  C.messages = [];
  loadMuted();
  try { await load(); } catch { return; }          // no chat (an old table): no panel
  parent.appendChild(build());
  renderMessages();
}

/** The page's language changed in place: the panel and the phrases in the new one. */
export async function chatLanguage() {
  if (!C.box) return;
  try { await load(); } catch { return; }
  const old = C.box;
  old.replaceWith(build());
  renderMessages();
}

/** After a reconnect: whatever was said while the socket was down. */
export async function chatCatchUp() {
  if (!C.box) return;
  try { await load(); renderMessages(); renderForm(); } catch { /* the next reconnect tries again */ }
}
