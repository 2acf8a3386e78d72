// The leaderboards (/players?game=...): the best rated players of one game, settled ratings
// first; a provisional rating (too few rated matches yet) is marked so.
import { $, api, el, playerLink, ready, startPage, t } from "./community.js";
import { GAME_LABELS } from "./api.js";

const GAMES = ["mexican_train", "all_fives", "block", "draw"];

function board(game, rows) {
  if (!rows.length) return el("p", { id: "board-empty", class: "hint", text: t("Nobody is rated in this game yet.") });
  const head = el("tr", {}, ...[t("Place"), t("Player"), t("Rating"), t("Matches"), t("Wins")]
    .map((text) => el("th", { scope: "col", text })));
  const body = rows.map((r) => el("tr", {},
    el("td", { text: String(r.place) }),
    el("td", {}, playerLink(r.name)),
    el("td", {}, String(r.rating), r.provisional ? el("span", { class: "provisional", text: ` ${t("(provisional)")}` }) : null),
    el("td", { text: String(r.matches) }),
    el("td", { text: String(r.wins) })));
  return el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-labelledby": "board-h" },
    el("table", { id: "board" }, el("thead", {}, head), el("tbody", {}, ...body)));
}

async function main() {
  await startPage("players", () => t("Leaderboards — dominohall"));
  const asked = new URLSearchParams(location.search).get("game");
  const game = GAMES.includes(asked) ? asked : GAMES[0];
  const tabs = el("nav", { class: "game-tabs", "aria-label": t("Games") }, ...GAMES.map((g) =>
    el("a", { href: `/players?game=${g}`, "aria-current": g === game ? "page" : null, text: GAME_LABELS[g] })));
  let content;
  try {
    content = board(game, await api(`/api/leaderboard/${game}?limit=100`));
  } catch (err) {
    content = el("p", { class: "error", role: "alert", text: err.message });
  }
  const find = el("form", { id: "find", class: "inline", role: "search" },
    el("label", { for: "find-name", text: t("Find a player") }),
    el("input", { id: "find-name", type: "search", maxlength: 24, autocomplete: "off", spellcheck: "false" }),
    el("button", { type: "submit", text: t("Open") }));
  find.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = $("find-name").value.trim();
    if (name) location.href = `/players/${encodeURIComponent(name)}`;
  });
  $("main").replaceChildren(el("section", { class: "card", "aria-labelledby": "board-h" },
    el("h2", { id: "board-h", text: t("Leaderboard: {game}", { game: GAME_LABELS[game] }) }),
    tabs, content,
    el("p", { class: "hint", text: t("Ratings come from rated quick-play matches. A new player's rating is provisional until it settles.") })),
  el("section", { class: "card" }, find));
  ready();
}

main();
