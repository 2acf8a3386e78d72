"""The static pages in a player's language, before any script runs.

The pages mark their text for translation (``data-i18n``, ``data-i18n-attr``; see
``js/i18n.js``). :func:`translate_html` fills the marked text and attributes in one
language on the server and sets ``<html lang>``, so the page title, the first paint and
a browser without JavaScript are already in the player's language. The English source
stays on each element (``data-i18n="..."``, ``data-i18n-src-<attr>="..."``), where
``js/i18n.js`` reads it when the player switches language in place.
"""

from __future__ import annotations

import functools
import html
import re

from . import translator

_ELEMENT = re.compile(r"<(?P<tag>[a-z][\w-]*)"
                      r"(?P<attrs>\s[^<>]*?\bdata-i18n(?!-)(?:=\"(?P<key>[^\"]*)\")?[^<>]*)>"
                      r"(?P<text>[^<]*)</(?P=tag)>", re.S)
_ATTR_MARKED = re.compile(r"<[a-z][\w-]*\s[^<>]*\bdata-i18n-attr=\"(?P<names>[^\"]*)\"[^<>]*>",
                          re.S)
_HTML_LANG = re.compile(r"<html lang=\"[^\"]*\"")


def _attr(tag: str, name: str) -> re.Match[str] | None:
    return re.search(rf"\s{re.escape(name)}=\"([^\"]*)\"", tag)


@functools.cache
def translate_html(page: str, lang: str) -> str:
    """`page` (marked HTML, English) with its marked texts in `lang`."""
    tr = translator(lang)

    def element(m: re.Match[str]) -> str:
        source = html.unescape(m["key"] if m["key"] else " ".join(m["text"].split()))
        if not source:
            return m.group(0)
        attrs = m["attrs"]
        if not m["key"]:                # keep the English source where i18n.js reads it
            attrs = re.sub(r'\bdata-i18n(?!-)(="")?', f'data-i18n="{html.escape(source)}"',
                           attrs, count=1)
        text = html.escape(tr.gettext(source), quote=False)
        return f"<{m['tag']}{attrs}>{text}</{m['tag']}>"

    def attributes(m: re.Match[str]) -> str:
        tag = m.group(0)
        for name in m["names"].replace(",", " ").split():
            found = _attr(tag, name)
            if found is None or not found[1]:
                continue
            source = html.unescape(found[1])
            keep = f' data-i18n-src-{name}="{html.escape(source)}"'
            said = f' {name}="{html.escape(tr.gettext(source))}"'
            tag = tag[:found.start()] + said + tag[found.end():]
            if _attr(tag, f"data-i18n-src-{name}") is None:
                end = -2 if tag.endswith("/>") else -1
                tag = tag[:end] + keep + tag[end:]
        return tag

    out = _ELEMENT.sub(element, page)
    out = _ATTR_MARKED.sub(attributes, out)
    return _HTML_LANG.sub(f'<html lang="{tr.lang}"', out, count=1)
