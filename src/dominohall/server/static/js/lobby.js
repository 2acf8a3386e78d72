// The lobby: a table form generated from the engine's option definitions (/api/games).
import { api, el, GAME_LABELS } from "./api.js";

const $ = (id) => document.getElementById(id);
let catalogue = [];

function current() { return catalogue.find((g) => g.name === $("game").value); }

function show(v) { return v === true ? "true" : v === false ? "false" : v === null ? "default" : String(v); }

function renderGame() {
  const g = current();
  $("players").min = g.players.min;
  $("players").max = g.players.max;
  $("players").value = g.players.default;
  $("preset").replaceChildren(...Object.keys(g.presets).map((p) => el("option", { value: p, text: p })));
  renderPreset();
  renderSeats();
  renderOptions();
}

function renderPreset() {
  const g = current();
  const values = g.presets[$("preset").value] || {};
  const parts = Object.entries(values).map(([k, v]) => `${k}=${show(v)}`);
  $("preset-note").textContent = parts.length ? `This preset sets ${parts.join(", ")}.` : "";
}

function seatRow(i, prev) {
  const g = current();
  const sel = el("select", { "data-seat": i, "aria-label": `seat ${i}` });
  if (i === 0) sel.appendChild(el("option", { value: "you", text: "You" }));
  sel.appendChild(el("option", { value: "friend", text: "Open for a friend (invite link)" }));
  for (const b of g.bots) sel.appendChild(el("option", { value: `bot:${b}`, text: `Bot: ${b}` }));
  sel.value = prev || (i === 0 ? "you" : `bot:${g.bots[Math.min(1, g.bots.length - 1)]}`);
  if (!sel.value) sel.selectedIndex = 0;
  return el("div", { class: "seat-row" }, el("span", { class: "seat-no", text: `Seat ${i}` }), sel);
}

function renderSeats() {
  const n = Number($("players").value);
  const prev = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  $("seats").replaceChildren(...Array.from({ length: n }, (_, i) => seatRow(i, prev[i])));
}

function renderOptions() {
  const g = current();
  $("options").replaceChildren(...g.options.map((o) => {
    const sel = el("select", { name: o.name, "data-option": o.name },
      el("option", { value: "", text: `default (${show(o.default)})` }),
      ...o.choices.filter((c) => c !== null).map((c) => el("option", { value: show(c), text: show(c) })));
    const controls = [sel];
    if (o.int_range) {
      const [lo, hi] = o.int_range;
      controls.push(el("input", { type: "number", min: lo, max: hi ?? undefined, placeholder: "number",
        "data-option-number": o.name, class: "num", "aria-label": `${o.name} number` }));
    }
    return el("label", { class: "opt" }, el("span", { class: "opt-name", text: o.name }),
      el("span", { class: "opt-ctl" }, ...controls), el("small", { text: o.help }));
  }));
}

async function create(ev) {
  ev.preventDefault();
  $("create-error").textContent = "";
  const options = {};
  for (const s of $("options").querySelectorAll("[data-option]")) if (s.value) options[s.dataset.option] = s.value;
  for (const n of $("options").querySelectorAll("[data-option-number]")) {
    if (n.value !== "") options[n.dataset.optionNumber] = Number(n.value);
  }
  const seats = [];
  let take = null;
  for (const s of $("seats").querySelectorAll("select")) {
    const i = Number(s.dataset.seat);
    if (s.value === "you") { take = i; seats.push({ kind: "human" }); }
    else if (s.value === "friend") seats.push({ kind: "human" });
    else seats.push({ kind: "bot", bot: s.value.slice(4) });
  }
  const name = $("name").value.trim();
  if (take !== null && !name) { $("create-error").textContent = "Your name, please."; $("name").focus(); return; }
  try {
    const t = await api("/api/tables", { method: "POST", body: {
      game: $("game").value, preset: $("preset").value, options, seats, take_seat: take, name,
      away_seconds: Number($("away_seconds").value), ready_seconds: Number($("ready_seconds").value),
      turn_seconds: Number($("turn_seconds").value),
    } });
    localStorage.setItem("dominohall.name", name);
    location.href = `/t/${t.id}`;
  } catch (err) {
    $("create-error").textContent = err.message;
  }
}

async function listTables() {
  let tables = [];
  try { tables = await api("/api/tables"); } catch { return; }
  if (!tables.length) { $("tables").replaceChildren(el("li", { class: "hint", text: "No tables yet." })); return; }
  $("tables").replaceChildren(...tables.map((t) => el("li", {},
    el("a", { href: `/t/${t.id}`, text: `${GAME_LABELS[t.game] || t.game}` }),
    ` · ${t.status} · round ${t.round} · `,
    t.seats.map((s) => s.name || "open seat").join(", "))));
}

async function main() {
  catalogue = await api("/api/games");
  $("game").replaceChildren(...catalogue.map((g) => el("option", { value: g.name, text: g.label })));
  $("name").value = localStorage.getItem("dominohall.name") || "";
  $("game").addEventListener("change", renderGame);
  $("preset").addEventListener("change", renderPreset);
  $("players").addEventListener("change", renderSeats);
  $("create-form").addEventListener("submit", create);
  renderGame();
  listTables();
  setInterval(listTables, 10000);
}

main();
