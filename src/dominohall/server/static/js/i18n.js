// Player-facing text in the player's language.
// Every string a player reads goes through t() or tn(), so that it can be translated:
//   t("Your turn")
//   t("{name} has one tile left", { name })
//   tn("{n} tile", "{n} tiles", n)            // {n} is filled in; more params as a 4th arg
// Placeholders are names in braces. English is the source; the catalogs are the same
// gettext .po files the terminal reads, served as /api/i18n/{lang}.json. A message the
// catalog lacks stays English (never a key).
//
// A page calls `await initI18n()` before it renders, and mounts `languageMenu()` in its
// header. Static HTML is translated by marking it:
//   <h2 data-i18n>New table</h2>                       (its text is the message)
//   <input placeholder="e.g. Ana" data-i18n-attr="placeholder">
// Engine errors ({code, params, message}) read with tError(err); log events with
// tEvent(event, {seat, nameOf, game}).

/** The seven languages, each in its own name (the same list as dominohall.i18n). */
export const LANGUAGES = {
  en: "English", be: "Беларуская", kk: "Қазақша", bg: "Български", pt: "Português",
  es: "Español", ru: "Русский",
};
export const STORAGE_KEY = "dominohall.lang";
/** The cookie that tells the server the menu's choice (pages, hints, errors it says). */
export const COOKIE = "dh_lang";

function rememberForServer(code) {
  if (typeof document === "undefined") return;
  try {
    document.cookie = `${COOKIE}=${code}; path=/; max-age=${60 * 60 * 24 * 365}; SameSite=Lax`;
  } catch { /* cookies blocked: the server follows Accept-Language */ }
}

const english = (n) => (n === 1 ? 0 : 1);
let state = { lang: "en", messages: {}, plural: english, nplurals: 2, errors: {}, reasons: [], options: {}, plainReasons: {}, actions: {} };

function fill(text, params) {
  return String(text).replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? String(params[k]) : m));
}

export function t(msgid, params = {}) {
  const s = state.messages[msgid];
  return fill(typeof s === "string" && s ? s : msgid, params);
}

export function tn(singular, plural, n, params = {}) {
  const forms = state.messages[singular];
  let text = n === 1 ? singular : plural;
  if (Array.isArray(forms)) {
    const form = forms[state.plural(n)];
    if (form) text = form;
  }
  return fill(text, { n, ...params });
}

/** The plural-form index function of a gettext Plural-Forms expression
 * ("n%10==1 && n%100!=11 ? 0 : ..."): the same expression the .po file declares, read by
 * a small parser (no eval: the pages' Content-Security-Policy forbids it). A malformed
 * expression gives the English rule. */
export function pluralRule(expr) {
  if (typeof expr !== "string" || !expr.trim()) return english;
  const tokens = expr.match(/\d+|n|&&|\|\||==|!=|<=|>=|[-+*/%<>!?:()]|\S/g) || [];
  let pos = 0;
  const peek = () => tokens[pos];
  const take = (t) => { if (tokens[pos] !== t) throw new Error(`expected ${t}`); pos += 1; };
  const BIN = [["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"]];
  const apply = (op, a, b) => ({
    "||": () => (a || b ? 1 : 0), "&&": () => (a && b ? 1 : 0), "==": () => (a === b ? 1 : 0),
    "!=": () => (a !== b ? 1 : 0), "<": () => (a < b ? 1 : 0), ">": () => (a > b ? 1 : 0),
    "<=": () => (a <= b ? 1 : 0), ">=": () => (a >= b ? 1 : 0), "+": () => a + b,
    "-": () => a - b, "*": () => a * b, "/": () => (b ? Math.trunc(a / b) : 0),
    "%": () => (b ? a % b : 0),
  })[op]();
  function ternary() {
    const cond = binary(0);
    if (peek() !== "?") return cond;
    take("?");
    const yes = ternary();
    take(":");
    const no = ternary();
    return (n) => (cond(n) ? yes(n) : no(n));
  }
  function binary(level) {
    if (level === BIN.length) return unary();
    let left = binary(level + 1);
    while (BIN[level].includes(peek())) {
      const op = tokens[pos++];
      const l = left, r = binary(level + 1);
      left = (n) => apply(op, l(n), r(n));
    }
    return left;
  }
  function unary() {
    const t = tokens[pos++];
    if (t === "!") { const f = unary(); return (n) => (f(n) ? 0 : 1); }
    if (t === "(") { const f = ternary(); take(")"); return f; }
    if (t === "n") return (n) => n;
    if (t !== undefined && /^\d+$/.test(t)) { const v = Number(t); return () => v; }
    throw new Error(`unexpected ${t}`);
  }
  let f;
  try {
    f = ternary();
    if (pos !== tokens.length) throw new Error("trailing input");
  } catch {
    return english;
  }
  return (n) => {
    const i = f(Math.abs(Math.trunc(Number(n))) || 0);
    return Number.isInteger(i) && i >= 0 ? i : 0;
  };
}

/** "pt-BR" -> "pt"; null for a language we do not ship. */
export function normalize(tag) {
  if (!tag || typeof tag !== "string") return null;
  const code = tag.trim().split(/[-_.@]/)[0].toLowerCase();
  return code in LANGUAGES ? code : null;
}

/** The `dh_lang` cookie's language (the menu's choice, as the server reads it), or null. */
function cookieLanguage() {
  if (typeof document === "undefined") return null;
  try {
    const m = document.cookie.match(new RegExp(`(?:^|;\\s*)${COOKIE}=([^;]*)`));
    return m ? normalize(decodeURIComponent(m[1])) : null;
  } catch { return null; }
}

/** The address's `?lang=` (this page only, as the server reads it), or null. */
function queryLanguage() {
  try { return normalize(new URLSearchParams(location.search).get("lang")); } catch { return null; }
}

/** The language to use, in the server's order (dominohall.i18n.request_language):
 * `?lang=` on the address, else the menu's choice (remembered in this browser, or only
 * its `dh_lang` cookie), else the browser's languages, else English. */
export function detectLanguage() {
  const asked = queryLanguage();
  if (asked) return asked;
  try {
    const saved = normalize(localStorage.getItem(STORAGE_KEY));
    if (saved) return saved;
  } catch { /* storage blocked: the cookie, then the browser's languages */ }
  const cookie = cookieLanguage();
  if (cookie) return cookie;
  const tags = (typeof navigator !== "undefined" && (navigator.languages || [navigator.language])) || [];
  for (const tag of tags) {
    const code = normalize(tag);
    if (code) return code;
  }
  return "en";
}

/** Use the catalog `data` (the JSON /api/i18n/{lang}.json serves). */
export function useCatalog(data) {
  state = {
    lang: normalize(data && data.lang) || "en",
    messages: (data && data.messages) || {},
    plural: pluralRule(data && data.plural),
    nplurals: (data && data.nplurals) || 2,
    errors: (data && data.errors) || {},
    reasons: (data && data.reasons) || [],
    options: (data && data.options) || {},
    plainReasons: (data && data.plain_reasons) || {},
    actions: (data && data.actions) || {},
  };
}

export function currentLanguage() { return state.lang; }

async function fetchCatalog(lang) {
  const res = await fetch(`/api/i18n/${lang}.json`, { credentials: "same-origin" });
  if (!res.ok) throw new Error(`catalog ${lang}: ${res.status}`);
  return res.json();
}

/** Load `lang`'s catalog (English if it cannot be had), set <html lang>, translate the
 * marked HTML. Returns the language in use. */
export async function setLanguage(lang) {
  const code = normalize(lang) || "en";
  try {
    useCatalog(await fetchCatalog(code));
  } catch {
    useCatalog({ lang: "en" });
  }
  if (typeof document !== "undefined") {
    document.documentElement.lang = state.lang;
    translatePage(document);
  }
  return state.lang;
}

/** `href` keeping this page's `?lang=`: an address that asked for a language leads to
 * pages in it (the lobby's new table, a link, a replaced address). Other sites, and an
 * address that names its own language, are left as they are. */
export function withLang(href) {
  const asked = queryLanguage();
  if (!asked || typeof location === "undefined") return href;
  try {
    const u = new URL(href, location.href);
    if (u.origin !== location.origin || u.searchParams.has("lang")) return href;
    u.searchParams.set("lang", asked);
    return u.pathname + u.search + u.hash;
  } catch { return href; }
}

/** Links followed from a page opened with `?lang=` keep it (rewritten as they are used,
 * so links drawn later keep it too). */
function keepLangOnLinks() {
  if (!queryLanguage() || typeof document === "undefined") return;
  const keep = (e) => {
    const a = e.target && e.target.closest && e.target.closest("a[href]");
    const href = a && a.getAttribute("href");
    if (href && !href.startsWith("#")) a.setAttribute("href", withLang(href));
  };
  for (const kind of ["click", "auxclick", "contextmenu", "focusin", "pointerdown"]) {
    document.addEventListener(kind, keep, true);
  }
}

/** Call once before rendering: the remembered or the browser's language. */
export async function initI18n() {
  try {
    const saved = normalize(localStorage.getItem(STORAGE_KEY));
    if (saved) rememberForServer(saved);       // a choice made before the cookie existed
  } catch { /* storage blocked */ }
  keepLangOnLinks();
  return setLanguage(detectLanguage());
}

/** Translate the elements marked with data-i18n / data-i18n-attr under `root`
 * (again after a language change: the English source is kept on the element). */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    if (!node.dataset.i18nSource) node.dataset.i18nSource = node.dataset.i18n || node.textContent.trim();
    node.textContent = t(node.dataset.i18nSource);
  }
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const attr of node.dataset.i18nAttr.split(/[\s,]+/).filter(Boolean)) {
      const key = `i18nSrc${attr.replace(/(^|-)(\w)/g, (m, d, c) => c.toUpperCase())}`;
      if (!(key in node.dataset)) node.dataset[key] = node.getAttribute(attr) || "";
      if (node.dataset[key]) node.setAttribute(attr, t(node.dataset[key]));
    }
  }
}

/** A <select> of the seven languages in their own names. Choosing one remembers it and
 * reloads the page, or, given `onChange`, switches in place and calls onChange(lang). */
export function languageMenu({ onChange = null } = {}) {
  const sel = document.createElement("select");
  sel.className = "lang-menu";
  sel.id = "lang-menu";
  sel.setAttribute("aria-label", t("Language"));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const opt = document.createElement("option");
    opt.value = code;
    opt.textContent = name;
    opt.lang = code;
    sel.appendChild(opt);
  }
  sel.value = state.lang;
  sel.addEventListener("change", async () => {
    try { localStorage.setItem(STORAGE_KEY, sel.value); } catch { /* not remembered */ }
    rememberForServer(sel.value);
    // an address's ?lang= would win over the choice: the address says the new one
    const url = queryLanguage() ? new URL(location.href) : null;
    if (url) url.searchParams.set("lang", sel.value);
    if (onChange) {
      if (url) history.replaceState(history.state, "", url.pathname + url.search + url.hash);
      await setLanguage(sel.value);
      sel.setAttribute("aria-label", t("Language"));
      onChange(state.lang);
    } else if (url) {
      location.replace(url.href);
    } else {
      location.reload();
    }
  });
  return sel;
}

/** A number the way the current language writes it. */
export function formatNumber(n, options = {}) {
  return new Intl.NumberFormat(state.lang, options).format(n);
}

/** A date the way the current language writes it. */
export function formatDate(d, options = { dateStyle: "medium" }) {
  return new Intl.DateTimeFormat(state.lang, options).format(d instanceof Date ? d : new Date(d));
}

// ---- engine errors ----------------------------------------------------------------------

function templateRegex(template) {
  const names = [];
  const src = template.split(/\{(\w+)\}/).map((part, i) => {
    if (i % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (names.includes(part)) return `\\k<${part}>`;
    names.push(part);
    return `(?<${part}>.+?)`;
  }).join("");
  return new RegExp(`^${src}$`);
}

function reasonText(reason) {
  for (const template of state.reasons) {
    const m = templateRegex(template).exec(reason);
    if (m) return state.plainReasons[template] ? t(state.plainReasons[template]) : t(template, m.groups || {});
  }
  return reason;
}

/** The action a refusal is about, as the table's buttons say it ("Draw"), a play by its
 * tile ("12-5"); the same as dominohall.i18n.errors (the catalog JSON's `actions`). */
function actionWords(action) {
  if (state.actions[action]) return t(state.actions[action]);
  const tile = /^(\d{1,2}-\d{1,2})/.exec(String(action));
  return tile ? tile[1] : String(action);
}

/** "hand_size: ..." (the engine's option code first) -> "Tiles per player: ...". */
function optionLabelFirst(text) {
  const m = /^([a-z_]+): /.exec(text);
  return m && state.options[m[1]] ? `${t(state.options[m[1]])}: ${text.slice(m[0].length)}` : text;
}

/** An error as the server sends it ({code, params, message}: an engine error, a REST
 * error body; a websocket error's exact code is its `reason`) in the current language.
 * A param that is an error itself is said the same way; an unknown code gives the
 * English message. */
export function tError(err) {
  if (!err) return "";
  const code = err.reason && state.errors[err.reason] ? err.reason : err.code;
  const template = code && state.errors[code];
  if (!template || typeof err.params !== "object" || err.params === null) return String(err.message || "");
  const params = {};
  for (const [k, v] of Object.entries(err.params)) {
    params[k] = v && typeof v === "object" && "code" in v ? tError(v) : v;
  }
  if (code === "not_legal_now" && typeof params.reason === "string") params.reason = reasonText(params.reason);
  if (code === "not_legal_now" && typeof params.action === "string") params.action = actionWords(params.action);
  if (typeof params.field === "string" && state.options[params.field]) params.field = t(state.options[params.field]);
  return optionLabelFirst(t(template, params));
}

// ---- the log ----------------------------------------------------------------------------

/** One line of the log for an event (the fields the server sends), as `seat` sees it;
 * `nameOf(seat)` gives a player's name (default "Player N", numbered from 1). */
export function tEvent(e, { seat = null, nameOf = null, game = null } = {}) {
  const name = (s) => (nameOf ? nameOf(s) : t("Player {n}", { n: s + 1 }));
  const who = (s) => (s === seat ? t("you") : name(s));
  const mine = e.seat !== null && e.seat !== undefined && e.seat === seat;
  const by = (other, me, params = {}) => (mine ? t(me, params) : t(other, { name: name(e.seat), ...params }));
  // the line games (All Fives, Draw, Block) play hands, Mexican Train rounds
  const hand = !!game && game !== "mexican_train";
  const where = (target) => {
    const fixed = { mx: "on the Mexican train", L: "on the left end", R: "on the right end",
      U: "on the spinner's upper arm", D: "on the spinner's lower arm" };
    if (fixed[target]) return t(fixed[target]);
    if (/^t\d+$/.test(target)) {
      const owner = Number(target.slice(1));
      if (owner === seat) return t("on your train");
      if (owner === e.seat) return t("on their own train");
      return t("on {owner}'s train", { owner: name(owner) });
    }
    const m = String(target).match(/^([UD])(\d+)$/);
    if (m) return t(m[1] === "U" ? "on the upper arm of spinner {n}" : "on the lower arm of spinner {n}", { n: m[2] });
    return String(target);
  };
  const scoresOf = (values) => (values || []).map((v, s) => t("{name} {n}", { name: who(s), n: v })).join(", ");
  const andList = (items) => {
    try { return new Intl.ListFormat(state.lang, { type: "conjunction" }).format(items); } catch { return items.join(", "); }
  };
  // one winner ("you", "Ana") or several ("you and Ana": the verb agrees with them all)
  const winnersText = (winners, aloneYou, one, several, params = {}) => {
    if (winners.length === 1 && winners[0] === seat) return t(aloneYou, params);
    if (winners.length === 1) return t(one, { name: name(winners[0]), ...params });
    const ordered = [...winners].sort((a, b) => (b === seat) - (a === seat));
    return t(several, { names: andList(ordered.map(who)), ...params });
  };
  switch (e.type) {
    case "deal": {
      const n = (e.hand_sizes || [0])[0];
      if (hand) return tn("hand {round}: {n} tile each, {boneyard} in the boneyard",
        "hand {round}: {n} tiles each, {boneyard} in the boneyard", n, { round: e.round, boneyard: e.boneyard });
      return tn("round {round}: {n} tile each, {boneyard} in the boneyard",
        "round {round}: {n} tiles each, {boneyard} in the boneyard", n, { round: e.round, boneyard: e.boneyard });
    }
    case "engine":
      if (e.seat === null || e.seat === undefined) return t("the engine {tile} is set in the centre", { tile: e.tile });
      return by("{name} placed the engine {tile}", "you placed the engine {tile}", { tile: e.tile });
    case "draw":
      if (e.search) return by("{name} drew a tile looking for the engine", "you drew {tile} looking for the engine", { tile: e.tile || "" });
      return by("{name} drew a tile", "you drew {tile}", { tile: e.tile || "" });
    case "play": {
      let text;
      if (e.target === null || e.target === undefined || e.target === "lead") text = by("{name} played {tile}", "you played {tile}", { tile: e.tile });
      else text = by("{name} played {tile} {where}", "you played {tile} {where}", { tile: e.tile, where: where(e.target) });
      if (e.points) text += " " + tn("(count {count}: {n} point)", "(count {count}: {n} points)", e.points, { count: e.count });
      return text;
    }
    case "pass": return by("{name} passed", "you passed");
    case "end": return by("{name} ended the first-turn chain", "you ended the first-turn chain");
    case "last_tile": return by("{name} has one tile left", "you have one tile left");
    case "round_end": {
      const how = roundHow(e, { seat, nameOf, game });
      return how + " " + t("Points: {points}. Totals: {totals}.", { points: scoresOf(e.points), totals: scoresOf(e.scores) });
    }
    case "game_end":
      return winnersText(e.winners || [], "Match over: you won!", "Match over: {name} won.", "Match over: {names} won together.")
        + " " + t("Final scores: {scores}.", { scores: scoresOf(e.scores) });
    default:
      return String(e.text || e.type);
  }
}

/** How a round (the line games: a hand) ended, as one sentence: "Round 2 over: Ana went
 * out.", "Hand 3 blocked: you won it." (the round-end box and the log say the same). */
export function roundHow(e, { seat = null, nameOf = null, game = null } = {}) {
  const name = (s) => (nameOf ? nameOf(s) : t("Player {n}", { n: s + 1 }));
  const who = (s) => (s === seat ? t("you") : name(s));
  const mine = e.seat !== null && e.seat !== undefined && e.seat === seat;
  const by = (other, me, params = {}) => (mine ? t(me, params) : t(other, { name: name(e.seat), ...params }));
  const hand = !!game && game !== "mexican_train";
  const andList = (items) => {
    try { return new Intl.ListFormat(state.lang, { type: "conjunction" }).format(items); } catch { return items.join(", "); }
  };
  const winnersText = (winners, aloneYou, one, several, params = {}) => {
    if (winners.length === 1 && winners[0] === seat) return t(aloneYou, params);
    if (winners.length === 1) return t(one, { name: name(winners[0]), ...params });
    const ordered = [...winners].sort((a, b) => (b === seat) - (a === seat));
    return t(several, { names: andList(ordered.map(who)), ...params });
  };
  const round = e.round;
  let how;
  if (e.reason === "domino" && e.seat !== null && e.seat !== undefined) {
    how = hand ? by("Hand {round} over: {name} went out.", "Hand {round} over: you went out.", { round })
      : by("Round {round} over: {name} went out.", "Round {round} over: you went out.", { round });
  } else if (e.reason === "target") {
    how = t(hand ? "Hand {round} over: the target is reached." : "Round {round} over: the target is reached.", { round });
  } else {
    // who won a blocked round: Mexican Train's lightest hands (its points are
    // penalties), else whoever scored its points (the same rule as i18n/log.py)
    const points = e.points || [], pips = e.pips || [];
    const penalty = game === "mexican_train" || (game === null && pips.length && JSON.stringify(points) === JSON.stringify(pips));
    let winners;
    if (penalty) {
      const low = Math.min(...pips);
      winners = pips.length ? pips.map((p, s) => (p === low ? s : -1)).filter((s) => s >= 0) : [];
    } else winners = points.map((p, s) => (p > 0 ? s : -1)).filter((s) => s >= 0);
    if (!winners.length) how = t(hand ? "Hand {round} blocked: nobody won it." : "Round {round} blocked: nobody won it.", { round });
    else if (hand) how = winnersText(winners, "Hand {round} blocked: you won it.", "Hand {round} blocked: {name} won it.", "Hand {round} blocked: {names} won it together.", { round });
    else how = winnersText(winners, "Round {round} blocked: you won it.", "Round {round} blocked: {name} won it.", "Round {round} blocked: {names} won it together.", { round });
  }
  return how;
}
