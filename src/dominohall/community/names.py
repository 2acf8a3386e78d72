"""Account names: the server's display-name clean-up, then a key that makes names unique
after case folding, and a *skeleton* that makes look-alikes collide.

The skeleton follows the idea of Unicode's UTS #39: every character is replaced by one
representative of its class of confusable characters (Unicode's confusables data as
shipped by the ``confusable_homoglyphs`` package, joined into classes), after NFKC and
case folding, with combining marks and spaces dropped.  Two names with one skeleton
look alike: the second is refused.

>>> name_key("  Ann  Lee ")
'ann lee'
>>> skeleton("Ann") == skeleton("\u0410nn")      # Cyrillic A
True
>>> skeleton("paul") == skeleton("pau1")
True
>>> skeleton("Ann") == skeleton("Ben")
False
"""

from __future__ import annotations

import functools
import unicodedata

from ..server.protocol import MAX_NAME, clean_name

MIN_NAME = 3


@functools.cache
def _classes() -> dict[str, str]:
    """character -> the representative of its confusable class (the smallest code point)."""
    from confusable_homoglyphs.confusables import confusables_data  # type: ignore[import-untyped]

    parent: dict[str, str] = {}

    def find(ch: str) -> str:
        root = ch
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(ch, ch) != root:       # path compression
            parent[ch], ch = root, parent[ch]
        return root

    # Unicode's pairs as they are: folding them first would chain whole alphabets
    # together (I ~ l, then i ~ l ...); names are folded before they are looked up
    for ch, glyphs in confusables_data.items():
        if len(ch) != 1:
            continue
        for glyph in glyphs:
            other = "".join(c for c in glyph["c"] if unicodedata.category(c) != "Cf")
            if len(other) != 1:
                continue
            a, b = find(ch), find(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {ch: find(ch) for ch in parent}


def display_name(text: object) -> str:
    """The name as everyone sees it (the server's clean-up of display names)."""
    return clean_name(text)


def name_key(name: str) -> str:
    """What must be unique: the cleaned name, case folded."""
    return unicodedata.normalize("NFC", clean_name(name).casefold())


def skeleton(name: str) -> str:
    """What look-alike names share (see the module's doc)."""
    classes = _classes()
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name_key(name))
                                 .casefold())
    return "".join(classes.get(ch, ch) for ch in text
                   if not unicodedata.combining(ch) and not ch.isspace())


def name_problem(text: object) -> str | None:
    """Why `text` cannot be an account name (a reason code), or None if it can."""
    if not isinstance(text, str):
        return "account_name_short"
    name = clean_name(text)
    visible = "".join(ch for ch in unicodedata.normalize("NFC", text[:4 * MAX_NAME + 1])
                      if unicodedata.category(ch)[0] != "C")
    if len(text) > 4 * MAX_NAME or len(" ".join(visible.split())) > MAX_NAME:
        return "account_name_long"      # refused, never silently cut
    if len(name) < MIN_NAME or not any(ch.isalnum() for ch in name):
        return "account_name_short"
    return None
