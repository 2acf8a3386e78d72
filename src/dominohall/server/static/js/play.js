// Quick play (/play): choose a game, how many players (or any) and rated or casual, then
// wait in the queue (/api/queue) with the count and the time on screen. The entry is the
// server's (this account's or this device's), so a reload finds it again; the page polls
// it every second and opens the table when the match is made. A casual wait can take bots
// for the empty seats after a while. Rated play needs an account (the account page).
import { api, el, GAME_LABELS } from "./api.js";
import { siteNav, startI18n } from "./chrome.js";
import { t, tn } from "./i18n.js";

// the queues' sizes (dominohall.community.queue.SIZES)
const SIZES = { mexican_train: [2, 8], all_fives: [2, 4], block: [2, 4], draw: [2, 4] };
const P = { me: null, timer: null, shownAt: 0, state: null, redirected: false };
const $ = (id) => document.getElementById(id);

function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function playersOptions(game) {
  const [lo, hi] = SIZES[game];
  const sel = $("qp-players");
  const was = sel.value;
  sel.replaceChildren(el("option", { value: "0", text: t("Any number") }),
    ...Array.from({ length: hi - lo + 1 }, (_, i) => el("option", { value: String(lo + i), text: String(lo + i) })));
  sel.value = [...sel.options].some((o) => o.value === was) ? was : "0";
}

function radio(name, value, label, checked, extra = {}) {
  const id = `qp-${name}-${value}`;
  return el("label", { class: "qp-choice", for: id },
    el("input", { type: "radio", name, id, value, checked, ...extra }), " ", label);
}

function form() {
  const logged = Boolean(P.me && P.me.name);
  const games = Object.keys(SIZES);
  const f = el("form", { id: "qp-form", class: "card qp-form", autocomplete: "off", onsubmit: join },
    el("h2", { text: t("Quick play") }),
    el("p", { class: "hint", text: t("Play with people who are looking for a game now.") }),
    el("fieldset", {}, el("legend", { text: t("Game") }),
      ...games.map((g, i) => radio("game", g, GAME_LABELS[g], i === 0, { onchange: () => playersOptions(g) }))),
    el("label", { class: "qp-row", for: "qp-players" }, t("Players"), " ",
      el("select", { id: "qp-players", name: "players" })),
    el("fieldset", {}, el("legend", { text: t("Kind of game") }),
      radio("rated", "casual", t("Unrated"), true),
      radio("rated", "rated", t("Rated"), false, { disabled: !logged, "aria-describedby": "qp-rated-note" })),
    el("p", { id: "qp-rated-note", class: "hint" }, logged
      ? t("Rated games use the standard rules and change your rating.")
      : [t("Rated games need an account."), " ", el("a", { href: "/account?next=/play", text: t("Log in or sign up") })]),
    logged ? el("p", { class: "hint", text: t("You play as {name}.", { name: P.me.name }) })
      : el("label", { class: "qp-row", for: "qp-name" }, t("Your name"), " ",
        el("input", { id: "qp-name", maxlength: 24, autocomplete: "nickname", placeholder: t("e.g. Ana") })),
    el("button", { type: "submit", id: "qp-join", class: "primary", text: t("Find a game") }),
    el("p", { id: "qp-error", class: "error", role: "alert" }));
  return f;
}

async function join(ev) {
  ev.preventDefault();
  $("qp-error").textContent = "";
  const game = document.querySelector("input[name=game]:checked").value;
  const body = { game, players: Number($("qp-players").value), rated: document.querySelector("input[name=rated]:checked").value === "rated" };
  const name = $("qp-name") ? $("qp-name").value.trim() : "";
  if (name) body.name = name;
  try {
    show(await api("/api/queue", { method: "POST", body }), true);
  } catch (e) { $("qp-error").textContent = e.message; }
}

function waiting(s) {
  const players = s.players ? tn("{n} player", "{n} players", s.players) : t("any number of players");
  return el("section", { id: "qp-wait", class: "card qp-wait", "aria-labelledby": "qp-wait-title" },
    el("h2", { id: "qp-wait-title", text: t("Looking for players…") }),
    el("p", { text: `${GAME_LABELS[s.game]} · ${players} · ${s.rated ? t("Rated") : t("Unrated")}` }),
    el("p", { id: "qp-count", role: "status" }),
    el("p", {}, t("Waiting for"), " ", el("span", { id: "qp-timer", role: "timer", "aria-live": "off" })),
    el("p", { id: "qp-bots-note", class: "hint", hidden: true }),
    el("div", { class: "qp-buttons" },
      el("button", { type: "button", id: "qp-bots", hidden: true, text: t("Play with bots now"), onclick: bots }),
      el("button", { type: "button", id: "qp-leave", text: t("Stop waiting"), onclick: leave })),
    el("p", { id: "qp-error", class: "error", role: "alert" }));
}

function matched(s) {
  return el("section", { id: "qp-ready", class: "card qp-wait" },
    el("h2", { text: t("Your table is ready") }),
    el("p", {}, el("a", { id: "qp-open", href: s.url, class: "button primary", text: t("Open the table") })),
    el("button", { type: "button", id: "qp-again", text: t("Find another game"), onclick: leave }));
}

// Take the seat the match gave (its invite, under the name the queue had) and open the
// table; if that fails (the seat is this device's already), the invite link says why.
async function enter(s) {
  try {
    const info = await api(`/api/tables/${s.table}`);
    const seat = info.seats[s.seat];
    const token = new URL(s.url, location.href).searchParams.get("invite");
    await api(`/api/tables/${s.table}/join`, { method: "POST", body: { token, name: (seat && seat.name) || (P.me && P.me.name) } });
    location.assign(`/t/${s.table}`);
  } catch { location.assign(s.url); }
}

function update(s) {
  $("qp-count").textContent = tn("{n} player waiting in this queue", "{n} players waiting in this queue", s.waiting || 0);
  P.shownAt = Date.now() - (s.seconds || 0) * 1000;
  tick();
  const can = !s.rated && s.bots_after !== undefined && s.bots_after !== null;
  const btn = $("qp-bots"), note = $("qp-bots-note");
  btn.hidden = !can || s.bots || s.seconds < s.bots_after;
  note.hidden = !can;
  note.textContent = s.bots ? t("Bots will take the empty seats in a moment.")
    : t("After {n} seconds you can play with bots in the empty seats.", { n: Math.round(s.bots_after || 0) });
}

function tick() { if ($("qp-timer")) $("qp-timer").textContent = clock((Date.now() - P.shownAt) / 1000); }

function show(s, fresh = false) {
  const main = $("play");
  const before = P.state;
  P.state = s.state;
  if (s.state === "matched") {
    stopPolling();
    if (before === "waiting" || fresh) { enter(s); return; }      // matched while we waited
    main.replaceChildren(matched(s));
    $("qp-open").focus();
  } else if (s.state === "waiting") {
    if (before !== "waiting") { main.replaceChildren(waiting(s)); $("qp-leave").focus(); startPolling(); }
    update(s);
  } else {
    stopPolling();
    main.replaceChildren(form());
    playersOptions(document.querySelector("input[name=game]:checked").value);
  }
}

async function poll() {
  try { show(await api("/api/queue")); } catch (e) { if ($("qp-error")) $("qp-error").textContent = e.message; }
}
function startPolling() { stopPolling(); P.timer = setInterval(() => { tick(); poll(); }, 1000); }
function stopPolling() { clearInterval(P.timer); P.timer = null; }

async function bots() {
  try { show(await api("/api/queue/bots", { method: "POST" })); } catch (e) { $("qp-error").textContent = e.message; }
}

async function leave() {
  try { await api("/api/queue/leave", { method: "POST" }); } catch (e) { $("qp-error").textContent = e.message; return; }
  P.state = null;
  show({ state: "none" });
  $("qp-join").focus();
}

async function main() {
  await startI18n();
  document.title = t("dominohall — quick play");
  $("top").append(siteNav("play"));
  try { P.me = await api("/api/account"); } catch { P.me = null; }
  try { show(await api("/api/queue")); } catch (e) {
    $("play").replaceChildren(el("p", { class: "error", role: "alert", text: e.message }));
  }
}

main().then(() => { document.body.dataset.ready = "1"; });
