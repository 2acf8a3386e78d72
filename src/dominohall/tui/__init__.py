"""The terminal game (Textual): `dominohall play` and `dominohall replay`.

The screen renders only ``Game.view(human_seat)`` (see ``session.Session``);
``render`` turns a view into text, ``widgets`` and ``app`` put it on screen.
"""

from .session import Session, autosave_path, load_record

__all__ = ["Session", "autosave_path", "load_record"]
