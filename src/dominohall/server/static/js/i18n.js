// Player-facing text in the player's language (issue 12 fills this in).
// Every string a player reads goes through t() or tn(), so that it can be translated:
//   t("Your turn")
//   t("{name} has one tile left", { name })
//   tn("{n} tile", "{n} tiles", n, { n })
// Placeholders are names in braces. Until the catalogs exist these return the English text.

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

export function t(msgid, params = {}) {
  return fill(msgid, params);
}

export function tn(singular, plural, n, params = {}) {
  return fill(n === 1 ? singular : plural, { n, ...params });
}
