"""Babel extraction methods beyond the standard ones (named in ``babel.cfg``).

* ``python_with_help``: the standard Python extractor plus the texts a player reads that
  are not wrapped in ``_()`` where they are written: argparse ``help=``, ``description=``
  and ``epilog=`` (the CLI translates them when it builds its parser) and the one-line
  explanation of every ``OptionSpec`` (the engine imports only the standard library, so
  its option texts are translated where they are shown).
* ``html``: the static pages' text marked for translation: the text of an element with
  ``data-i18n`` (or the attribute's value when it has one) and the attributes listed in
  ``data-i18n-attr`` (``js/i18n.js`` translates the same elements in the browser).
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from html.parser import HTMLParser
from typing import IO, Any

from babel.messages.extract import extract_javascript, extract_python

HELP_KEYWORDS = ("help", "description", "epilog", "label")
OPTION_SPEC_HELP_ARG = 3            # OptionSpec(name, default, choices, help, ...)

Result = tuple[Any, ...]

#: The API's names in each language (one keyword set for the command; each method keeps
#: its own, so a Python ``t[...]`` or a JS ``_`` is not taken for a message).
PY_KEYWORDS = ("_", "ngettext", "N_", "pgettext", "NP_")
JS_KEYWORDS = ("t", "tn")


def _only(keywords: Collection[str], names: tuple[str, ...]) -> dict[str, Any]:
    """Babel hands a method the keyword names only; it applies their specs itself."""
    return {k: None for k in keywords if k in names}


def python(fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str],
           options: Mapping[str, Any]) -> Iterator[Result]:
    """Babel's Python extractor with the Python keywords only."""
    yield from extract_python(fileobj, _only(keywords, PY_KEYWORDS), comment_tags,
                              dict(options))  # type: ignore[arg-type]


def javascript(fileobj: IO[bytes], keywords: Collection[str],
               comment_tags: Collection[str], options: Mapping[str, Any]
               ) -> Iterator[Result]:
    """Babel's JavaScript extractor with the browser's keywords (t, tn) only."""
    yield from extract_javascript(fileobj, _only(keywords, JS_KEYWORDS), comment_tags,
                                  dict(options))  # type: ignore[arg-type]


def python_with_help(fileobj: IO[bytes], keywords: Collection[str],
                     comment_tags: Collection[str], options: Mapping[str, Any]
                     ) -> Iterator[Result]:
    data = fileobj.read()
    import io

    yield from python(io.BytesIO(data), keywords, comment_tags, options)
    tree = ast.parse(data.decode(options.get("encoding", "utf-8")))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        fname = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        texts: list[ast.expr] = [k.value for k in node.keywords if k.arg in HELP_KEYWORDS]
        if fname == "OptionSpec" and len(node.args) > OPTION_SPEC_HELP_ARG:
            texts.append(node.args[OPTION_SPEC_HELP_ARG])
        for value in texts:
            if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value:
                yield value.lineno, "", value.value, []


class _Marked(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        line = self.getpos()[0]
        for name in a.get("data-i18n-attr", "").replace(",", " ").split():
            if a.get(name):
                self.found.append((line, a[name]))
        if "data-i18n" in a:
            if a["data-i18n"]:
                self.found.append((line, a["data-i18n"]))
            else:
                self._open.append((tag, line, []))
                return
        if self._open:
            self._open.append((tag, line, []))   # nested element: its text joins the parent

    def handle_endtag(self, tag: str) -> None:
        if not self._open:
            return
        _tag, line, parts = self._open.pop()
        if self._open:
            self._open[-1][2].extend(parts)
        else:
            text = " ".join("".join(parts).split())
            if text:
                self.found.append((line, text))

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][2].append(data)


def html(fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str],
         options: Mapping[str, Any]) -> Iterator[Result]:
    p = _Marked()
    p.feed(fileobj.read().decode(options.get("encoding", "utf-8")))
    p.close()
    for line, text in p.found:
        yield line, "", text, []
