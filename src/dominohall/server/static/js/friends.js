// The friends page (/friends): add a friend by name, see who is online and at which public
// table, invite a friend straight to one of your live tables (the invitation shows in their
// lobby: no link to send), and the invitations waiting for you.
import { $, api, el, field, form, invitationList, playerLink, ready, startPage, t } from "./community.js";
import { GAME_LABELS } from "./api.js";

let mine = [];          // your live tables (GET /api/account/tables)

function friendRow(f) {
  const status = f.online ? t("online") : t("offline");
  const where = f.table ? el("a", { href: `/t/${encodeURIComponent(f.table)}`, text: t("at a table") }) : null;
  const invite = f.mutual && mine.length ? el("span", { class: "invite" },
    el("label", { for: `inv-${f.name}`, class: "visually-hidden", text: t("Table to invite {name} to", { name: f.name }) }),
    el("select", { id: `inv-${f.name}` }, ...mine.map((x) => el("option", { value: x.table,
      text: t("{game}, seat {n}", { game: GAME_LABELS[x.game] || x.game, n: x.seat + 1 }) }))),
    el("button", { type: "button", class: "small", onclick: (ev) => inviteTo(f.name, ev.target) },
      t("Invite {name}", { name: f.name }))) : null;
  return el("li", { class: "friend", "data-name": f.name },
    el("span", { class: `presence ${f.online ? "on" : "off"}`, "aria-hidden": "true" }),
    playerLink(f.name), " ", el("span", { class: "status", text: status }), where ? " · " : "", where,
    f.mutual ? null : el("span", { class: "hint", text: ` · ${t("has not added you yet")}` }),
    invite,
    el("button", { type: "button", class: "small link", onclick: () => remove(f.name) },
      t("Remove {name}", { name: f.name })));
}

async function inviteTo(name, button) {
  const table = button.previousElementSibling.value;
  $("friends-error").textContent = "";
  $("friends-done").textContent = "";
  try {
    await api("/api/friends/invite", { method: "POST", body: { name, table } });
    $("friends-done").textContent = t("{name} is invited: the invitation waits in their lobby.", { name });
  } catch (err) { $("friends-error").textContent = err.message; }
}

async function remove(name) {
  try {
    await api("/api/friends/remove", { method: "POST", body: { name } });
    await refresh();
  } catch (err) { $("friends-error").textContent = err.message; }
}

async function refresh() {
  const data = await api("/api/friends");
  const list = data.friends.length ? el("ul", { class: "plain", id: "friend-list" }, ...data.friends.map(friendRow))
    : el("p", { class: "hint", id: "friend-list", text: t("No friends yet: add one by name.") });
  $("friend-list").replaceWith(list);
  $("invitations").replaceChildren(
    el("h2", { id: "invitations-h", text: t("Invitations") }),
    data.invitations.length ? invitationList(data.invitations)
      : el("p", { class: "hint", text: t("No invitations now.") }));
}

async function main() {
  const me = await startPage("friends", () => t("Friends — dominohall"));
  if (!me.name) {
    $("main").replaceChildren(el("section", { class: "card" }, el("h2", { text: t("Friends") }),
      el("p", { text: t("Friends need an account.") }),
      el("p", {}, el("a", { href: "/account?next=/friends", text: t("Log in or create an account") }))));
    ready();
    return;
  }
  try { mine = await api("/api/account/tables"); } catch { mine = []; }
  $("main").replaceChildren(
    form("add", t("Add a friend"), [field("add-name", t("Name"), { maxlength: 24, autocomplete: "off", spellcheck: "false", required: true })],
      t("Add"), (f) => api("/api/friends/add", { method: "POST", body: { name: f.querySelector("#add-name").value.trim() } }),
      async (_, f) => { f.reset(); await refresh(); }),
    el("section", { class: "card", "aria-labelledby": "friends-h" },
      el("h2", { id: "friends-h", text: t("Your friends") }),
      el("p", { class: "hint", text: t("You can invite a friend who added you too to a table you sit at.") }),
      el("p", { id: "friend-list" }),
      el("p", { id: "friends-error", class: "error", role: "alert" }),
      el("p", { id: "friends-done", role: "status" })),
    el("section", { class: "card", id: "invitations", "aria-labelledby": "invitations-h" }));
  await refresh();
  ready();
}

main();
