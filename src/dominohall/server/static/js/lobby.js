// The lobby: a table form generated from the engine's option definitions (/api/games),
// every option with its label and a one-line explanation, and the list of public tables.
import { api, el, GAME_LABELS } from "./api.js";
import { t, withLang } from "./i18n.js";
import { siteNav, startI18n } from "./chrome.js";
import { mountInvitations } from "./invitations.js";
import { seatName } from "./words.js";

const $ = (id) => document.getElementById(id);
let catalogue = [];

function current() { return catalogue.find((g) => g.name === $("game").value); }

/** A value as a player reads it: its words from the server (English source text, said
 * with t(): "placed by its holder", never the code "holder"), yes/no, a number. */
function valueText(o, v) {
  const labels = o && (o.choice_labels || o.value_labels);
  const key = v === true ? "true" : v === false ? "false" : String(v);
  if (labels && labels[key]) return t(labels[key]);
  if (v === true) return t("yes");
  if (v === false) return t("no");
  if (v === null || v === undefined) return t("automatic");
  return String(v).replaceAll("_", " ");
}

function formValue(v) { return v === true ? "true" : v === false ? "false" : String(v); }

// The engine's labels and help texts are English source text in the one catalog (the
// i18n extraction reads engine/options.py), so t() finds their translations.
function optionLabel(o) { return o.label ? t(o.label) : o.name; }

/** A preset's label, description (engine/options.py PRESET_LABELS, sent as preset_labels)
 * and the values it sets. */
function presetInfo(g, name) {
  const raw = g.presets[name] || {};
  const nested = raw.options && typeof raw.options === "object" && !Array.isArray(raw.options);
  const values = nested ? raw.options : Object.fromEntries(Object.entries(raw)
    .filter(([k]) => !["label", "description", "help"].includes(k)));
  const side = (g.preset_labels || {})[name];
  const label = (typeof raw.label === "string" && raw.label) || (typeof side === "string" && side)
    || (side && side.label);
  const text = (typeof raw.description === "string" && raw.description) || raw.help
    || (g.preset_descriptions || {})[name] || (side && side.description);
  return { label: label ? t(label) : name, text: text ? t(text) : "", values };
}

function presetValues() {
  const g = current();
  return presetInfo(g, $("preset").value).values;
}

/** The value an option has now: chosen in the form, else from the preset, else its default. */
function effective(name) {
  const g = current();
  const o = g.options.find((x) => x.name === name);
  const sel = document.querySelector(`[data-option='${name}']`);
  const num = document.querySelector(`[data-option-number='${name}']`);
  if (num && num.value !== "") return Number(num.value);
  if (sel && sel.value !== "") return o ? o.choices.find((c) => formValue(c) === sel.value) ?? sel.value : sel.value;
  const pv = presetValues();
  if (name in pv) return pv[name];
  return o ? o.default : undefined;
}

/** What an option's "default" entry stands for (rounds follows the chosen set). */
function defaultText(o) {
  const pv = presetValues();
  if (o.name === "rounds" && (o.default === null || o.default === undefined)) {
    const setMax = Number(effective("set_max"));
    if (Number.isFinite(setMax)) return String(setMax + 1);
  }
  const v = o.name in pv ? pv[o.name] : o.default;
  return valueText(o, v);
}

function renderGame() {
  const g = current();
  $("players").min = g.players.min;
  $("players").max = g.players.max;
  $("players").value = g.players.default;
  $("players-range").textContent = t("{min} to {max}", { min: g.players.min, max: g.players.max });
  $("preset").replaceChildren(...Object.keys(g.presets).map((p) =>
    el("option", { value: p, text: presetInfo(g, p).label })));
  renderSeats();
  renderOptions();
  renderPreset();
}

function renderPreset() {
  const g = current();
  const { text, values } = presetInfo(g, $("preset").value);
  const parts = Object.entries(values).map(([k, v]) => {
    const o = g.options.find((x) => x.name === k);
    return t("{option}: {value}", { option: o ? optionLabel(o) : k, value: valueText(o, v) });
  });
  const sets = parts.length ? t("It sets {list}.", { list: parts.join("; ") }) : "";
  $("preset-note").textContent = [text, sets].filter(Boolean).join(" ");
  refreshDefaults();
}

/** Re-label every "default" entry (a preset or a chosen set changes what it means). */
function refreshDefaults() {
  const g = current();
  for (const o of g.options) {
    const first = document.querySelector(`[data-option='${o.name}'] option[value='']`);
    if (first) first.textContent = t("default ({value})", { value: defaultText(o) });
    if (o.name === "rounds") {
      const num = document.querySelector("[data-option-number='rounds']");
      const setMax = Number(effective("set_max"));
      if (num && Number.isFinite(setMax)) num.max = setMax + 1;
    }
  }
}

// a bot level's name in the player's language ("Expert (strong)"); a user's own bot by its name
function botLabel(g, b) {
  const label = (g.bot_labels || {})[b];
  return label ? t(label) : b;
}

function seatRow(i, prev) {
  const g = current();
  const id = `seat-${i}`;
  const sel = el("select", { id, "data-seat": i });
  if (i === 0) sel.appendChild(el("option", { value: "you", text: t("You") }));
  sel.appendChild(el("option", { value: "friend", text: t("Open for a friend (invite link)") }));
  for (const b of g.bots) sel.appendChild(el("option", { value: `bot:${b}`, text: t("Bot: {bot}", { bot: botLabel(g, b) }) }));
  sel.value = prev || (i === 0 ? "you" : `bot:${g.bots[Math.min(1, g.bots.length - 1)]}`);
  if (!sel.value) sel.selectedIndex = 0;
  return el("div", { class: "seat-row" }, el("label", { class: "seat-no", for: id, text: t("Player {n}", { n: i + 1 }) }), sel);
}

function renderSeats() {
  const n = Math.max(Number($("players").min), Math.min(Number($("players").max), Number($("players").value) || 0));
  const prev = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  $("seats").replaceChildren(...Array.from({ length: n }, (_, i) => seatRow(i, prev[i])));
  refreshDefaults();
}

function renderOptions() {
  const g = current();
  $("options").replaceChildren(...g.options.map((o) => {
    const id = `opt-${o.name}`;
    const sel = el("select", { id, name: o.name, "data-option": o.name, "aria-describedby": `${id}-help` },
      el("option", { value: "", text: t("default ({value})", { value: defaultText(o) }) }),
      ...o.choices.filter((c) => c !== null).map((c) => el("option", { value: formValue(c), text: valueText(o, c) })));
    sel.addEventListener("change", () => { if (o.name === "set_max") refreshDefaults(); });
    const controls = [sel];
    if (o.int_range) {
      const [lo, hi] = o.int_range;
      const num = el("input", { type: "number", min: lo, max: hi ?? undefined, placeholder: t("number"),
        "data-option-number": o.name, class: "num", inputmode: "numeric",
        "aria-label": t("{option}: a number", { option: optionLabel(o) }), "aria-describedby": `${id}-help` });
      controls.push(num);
    }
    return el("div", { class: "opt", "data-name": o.name },
      el("label", { class: "opt-label", for: id, text: optionLabel(o) }),
      el("span", { class: "opt-ctl" }, ...controls),
      el("small", { id: `${id}-help`, class: "opt-help", text: o.help ? t(o.help) : "" }));
  }));
  refreshDefaults();
}

function numberField(id, label, value, max, help) {
  return el("div", { class: "opt" },
    el("label", { class: "opt-label", for: id, text: label }),
    el("input", { id, type: "number", min: 0, max, value, inputmode: "numeric", "aria-describedby": `${id}-help` }),
    el("small", { id: `${id}-help`, class: "opt-help", text: help }));
}

function buildPage() {
  const top = $("top");
  top.append(el("span", { class: "sub", text: t("Mexican Train and All Fives — with friends or bots") }), siteNav("lobby"));
  const form = el("form", { id: "create-form", autocomplete: "off", novalidate: true },
    el("div", { class: "row" },
      el("label", {}, t("Game"), el("select", { id: "game", name: "game" })),
      el("label", {}, t("Players"), el("input", { id: "players", type: "number", min: 2, max: 10, value: 4,
        inputmode: "numeric", "aria-describedby": "players-range" }),
      el("small", { id: "players-range", class: "hint" }))),
    el("div", { class: "row" },
      el("label", { class: "grow" }, t("Rules"), el("select", { id: "preset", "aria-describedby": "preset-note" }))),
    el("p", { class: "hint", id: "preset-note" }),
    el("div", { class: "row" },
      el("label", { class: "grow" }, t("Your name"),
        el("input", { id: "name", maxlength: 24, placeholder: t("e.g. Ana"), autocomplete: "nickname" }))),
    el("fieldset", {}, el("legend", { text: t("Seats") }), el("div", { id: "seats" })),
    el("details", { id: "options-box" },
      el("summary", { text: t("House rules (optional)") }),
      el("p", { class: "hint", text: t("Leave an option at its default to play by the chosen rules.") }),
      el("div", { id: "options", class: "options" })),
    el("details", { id: "table-box" },
      el("summary", { text: t("Table settings") }),
      el("div", { class: "options" },
        el("div", { class: "opt opt-check" },
          el("label", { class: "check" }, el("input", { id: "public", type: "checkbox", "aria-describedby": "public-help" }),
            t("Public: list this table in the lobby")),
          el("small", { id: "public-help", class: "opt-help",
            text: t("A private table (the default) is reached only through its link and invites.") })),
        el("div", { class: "opt" },
          el("label", { class: "opt-label", for: "hints", text: t("Hint button") }),
          el("select", { id: "hints", "aria-describedby": "hints-help" },
            el("option", { value: "", text: t("automatic") }),
            el("option", { value: "yes", text: t("hints allowed") }),
            el("option", { value: "no", text: t("hints off") })),
          el("small", { id: "hints-help", class: "opt-help",
            text: t("Automatic: hints are allowed when one person plays and off when more do. Everyone at the table sees this setting.") })),
        numberField("away_seconds", t("Away seconds"), 30, 3600,
          t("A bot plays for a player who has been gone this long, until they return (0: never).")),
        numberField("ready_seconds", t("Round summary seconds"), 20, 600,
          t("After a round, bots wait until everyone clicks ready or this time runs out.")),
        numberField("turn_seconds", t("Turn seconds"), 0, 3600,
          t("Turn timer: when a player's time runs out, the stand-in bot plays their turn (0: off).")))),
    el("p", { class: "error", id: "create-error", role: "alert" }),
    el("button", { type: "submit", id: "create", class: "primary", text: t("Create table") }));
  $("lobby").replaceChildren(
    el("section", { class: "card", id: "new-table", "aria-labelledby": "new-table-h" },
      el("h2", { id: "new-table-h", text: t("New table") }), form),
    el("section", { class: "card", id: "tables-card", "aria-labelledby": "tables-h" },
      el("h2", { id: "tables-h", text: t("Public tables") }),
      el("ul", { id: "tables", class: "tables" }),
      el("p", { class: "hint", text: t("Private tables are not listed: share their link.") }),
      el("h2", { text: t("New here?") }),
      el("p", {}, el("a", { href: "/how-to-play", text: t("How to play: the rules of every game") })),
      el("p", {}, el("a", { href: "/replay", text: t("Watch a finished match again") }))));
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
  if (take !== null && !name) { $("create-error").textContent = t("Your name, please."); $("name").focus(); return; }
  try {
    const made = await api("/api/tables", { method: "POST", body: {
      game: $("game").value, preset: $("preset").value, options, seats, take_seat: take, name,
      away_seconds: Number($("away_seconds").value), ready_seconds: Number($("ready_seconds").value),
      turn_seconds: Number($("turn_seconds").value), public: $("public").checked,
      hints: { yes: true, no: false }[$("hints").value] ?? null,
    } });
    localStorage.setItem("dominohall.name", name);
    location.href = withLang(`/t/${made.id}`);
  } catch (err) {
    $("create-error").textContent = err.message;
  }
}

const STATUS = { waiting: () => t("waiting for players"), playing: () => t("playing"), over: () => t("over") };

async function listTables() {
  let tables = [];
  try { tables = await api("/api/tables"); } catch { return; }
  if (!tables.length) { $("tables").replaceChildren(el("li", { class: "hint", text: t("No public tables yet.") })); return; }
  $("tables").replaceChildren(...tables.map((x) => el("li", {},
    el("a", { href: `/t/${x.id}`, text: GAME_LABELS[x.game] || x.game }), " ",
    el("span", { class: "hint", text: tableLine(x) }))));
}

/** "playing · hand 2 · Ana, Bot 2": the line games play hands, Mexican Train rounds;
 * bots are named as at the table ("Bot 2" in the page's language), open seats said so. */
function tableLine(x) {
  const fields = { status: (STATUS[x.status] || (() => x.status))(), round: x.round,
    players: x.seats.map((s) => (s.kind === "bot" ? seatName(x.seats, s.seat) : s.name || t("open seat"))).join(", ") };
  return x.game === "mexican_train" ? t("{status} · round {round} · {players}", fields)
    : t("{status} · hand {round} · {players}", fields);
}

async function main() {
  await startI18n();
  document.title = t("dominohall — lobby");
  buildPage();
  mountInvitations($("tables-card"));
  catalogue = await api("/api/games");
  $("game").replaceChildren(...catalogue.map((g) => el("option", { value: g.name, text: GAME_LABELS[g.name] || g.label })));
  $("name").value = localStorage.getItem("dominohall.name") || "";
  $("game").addEventListener("change", renderGame);
  $("preset").addEventListener("change", renderPreset);
  $("players").addEventListener("change", renderSeats);
  $("create-form").addEventListener("submit", create);
  renderGame();
  document.body.dataset.ready = "1";
  listTables();
  setInterval(listTables, 10000);
}

main();
