// Small fetch helpers for the lobby REST API, and the DOM builder every page uses.
import { t, tError } from "./i18n.js";

// `raw`: a body that is JSON text already (sent as it is, e.g. a record read from a file).
export async function api(path, { method = "GET", body, raw } = {}) {
  let res;
  // every state change is JSON (the server refuses other bodies with cookies: CSRF), so a
  // POST without a body sends {}
  const payload = raw !== undefined ? raw : body ? JSON.stringify(body)
    : method !== "GET" ? "{}" : undefined;
  try {
    res = await fetch(path, {
      method,
      headers: payload !== undefined ? { "Content-Type": "application/json" } : {},
      body: payload,
      credentials: "same-origin",
    });
  } catch {
    throw new Error(t("Cannot reach the server. Check your connection and try again."));
  }
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    // the error in the player's language from its code and params (the English message
    // is for the API); a body without a code (a proxy's page) says the status
    let msg = data && typeof data === "object" ? tError(data) : "";
    if (!msg && data && Array.isArray(data.detail)) msg = data.detail.map((d) => tError(d)).filter(Boolean).join("; ");
    const err = new Error(msg || t("The server answered {status}.", { status: res.status }));
    err.status = res.status;
    err.code = data && data.code;
    err.error = data && data.error;
    throw err;
  }
  return data;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(c) : c);
  }
  return node;
}

// The games' names, translated when read (GAME_LABELS[name] works as before).
export const GAME_LABELS = {
  get mexican_train() { return t("Mexican Train"); },
  get all_fives() { return t("All Fives"); },
  get draw() { return t("Draw dominoes"); },
  get block() { return t("Block dominoes"); },
};
