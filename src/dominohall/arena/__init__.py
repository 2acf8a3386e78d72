"""The arena: bots play duplicate deals against each other and the results are measured.

>>> from dominohall import arena
>>> r = arena.run("block", players=2, bots="greedy,random", deals=2, seed=1)
>>> r.complete, r.stats["bots"]["greedy"]["copies"]
(True, 1)

Every deal is played once per seating rotation, so each bot sits in every seat on the
same tiles; see `run` for seeds and `stats` for what is measured.
"""

from __future__ import annotations

from .match import ArenaError, play_game, play_task
from .report import csv_text, print_tables, write_csv
from .runner import Results, load, run
from .seeds import bot_seed, deal_seed

__all__ = ["ArenaError", "Results", "bot_seed", "csv_text", "deal_seed", "load", "play_game",
           "play_task", "print_tables", "run", "write_csv"]
