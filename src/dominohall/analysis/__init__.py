"""Advice and analysis from a seat's view: what the strongest bot would play, and after
the match, every decision weighed by it.

* :mod:`.advice`: the hint behind the terminal's ``?`` and the web table's Hint button
  (`advise`), from the asking seat's view alone, as codes each side words.
"""

from __future__ import annotations

from .advice import Advice, Reason, advise

__all__ = ["Advice", "Reason", "advise"]
