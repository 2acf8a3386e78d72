"""Player-facing text in the player's language (issue 12 fills this in).

Every string a player reads goes through this module, so that it can be translated:

    from dominohall.i18n import _, ngettext, N_
    _("Your turn")
    _("{name} has one tile left").format(name=name)
    ngettext("{n} tile", "{n} tiles", n).format(n=n)
    LABEL = N_("Boneyard")          # marked for extraction, translated later with _(LABEL)

Placeholders are ``str.format`` names in braces. Until the catalogs exist these return the
English text unchanged; the API stays the same when they do.
"""

from __future__ import annotations


def _(message: str) -> str:
    """The message in the current language (English until a catalog is loaded)."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The plural form of the message for ``n`` in the current language."""
    return singular if n == 1 else plural


def N_(message: str) -> str:
    """Mark a message for extraction without translating it yet (module-level labels)."""
    return message


def set_language(lang: str | None) -> str:
    """Choose the language for this process (the terminal game); returns the one used."""
    return "en"
