"""One human against bots: the game, who sits where, saving, resuming and undo.

A `Session` owns the `Game`; the screen only ever asks it for
``game.view(human)``.  Every applied action is autosaved (atomically) to the
user's data folder and to ``--save FILE``, as the engine's own JSON record plus
a ``"play"`` entry naming the bots, so ``dominohall play --resume FILE`` and
``dominohall replay FILE`` can reopen it.

Each match has its own autosave, ``<data dir>/games/<id>.json`` (the id is kept in the
record's ``"play"`` entry), so starting a new game never overwrites an unfinished one;
`unfinished_games()` lists the ones ``dominohall play --resume`` offers to carry on.
"""

from __future__ import annotations

import datetime
import json
import os
import pathlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import bots
from ..engine import BadRecord, Game, new_game, replay
from ..files import write_text_atomic
from ..i18n import _, error_text

LEGACY_AUTOSAVE = "autosave.json"     # the single autosave of earlier versions
GAMES_DIR = "games"
KEEP_FINISHED = 20                    # finished autosaves kept (newest first) for replay


def data_dir() -> pathlib.Path:
    """Where autosaves live: $DOMINOHALL_DATA_DIR, else the platform's user data folder."""
    env = os.environ.get("DOMINOHALL_DATA_DIR")
    if env:
        return pathlib.Path(env)
    try:
        import platformdirs
        return pathlib.Path(platformdirs.user_data_dir("dominohall", appauthor=False))
    except ImportError:                       # pragma: no cover - platformdirs comes with textual
        return pathlib.Path.home() / ".local" / "share" / "dominohall"


def autosave_dir() -> pathlib.Path:
    """The folder of the per-match autosaves."""
    return data_dir() / GAMES_DIR


def new_game_id(game_name: str) -> str:
    """'mexican_train-20261201-095519-3f2a': sortable, and unique per match."""
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S")
    return f"{game_name}-{stamp}-{secrets.token_hex(2)}"


def autosave_path(game_id: str) -> pathlib.Path:
    """The autosave of the match `game_id`."""
    return autosave_dir() / f"{game_id}.json"


def is_autosave(path: str | os.PathLike[str]) -> bool:
    """True for a file in the autosave folder (or the legacy single autosave)."""
    p = pathlib.Path(path).resolve()
    return p.parent == autosave_dir().resolve() or p == (data_dir() / LEGACY_AUTOSAVE).resolve()


@dataclass(frozen=True)
class SavedGame:
    """One autosaved match, as `dominohall play --resume` lists it."""

    path: pathlib.Path
    game: str
    players: int
    round: int
    rounds: int | None          # None: All Fives / Draw / Block played to a target
    actions: int
    saved: datetime.datetime
    is_over: bool


def saved_games() -> list[SavedGame]:
    """Every readable autosave, newest first (a broken file is left out, not an error)."""
    paths = sorted(autosave_dir().glob("*.json")) if autosave_dir().is_dir() else []
    legacy = data_dir() / LEGACY_AUTOSAVE
    if legacy.is_file():
        paths.append(legacy)
    out = []
    for path in paths:
        try:
            record = load_record(path)
            game, _seats = rebuild(record)
            saved = datetime.datetime.fromtimestamp(path.stat().st_mtime, datetime.UTC)
        except (BadRecord, OSError, ValueError, TypeError, KeyError):
            continue
        view = game.view(None)
        rounds = view.get("rounds") if game.name == "mexican_train" else (
            view["options"].get("hands") or None)
        out.append(SavedGame(path, game.name, game.players, game.round, rounds,
                             len(record.get("actions") or []), saved, game.is_over))
    out.sort(key=lambda g: g.saved, reverse=True)
    return out


def unfinished_games() -> list[SavedGame]:
    """The autosaved matches that are not over, newest first."""
    return [g for g in saved_games() if not g.is_over]


def prune_finished(keep: int = KEEP_FINISHED) -> None:
    """Remove finished autosaves beyond the newest `keep` (unfinished ones are never removed)."""
    finished = [g for g in saved_games() if g.is_over and g.path.parent == autosave_dir()]
    for g in finished[keep:]:
        try:
            g.path.unlink()
        except OSError:
            pass


def write_atomic(path: str | os.PathLike[str], data: Mapping[str, Any]) -> None:
    """Write JSON to `path` atomically (dominohall.files.write_text_atomic)."""
    write_text_atomic(path, json.dumps(data))


def load_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a saved record; a missing or broken file raises BadRecord with the reason."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        raise BadRecord(_("no such file: {path}").format(path=path)) from None
    except (OSError, UnicodeDecodeError) as err:
        raise BadRecord(_("cannot read {path}: {error}").format(path=path, error=err)) from None
    except json.JSONDecodeError as err:
        raise BadRecord(_("{path} is not JSON: {error}").format(path=path, error=err)) from None
    if not isinstance(data, dict):
        raise BadRecord(_("{path} is not a dominohall game record").format(path=path))
    return data


def rebuild(record: Mapping[str, Any], upto: int | None = None) -> tuple[Game, list[int]]:
    """Replay `record` (its first `upto` actions) and note which seat made each action."""
    actions = list(record.get("actions") or [])
    start = dict(record)
    start["actions"] = []
    game = replay(start)
    seats: list[int] = []
    for k, text in enumerate(actions[:upto]):
        seat = game.current_seat
        try:
            game.apply(text)
        except Exception as err:
            raise BadRecord(_("action #{k} {action!r} is illegal: {error}").format(
                k=k + 1, action=text, error=error_text(err))) from None
        assert seat is not None
        seats.append(seat)
    return game, seats


class Session:
    """A human at `human` and a bot at every other seat, playing one `Game`."""

    def __init__(self, game: Game, bot_names: list[str], human: int = 0,
                 save: str | None = None, autosave: bool = True, allow_undo: bool = False,
                 seats: list[int] | None = None, game_id: str | None = None,
                 autosave_file: str | os.PathLike[str] | None = None) -> None:
        """`game_id` names the match's own autosave (new id: a new file); `autosave_file`
        keeps writing to a given autosave (a resumed one)."""
        if len(bot_names) != game.players:
            raise ValueError(_("need a name per seat ({n}), got {got}").format(
                n=game.players, got=len(bot_names)))
        self.game = game
        self.human = human
        self.bot_names = bot_names
        seed = game.seed if isinstance(game.seed, int) else 0
        self.bots = {s: bots.make(n, seed=seed * 31 + s, game=game.name)
                     for s, n in enumerate(bot_names) if s != human}
        self.game_id = game_id or new_game_id(game.name)
        self.save_paths: list[pathlib.Path] = []
        self.autosave: pathlib.Path | None = None
        if autosave:
            self.autosave = (pathlib.Path(autosave_file) if autosave_file
                             else autosave_path(self.game_id))
            self.save_paths.append(self.autosave)
        if save:
            self.save_paths.append(pathlib.Path(save))
        self.allow_undo = allow_undo
        self.seats: list[int] = seats if seats is not None else []

    # ------------------------------------------------------------ creating
    @classmethod
    def new(cls, game_name: str, players: int, seed: int | None, options: dict[str, Any],
            bot_names: list[str], **kw: Any) -> Session:
        """A new match; bot_names has one name for all bots or one per other seat."""
        game = new_game(game_name, players=players, seed=seed, options=options)
        human = kw.pop("human", 0)
        names = expand_bots(bot_names, players, human, game_name)
        if kw.get("autosave", True):
            prune_finished()
        return cls(game, names, human=human, **kw)

    @classmethod
    def resume(cls, path: str | os.PathLike[str], **kw: Any) -> Session:
        record = load_record(path)
        game, seats = rebuild(record)
        meta = record.get("play") or {}
        human = int(meta.get("human", 0))
        names = meta.get("bots") or [strongest(game.name)] * game.players
        if len(names) != game.players:
            names = [strongest(game.name)] * game.players
        names = list(names)
        names[human] = "human"
        for s, n in enumerate(names):
            if s != human and not known_bot(n, game.name):
                names[s] = strongest(game.name)
        kw.setdefault("allow_undo", bool(meta.get("allow_undo", False)))
        game_id = meta.get("id") if isinstance(meta.get("id"), str) else None
        if game_id and not all(c.isalnum() or c in "-_" for c in game_id):
            game_id = None                   # an id names a file: nothing else gets in
        if is_autosave(path):
            kw.setdefault("autosave_file", path)
        return cls(game, names, human=human, seats=seats, game_id=game_id, **kw)

    # ------------------------------------------------------------ reading
    def view(self) -> dict[str, Any]:
        """What the human may know: the only thing the screen renders."""
        return self.game.view(self.human)

    @property
    def human_to_play(self) -> bool:
        return not self.game.is_over and self.game.current_seat == self.human

    @property
    def names(self) -> list[str]:
        return ["you" if s == self.human else n for s, n in enumerate(self.bot_names)]

    def record(self) -> dict[str, Any]:
        rec = self.game.to_record()
        rec["actions"] = [str(a) for a in rec["actions"]]
        rec["play"] = {"human": self.human, "bots": self.bot_names,
                       "allow_undo": self.allow_undo, "id": self.game_id}
        return rec

    # ------------------------------------------------------------ acting
    def play(self, action: str) -> None:
        """The human's action; raises IllegalAction (e.g. NotYourTurn) with the engine's words."""
        self._apply(action.strip(), self.human)

    def bot_to_play(self) -> int | None:
        """The seat of the bot to play now, if any."""
        seat = self.game.current_seat
        return None if seat is None or seat == self.human else seat

    def bot_step(self) -> str | None:
        """One bot action if a bot is to play; returns its text."""
        seat = self.bot_to_play()
        if seat is None:
            return None
        action = self.bots[seat].act(self.game.view(seat))
        self._apply(action, seat)
        return action

    def apply_bot(self, seat: int, action: str) -> None:
        """Apply an action that bot `seat` chose (e.g. in a worker thread) from its view."""
        self._apply(action, seat)

    def _apply(self, action: str, seat: int) -> None:
        self.game.apply(action, seat=seat)
        self.seats.append(seat)
        self.save()

    def save(self) -> list[str]:
        """Write the record to every save path; returns the problems (never raises OSError)."""
        problems = []
        rec = self.record()
        for path in self.save_paths:
            try:
                write_atomic(path, rec)
            except OSError as err:
                problems.append(_("cannot save {path}: {error}").format(path=path, error=err))
        return problems

    # ------------------------------------------------------------ undo
    def can_undo(self) -> str:
        """'' if undo is possible now, else why not."""
        if not self.allow_undo:
            return _("undo is off (start with --allow-undo)")
        if any(n == "human" for s, n in enumerate(self.bot_names) if s != self.human):
            return _("undo needs every opponent to be a bot")
        if self.human not in self.seats:
            return _("you have not moved yet")
        k = len(self.seats) - 1 - self.seats[::-1].index(self.human)
        # A round end reveals every hand: undoing past it would replay with knowledge.
        probe, _seats = rebuild(self.record(), k)
        if probe.round != self.game.round or self.game.is_over:
            return _("cannot undo past the end of a round")
        return ""

    def undo(self) -> str:
        """Replay the record without the actions since (and including) your last move."""
        problem = self.can_undo()
        if problem:
            return problem
        k = len(self.seats) - 1 - self.seats[::-1].index(self.human)
        game, seats = rebuild(self.record(), k)
        self.game, self.seats = game, seats
        self.save()
        return ""


def strongest(game: str) -> str:
    return bots.names(game)[-1]


def known_bot(name: str, game: str) -> bool:
    try:
        bots.make(name, game=game)
    except ValueError:
        return False
    return True


def expand_bots(names: list[str], players: int, human: int = 0,
                game: str | None = None) -> list[str]:
    """One bot name per seat, with 'human' at the human's seat.

    `names` is one name (for every bot), one per bot seat, or one per seat.
    Raises ValueError with the known names for an unknown bot.
    """
    names = [n.strip() for n in names if n.strip()]
    if len(names) == 1:
        names = names * (players - 1)
    if len(names) == players:
        names = names[:human] + names[human + 1:]
    if len(names) != players - 1:
        raise ValueError(_("--bots names {n} bots for {seats} bot seats").format(
            n=len(names), seats=players - 1))
    for n in names:
        bots.make(n, game=game)         # raises ValueError listing the names
    return names[:human] + ["human"] + names[human:]
