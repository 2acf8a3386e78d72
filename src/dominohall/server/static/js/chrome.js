// What every page around the table shares: the language set-up and the header's links.
// The i18n module (issue 12) grows initI18n() and languageMenu(); until it does, both are
// skipped here, so no page needs to change when they land.
import * as i18n from "./i18n.js";
import { el } from "./api.js";

const { t } = i18n;

/** Load the player's language before the first render. */
export async function startI18n() {
  if (typeof i18n.initI18n === "function") await i18n.initI18n();
  document.documentElement.lang = document.documentElement.lang || "en";
}

/** The site links (the current page marked) and the language menu, for a page header. */
export function siteNav(current) {
  const link = (href, key, text) => el("a", { href, "aria-current": current === key ? "page" : null, text });
  return el("nav", { class: "top-nav", "aria-label": t("Site") },
    link("/", "lobby", t("Lobby")),
    link("/play", "play", t("Quick play")),
    link("/how-to-play", "guide", t("How to play")),
    link("/replay", "replay", t("Replays")),
    link("/players", "players", t("Leaderboards")),
    link("/friends", "friends", t("Friends")),
    link("/account", "account", t("Account")),
    typeof i18n.languageMenu === "function" ? i18n.languageMenu() : null);
}

/** The language menu in a server-rendered page's header (the How to play page). */
export async function mountLanguageMenu(header) {
  await startI18n();
  if (header && typeof i18n.languageMenu === "function") header.appendChild(i18n.languageMenu());
}
