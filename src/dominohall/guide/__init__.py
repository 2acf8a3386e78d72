"""The players' rules guide ("How to play"), shipped inside the package.

``rules_markdown()`` is the guide as Markdown: the web app's *How to play* page and the
terminal game's help screen both show it; ``docs/rules.md`` is the same text for readers of
the repository. Its option and deal tables are generated from the engine's option
definitions: ``python -m dominohall.guide --write`` rebuilds them (see ``generate.py``).
"""

from __future__ import annotations

from importlib import resources


def rules_markdown() -> str:
    """The whole rules guide as Markdown."""
    return resources.files(__package__).joinpath("rules.md").read_text(encoding="utf-8")
