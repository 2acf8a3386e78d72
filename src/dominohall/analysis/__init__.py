"""Advice and analysis from a seat's view: what the strongest bot would play, and after
the match, every decision weighed by it.

* :mod:`.advice`: the hint behind the terminal's ``?`` and the web table's Hint button
  (`advise`), from the asking seat's view alone, as codes each side words.
* :mod:`.review`: after the match, every decision of a record weighed from the mover's
  view (`analyse`): each legal action's value, the loss against the best, a mark, and a
  hindsight column with every hand known.
"""

from __future__ import annotations

from .advice import Advice, Reason, advise
from .review import Analysis, analyse, settings_for

__all__ = ["Advice", "Analysis", "Reason", "advise", "analyse", "settings_for"]
