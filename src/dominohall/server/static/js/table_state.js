// The table page's handling of server messages, as a pure function (no DOM, no clock, no
// socket): tested under Node (tests/i18n/test_browser_js.py, tests/server/test_table_state.py).
//
//   import { initialState, reduce } from "./table_state.js";
//   let S = initialState();
//   const { state, effects } = reduce(S, message, Date.now());   // message: a parsed server message
//   S = state;  for (const fx of effects) ...                       // the page does the effects
//
// `state` is never changed in place: reduce returns a new object (sharing what did not
// change).  Its fields:
//   view        the seat's Game.view without its log (null before the first `state`)
//   log         the whole log so far (the events of every `state`, joined at log_start)
//   table       the table's info (seats, status, pause, ready, turn, notices, hints, next_table...)
//   loaded      a `state` has arrived
//   pending     an action was sent and not yet answered
//   selected    the tile the player picked (dropped when it leaves the hand or the turn ends)
//   hint        {action, why} for the current version; hintAsked: the version asked about
//   animate     the other player's play to fly in (the last play event of this message)
//   pauseDeadline, turnDeadline   ms timestamps (from `now`) the page counts down to
// Effects (objects with a `type`), in order:
//   {type: "notice", notice}            a new table notice (a re-invite): a toast
//   {type: "event", event}              a new log event (announce it: last tile, a play)
//   {type: "round_end", event, gameEnd} show the round's (or the match's) end
//   {type: "pause_over"}                the round's pause ended (close its summary)
//   {type: "error", error}              the server refused something (say it)
//   {type: "hint"}                      a hint for this version arrived
//   {type: "again", next, from}         the table's next match (Play again) was offered
//   {type: "render"}                    draw the page again
export function initialState() {
  return { view: null, log: [], table: null, loaded: false, pending: false, selected: null,
    hint: null, hintAsked: null, animate: null, pauseDeadline: 0, turnDeadline: 0 };
}

/** Merge a `table` message's info into the state; the effects it brings. */
function withTable(state, tb, now, effects) {
  const before = state.table;
  const wasPaused = !!(before && before.pause > 0);
  if (before) {
    const seen = (before.notices || []).length;
    for (const n of (tb.notices || []).slice(seen)) effects.push({ type: "notice", notice: n });
    if (tb.next_table && tb.next_table !== before.next_table) {
      effects.push({ type: "again", next: tb.next_table, from: tb.again_by ?? null });
    }
  }
  const out = { ...state, table: tb, pauseDeadline: now + (tb.pause || 0) * 1000,
    turnDeadline: tb.turn ? now + tb.turn.left * 1000 : 0 };
  if (wasPaused && !(tb.pause > 0)) effects.push({ type: "pause_over" });
  return out;
}

/** The new state and the effects of one server message. */
export function reduce(state, m, now = 0) {
  const effects = [];
  if (!m || typeof m !== "object") return { state, effects };
  if (m.type === "state") {
    const log = m.log_start === 0 ? m.events : state.log.slice(0, m.log_start).concat(m.events);
    const first = !state.loaded;
    const fresh = first ? [] : m.events;
    const oldVersion = state.view ? state.view.version : null;
    let s = withTable({ ...state, view: m.view, log, pending: false }, m.table, now, effects);
    if (m.view.version !== oldVersion) s = { ...s, hint: null, hintAsked: null };
    if (s.selected && !(m.view.hand || []).includes(s.selected)) s = { ...s, selected: null };
    if (!m.view.legal_actions.length) s = { ...s, selected: null };
    const played = [...fresh].reverse().find((e) => e.type === "play");
    s = { ...s, animate: played && played.seat !== m.view.seat ? played : null, loaded: true };
    effects.push({ type: "render" });
    for (const e of fresh) {
      effects.push({ type: "event", event: e });
      if (e.type === "round_end") {
        effects.push({ type: "round_end", event: e, gameEnd: log.find((x) => x.type === "game_end") || null });
      }
    }
    if (first) {
      // a page opened (or reloaded) during a round's pause or after the match: its summary
      const lastEnd = [...log].reverse().find((e) => e.type === "round_end") || null;
      if (m.view.is_over && lastEnd) effects.push({ type: "round_end", event: lastEnd, gameEnd: log.find((e) => e.type === "game_end") || null });
      else if (lastEnd && m.table.pause > 0) effects.push({ type: "round_end", event: lastEnd, gameEnd: null });
    }
    return { state: s, effects };
  }
  if (m.type === "table") {
    const s = withTable(state, m.table, now, effects);
    effects.push({ type: "render" });
    return { state: s, effects };
  }
  if (m.type === "hint") {
    if (!state.view || m.version !== state.view.version) {
      effects.push({ type: "render" });
      return { state: { ...state, hintAsked: null }, effects };     // the game moved on
    }
    const play = /^(\d+)-(\d+)(?:>.+)?$/.exec(m.action);
    const tile = play ? `${Math.max(+play[1], +play[2])}-${Math.min(+play[1], +play[2])}` : null;
    const s = { ...state, hintAsked: null, hint: { action: m.action, why: m.why }, selected: tile || state.selected };
    effects.push({ type: "hint" }, { type: "render" });
    return { state: s, effects };
  }
  if (m.type === "error") {
    effects.push({ type: "error", error: m }, { type: "render" });
    return { state: { ...state, pending: false, hintAsked: null }, effects };
  }
  return { state, effects };
}

/** The state after the player sent an action (the page calls it; pure too). */
export function sent(state) { return { ...state, pending: true, selected: null }; }
