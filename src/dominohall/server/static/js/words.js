// How the pages name people, trains and ends: one place, so the board, the log, the hints
// and the summaries say the same thing.  Pure (no DOM): tested under Node.
//
// `words` is {game, seat, nameOf}: the game ("mexican_train", "all_fives", ...), the
// viewer's seat (null: a spectator) and seat -> display name.  People are numbered from 1
// on every page ("Player 3", "Bot 3"); seats are 0-based only in the API.
import { currentLanguage, t } from "./i18n.js";

/** A seat's name when nobody gave one: "Player 3" (seat 2). */
export function playerLabel(seat) { return t("Player {n}", { n: seat + 1 }); }

/** A bot's name: "Bot 3" (seat 2), the same number as the seat's place at the table. */
export function botLabel(seat) { return t("Bot {n}", { n: seat + 1 }); }

/** Bot levels by their names (the same English source texts as i18n/labels.py BOT_NAMES;
 * a test keeps the two equal): the badge says "bot · Greedy (easy)", never "greedy". */
export const BOT_LEVELS = {
  // msgids, said through t() by botLevel below  // i18n: not text
  random: "Random (beginner)", greedy: "Greedy (easy)", doubles: "Doubles first (easy)",  // i18n: not text
  planner: "Planner (medium)", scorer: "Scorer (medium)", fives: "Fives hunter (medium)",  // i18n: not text
  blocker: "Blocker (medium)", pimc: "Expert (strong)", deep: "Deep search (strongest)",  // i18n: not text
};

/** A bot level in the page's language (a user's own bot: its code). */
export function botLevel(code) { return BOT_LEVELS[code] ? t(BOT_LEVELS[code]) : String(code); }

/** A seat's display name from the table's seats (the server's info), in the page's language. */
export function seatName(seats, seat) {
  if (seat === null || seat === undefined) return t("nobody");
  const s = seats && seats.find((x) => x.seat === seat);
  // a bot's name is the server's English label ("Bot 2", once 0-based): said in the
  // page's language, numbered like every other player
  if (s && s.kind === "bot" && (!s.name || s.name === `Bot ${seat}` || s.name === `Bot ${seat + 1}`)) return botLabel(seat);
  return (s && s.name) || playerLabel(seat);
}

/** The player's name, or "you" for the viewer. */
export function whoName(seat, words = {}) {
  if (seat !== null && seat !== undefined && seat === words.seat) return t("you");
  return words.nameOf ? words.nameOf(seat) : playerLabel(seat);
}

/** What a player calls a target: "Ana's train", "your train", "the Mexican train",
 * "the left end", "the spinner's upper arm", "the lead" (words.short: "the upper arm"). */
export function targetName(id, words = {}) {
  if (id === "lead" || id === null || id === undefined) return t("the lead");
  if (words.game === "mexican_train" || id === "mx" || /^t\d+$/.test(id)) {
    if (id === "mx") return t("the Mexican train");
    const owner = Number(id.slice(1));
    if (owner === words.seat) return t("your train");
    return t("{name}'s train", { name: words.nameOf ? words.nameOf(owner) : playerLabel(owner) });
  }
  // `short`: the board's list of open ends, beside the spinner itself
  const fixed = { L: t("the left end"), R: t("the right end"),
    U: words.short ? t("the upper arm") : t("the spinner's upper arm"),
    D: words.short ? t("the lower arm") : t("the spinner's lower arm") };
  if (fixed[id]) return fixed[id];
  const m = String(id).match(/^([UD])(\d+)$/);
  if (m) return m[1] === "U" ? t("the upper arm of spinner {n}", { n: m[2] }) : t("the lower arm of spinner {n}", { n: m[2] });
  return String(id);
}

function lang() { return currentLanguage() || "en"; }

/** "A, B or C" in the page's language. */
export function listOr(items) {
  try { return new Intl.ListFormat(lang(), { type: "disjunction" }).format(items); } catch { return items.join(" / "); }
}

/** "A, B and C" in the page's language. */
export function listAnd(items) {
  try { return new Intl.ListFormat(lang(), { type: "conjunction" }).format(items); } catch { return items.join(", "); }
}
