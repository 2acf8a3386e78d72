// The account page (/account): a guest signs up or logs in; an account holder changes the
// password, logs out (here or everywhere), returns to their live tables, or deletes the
// account.  Every refusal of the API is said in words (api() reads its code).
import { $, api, el, field, form, playerLink, ready, startPage, t } from "./community.js";
import { GAME_LABELS } from "./api.js";

const value = (f, id) => f.querySelector(`#${id}`).value;

function credentials(f, prefix) {
  return { name: value(f, `${prefix}-name`), password: value(f, `${prefix}-password`) };
}

function nameField(prefix) {
  return field(`${prefix}-name`, t("Name"), { autocomplete: "username", maxlength: 24, required: true,
    spellcheck: "false", autocapitalize: "none" });
}

function guest() {
  const back = new URLSearchParams(location.search).get("next");
  const onward = () => { location.href = back && back.startsWith("/") && !back.startsWith("//") ? back : "/account"; };
  $("main").replaceChildren(
    el("p", { class: "card intro", text: t("An account is optional: anyone can play without one. It keeps your name, a rating, your match history and your friends.") }),
    form("login", t("Log in"), [nameField("login"),
      field("login-password", t("Password"), { type: "password", autocomplete: "current-password", required: true })],
    t("Log in"), (f) => api("/api/account/login", { method: "POST", body: credentials(f, "login") }), onward),
    form("signup", t("Create an account"), [nameField("signup"),
      el("p", { class: "hint", id: "signup-name-help", text: t("3 to 24 characters; it is shown to other players.") }),
      field("signup-password", t("Password"), { type: "password", autocomplete: "new-password", required: true,
        minlength: 8, "aria-describedby": "signup-password-help" }),
      el("p", { class: "hint", id: "signup-password-help", text: t("At least 8 characters. No e-mail is needed, so a forgotten password cannot be recovered.") })],
    t("Create the account"), (f) => api("/api/account/signup", { method: "POST", body: credentials(f, "signup") }), onward));
  $("signup-name").setAttribute("aria-describedby", "signup-name-help");
}

function liveTables(tables) {
  const list = el("ul", { id: "my-tables", class: "plain" });
  for (const x of tables) {
    list.append(el("li", {}, el("button", { type: "button", class: "small", "data-table": x.table,
      onclick: async (ev) => {
        ev.target.disabled = true;
        try {
          await api(`/api/account/tables/${encodeURIComponent(x.table)}/resume`, { method: "POST" });
          location.href = `/t/${encodeURIComponent(x.table)}`;
        } catch (err) {
          ev.target.disabled = false;
          $("tables-error").textContent = err.message;
        }
      } }, t("Return to {game} (seat {n})", { game: x.label, n: x.seat + 1 }))));
  }
  return el("section", { class: "card", "aria-labelledby": "tables-h" },
    el("h2", { id: "tables-h", text: t("Your live tables") }),
    tables.length ? list : el("p", { class: "hint", text: t("You are not seated at any table now.") }),
    el("p", { id: "tables-error", class: "error", role: "alert" }));
}

async function holder(me) {
  let tables = [];
  try { tables = await api("/api/account/tables"); } catch { tables = []; }
  for (const x of tables) x.label = GAME_LABELS[x.game] || x.game;
  const post = (path, body) => api(path, { method: "POST", body });
  const logoutButton = (id, text, path) => el("button", { id, type: "button", text, onclick: async () => {
    try { await post(path); location.href = "/account"; } catch (err) { $("session-error").textContent = err.message; }
  } });
  $("main").replaceChildren(
    el("section", { class: "card", "aria-labelledby": "me-h" },
      el("h2", { id: "me-h", text: t("Logged in as {name}", { name: me.name }) }),
      el("p", {}, playerLink(me.name), " · ", el("a", { href: "/friends", text: t("Friends") })),
      el("div", { class: "buttons" },
        logoutButton("logout", t("Log out"), "/api/account/logout"),
        logoutButton("logout-all", t("Log out everywhere"), "/api/account/logout-everywhere")),
      el("p", { class: "hint", text: t("Log out everywhere ends your sessions on every device, this one too.") }),
      el("p", { id: "session-error", class: "error", role: "alert" })),
    liveTables(tables),
    form("password", t("Change the password"), [
      el("input", { type: "text", autocomplete: "username", value: me.name, hidden: true, "aria-hidden": "true", tabindex: "-1" }),
      field("old-password", t("Current password"), { type: "password", autocomplete: "current-password", required: true }),
      field("new-password", t("New password"), { type: "password", autocomplete: "new-password", required: true, minlength: 8 }),
      el("p", { class: "hint", text: t("Your other devices are logged out.") }),
      el("p", { id: "password-done", role: "status" })],
    t("Change the password"),
    (f) => post("/api/account/password", { old: value(f, "old-password"), new: value(f, "new-password") }),
    (_, f) => { f.reset(); $("password-done").textContent = t("The password is changed."); }),
    form("delete", t("Delete the account"), [
      el("p", { text: t("Your name, password and friends are deleted; finished matches stay in the records without your name. This cannot be undone.") }),
      field("delete-password", t("Password"), { type: "password", autocomplete: "current-password", required: true }),
      el("label", { class: "check", for: "delete-sure" }, el("input", { id: "delete-sure", type: "checkbox" }),
        t("Yes, delete my account for good"))],
    t("Delete the account"), async (f) => {
      if (!f.querySelector("#delete-sure").checked) throw new Error(t("Tick the box to confirm first."));
      return post("/api/account/delete", { password: value(f, "delete-password") });
    }, () => { location.href = "/account?deleted=1"; }));
}

async function main() {
  const me = await startPage("account", () => t("Your account — dominohall"));
  if (me.name) await holder(me);
  else {
    guest();
    if (new URLSearchParams(location.search).get("deleted")) {
      $("main").prepend(el("p", { id: "deleted", class: "card", role: "status", text: t("The account is deleted.") }));
    }
  }
  ready();
}

main();
