// Play again at the table page: the notice at the finished table ("Ana wants to play
// again", a Join button and the countdown of the seat kept for you), and the line at the
// new table while seats are still kept for their players.
//
//   import { againOffer, renderOffer, waitingForText } from "./again.js";
//   S.again = againOffer(message.table, message.again, Date.now());  // an "again" message
//   renderOffer($("again-offer"), S.again, mySeat(), tableId);       // each second
//
// The server keeps each seat of the new table for the device that held it here: Join
// (POST /api/tables/{id}/again with this table's seat cookie) takes you to it, no name asked;
// No thanks (POST .../again/decline) frees it at once.
import { api, el } from "./api.js";
import { t, tn, withLang } from "./i18n.js";

/** The offer as the page keeps it: `info` is a table info's `again` ({by, name, left,
 * reserved, free_as}); `deadline` is a Date.now()-style time. */
export function againOffer(next, info, now) {
  const a = info || {};
  return { table: next, by: a.by ?? null, name: a.name || null, reserved: a.reserved || [],
    freeAs: a.free_as || "bot", deadline: now + (a.left || 0) * 1000, dismissed: false };
}

function secondsLeft(offer, now) { return Math.max(0, Math.ceil((offer.deadline - now) / 1000)); }

/** Show (or hide) the notice for `seat` (null: a spectator, never asked). */
export function renderOffer(box, offer, seat, tableId, now = Date.now()) {
  const left = offer ? secondsLeft(offer, now) : 0;
  if (!offer || offer.dismissed || seat === null || seat === offer.by || !offer.reserved.includes(seat) || left <= 0) {
    box.hidden = true;
    return;
  }
  if (box.dataset.table !== offer.table) {        // built once; the countdown is updated
    box.dataset.table = offer.table;
    const msg = el("p", { class: "again-error", role: "alert" });
    const join = el("button", { type: "button", class: "primary", id: "again-join", text: t("Join"),
      onclick: async () => {
        join.disabled = true;
        try {
          const next = await api(`/api/tables/${encodeURIComponent(tableId)}/again`, { method: "POST", body: {} });
          location.href = withLang(`/t/${next.id}`);
        } catch (err) {
          msg.textContent = err.message;
          join.disabled = false;
        }
      } });
    // no thanks: the seat is freed now (a bot or an invite), so the others need not wait
    const later = el("button", { type: "button", id: "again-dismiss", text: t("No thanks"),
      onclick: async () => {
        offer.dismissed = true;
        box.hidden = true;
        try {
          await api(`/api/tables/${encodeURIComponent(tableId)}/again/decline`, { method: "POST", body: {} });
        } catch { /* the countdown frees it anyway */ }
      } });
    box.replaceChildren(
      el("p", { class: "again-title", id: "again-title" }),
      el("p", { class: "again-left", id: "again-left", role: "timer" }),
      el("div", { class: "again-buttons" }, join, later), msg);
  }
  box.querySelector("#again-title").textContent = offer.name
    ? t("{name} wants to play again", { name: offer.name }) : t("The host wants to play again");
  box.querySelector("#again-left").textContent = offer.freeAs === "invite"
    ? tn("Your seat at the new table is kept for you for {n} more second; then it gets an invite link.",
      "Your seat at the new table is kept for you for {n} more seconds; then it gets an invite link.", left)
    : tn("Your seat at the new table is kept for you for {n} more second; then a bot takes it.",
      "Your seat at the new table is kept for you for {n} more seconds; then a bot takes it.", left);
  box.hidden = false;
}

/** At the new table: who it waits for and how long (null when no seat is kept). */
export function waitingForText(table, names, now = Date.now(), since = now) {
  const a = table && table.again;
  if (!a || !(a.reserved || []).length) return null;
  const left = Math.max(0, Math.ceil(a.left - (now - since) / 1000));
  return tn("Waiting for {names} to come back: {n} second left.", "Waiting for {names} to come back: {n} seconds left.",
    left, { names });
}
