// What the community's pages share (account, leaderboards, a player's page, friends):
// the page header, who is logged in, a form whose errors are said in words, dates.
import { api, el } from "./api.js";
import { t } from "./i18n.js";
import { siteNav, startI18n } from "./chrome.js";

export const $ = (id) => document.getElementById(id);

/** Set up the language and the header; returns who is logged in ({name: null}: a guest). */
export async function startPage(current, title) {
  await startI18n();
  document.title = title();
  $("top").append(siteNav(current));
  try { return await api("/api/account"); } catch { return { name: null }; }
}

/** The page is built (the browser tests wait for this). */
export function ready() { document.body.dataset.ready = "1"; }

/** A player page's address. */
export function playerHref(name) { return `/players/${encodeURIComponent(name)}`; }

/** A link to a player's page; the name is text, never markup. */
export function playerLink(name) { return el("a", { href: playerHref(name), text: name }); }

/** A labelled input: label above, field below. */
export function field(id, label, attrs = {}) {
  return el("label", { for: id, class: "field" }, label, el("input", { id, name: id, ...attrs }));
}

/** A form that posts itself with `send(form)`, shows the API's refusal in words in its
 * alert line, and calls `done(result)`; the button is off while it waits. */
export function form(id, heading, fields, button, send, done) {
  const error = el("p", { id: `${id}-error`, class: "error", role: "alert" });
  const submit = el("button", { type: "submit", class: "primary", text: button });
  const node = el("form", { id, class: "card stack", novalidate: true, "aria-labelledby": `${id}-h` },
    el("h2", { id: `${id}-h`, text: heading }), ...fields, error, el("div", {}, submit));
  node.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    submit.disabled = true;
    try {
      const result = await send(node);
      await done(result, node);
    } catch (err) {
      error.textContent = err.message;
    } finally {
      submit.disabled = false;
    }
  });
  return node;
}

/** A date in the reader's language. */
export function day(seconds) {
  try {
    return new Date(seconds * 1000).toLocaleDateString(document.documentElement.lang || "en",
      { year: "numeric", month: "short", day: "numeric" });
  } catch { return new Date(seconds * 1000).toISOString().slice(0, 10); }
}

/** Invitations from friends to their tables, each a link straight to the table. */
export function invitationList(invitations) {
  return el("ul", { class: "plain invitations" }, ...invitations.map((i) => el("li", {},
    el("a", { href: i.url, class: "button primary", text: t("{name} invites you to a table", { name: i.name }) }),
    " ", el("span", { class: "hint", text: day(i.time) }))));
}

export { api, el, t };
