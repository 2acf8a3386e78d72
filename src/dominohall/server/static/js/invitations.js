// The lobby's "Invitations" card: a logged-in player sees their friends' invitations to a
// table (no link needs to be sent) and a line saying who they are logged in as; a guest
// sees nothing here.  Polled while the lobby is open.
import { api, el, invitationList, t } from "./community.js";

const EVERY_MS = 10000;

export async function mountInvitations(parent) {
  let me;
  try { me = await api("/api/account"); } catch { return; }
  const card = el("div", { class: "lobby-invitations", id: "lobby-invitations", "aria-labelledby": "lobby-inv-h" });
  if (!me.name) {
    card.removeAttribute("aria-labelledby");
    card.append(el("p", { class: "hint" }, t("Playing as a guest."), " ",
      el("a", { href: "/account", text: t("Log in or create an account") })));
    parent.prepend(card);
    return;
  }
  const list = el("div", { id: "lobby-invitation-list", "aria-live": "polite" });
  card.append(el("h2", { id: "lobby-inv-h", text: t("Invitations") }),
    el("p", { class: "hint" }, t("Logged in as {name}", { name: me.name }), " · ",
      el("a", { href: "/friends", text: t("Friends") })), list);
  parent.prepend(card);
  let shown = "";
  const update = async () => {
    let data;
    try { data = await api("/api/friends"); } catch { return; }
    const key = JSON.stringify(data.invitations);
    if (key === shown) return;
    shown = key;
    list.replaceChildren(data.invitations.length ? invitationList(data.invitations)
      : el("p", { class: "hint", text: t("No invitations now.") }));
  };
  await update();
  setInterval(update, EVERY_MS);
}
