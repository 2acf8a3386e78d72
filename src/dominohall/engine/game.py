"""The public face of the engine: `new_game`, `Game`, records and `replay`.

>>> g = new_game("all_fives", players=2, seed=3)
>>> g.apply(g.legal_actions()[0]); g.round
1
>>> replay(g.to_record()).view(0) == g.view(0)
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from .actions import Action, parse_action
from .chance import Chance, LegacyChance
from .errors import BadOption, BadRecord, GameOver, IllegalAction, NotYourTurn, described
from .line_game import LapOfPassesLineGameState, LineGameState
from .mexican_train import LapOfPassesMexicanTrainState, MexicanTrainState
from .options import LINE_GAMES, LineGameOptions, MexicanTrainOptions, Options, resolve_options
from .tiles import HIGH, TEXT, StackedDeck, double, parse_tile, set_size
from .views import view as _view

RECORD_FORMAT = "dominohall-record"
#: 3: blocked rounds and hands are decided by the table (RULES A10, B5, B6).
#: 2: deals from the counter-based chance (chance.Chance).  1: deals from a seeded
#: random.Random (chance.LegacyChance).  Versions 1 and 2 still replay with the chance
#: and the rules they were played with, and a game continued from one keeps its version
#: (docs/engine-api.md, "Records").
RECORD_VERSION = 3
_CHANCE_OF_VERSION = {1: LegacyChance, 2: Chance, 3: Chance}
#: before version 3 a lap of passes blocked a round (and must_play=false let a player
#: who could play but not draw pass, in the line games)
_MEXICAN_TRAIN_OF_VERSION = {1: LapOfPassesMexicanTrainState, 2: LapOfPassesMexicanTrainState,
                             3: MexicanTrainState}
_LINE_GAME_OF_VERSION = {1: LapOfPassesLineGameState, 2: LapOfPassesLineGameState,
                         3: LineGameState}

State = MexicanTrainState | LineGameState
#: Action as a Final name, for the check on every move (compiled: a C static)
_ACTION: Final = Action


class Game:
    """A whole match: rounds/hands, totals and winners, driven by `apply`."""

    __slots__ = ("name", "options", "seed", "deck", "leader", "state", "actions", "base",
                 "sampled", "view_cache", "record_version")

    name: str
    options: Options
    seed: int | str
    deck: dict[str, Any] | None
    leader: int | None
    state: State
    actions: list[str]
    base: int           # actions before this object's own history (sampled worlds)
    sampled: bool       # made by sample_world: no replayable record
    view_cache: dict[int | None, list[dict[str, Any]]]   # redacted log per seat (views.py)
    record_version: int  # the record format (and so the chance) this game was dealt by

    def __init__(self, name: str, options: Options, seed: int | str, state: State,
                 deck: dict[str, Any] | None = None, leader: int | None = None,
                 actions: list[str] | None = None, base: int = 0, sampled: bool = False,
                 record_version: int = RECORD_VERSION) -> None:
        """Made by `new_game`, `replay`, `clone` and `sample_world`, not by hand.  (An
        explicit constructor, not ``object.__new__``: compiled classes need one.)"""
        self.name = name
        self.options = options
        self.seed = seed
        self.deck = deck
        self.leader = leader
        self.state = state
        self.actions = [] if actions is None else actions
        self.base = base
        self.sampled = sampled
        self.view_cache = {}
        self.record_version = record_version

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # pickle and deepcopy (OpenSpiel's serialisation) in both builds: compiled classes
        # have no default that works
        return (Game, (self.name, self.options, self.seed, self.state, self.deck,
                       self.leader, self.actions, self.base, self.sampled,
                       self.record_version))

    @property
    def players(self) -> int:
        return self.state.n

    @property
    def current_seat(self) -> int | None:
        """Whose turn it is; None once the match is over."""
        return None if self.state.over else self.state.current

    @property
    def is_over(self) -> bool:
        return self.state.over

    @property
    def scores(self) -> list[int]:
        """Running match totals per seat (partners show the team score)."""
        return self.state.scores[:]

    @property
    def winners(self) -> list[int]:
        return self.state.winners[:]

    @property
    def round(self) -> int:
        return self.state.round

    def legal_actions(self) -> list[Action]:
        """Legal actions of the current seat, in a deterministic order."""
        st = self.state
        legal = st._legal
        return (st.legal() if legal is None else legal)[:]

    def apply(self, action: Any, seat: Any = None) -> None:
        """Validate and apply one action (an Action or its text; `seat`, when given, must
        be the current seat); on error raise IllegalAction and change nothing."""
        st = self.state
        legal = st._legal
        if legal is None:
            legal = st.legal()
        # the fast path: an Action object from legal_actions(), no seat to check
        if seat is not None or action.__class__ is not _ACTION or action not in legal:
            action = self._checked(action, seat)
        st.apply(action)
        self.actions.append(action)

    def _checked(self, action: object, seat: object) -> Action:
        """`action` as a legal Action of `seat`, or the error that says why not."""
        st = self.state
        if st.over:
            raise GameOver("the match is over", "match_over")
        if seat is not None and seat.__class__ is not int:
            raise IllegalAction(f"{seat!r} is not a seat (a whole number, or None)", "not_a_seat",
                                {"seat": repr(seat)})
        if seat is not None and seat != st.current:
            raise NotYourTurn(f"it is seat {st.current}'s turn, not seat {seat}'s", "not_your_turn",
                              {"current": st.current, "seat": seat})
        a = action if isinstance(action, Action) else parse_action(action, st.opts.set_max)
        if a not in st.legal():
            raise IllegalAction(f"{a.text}: {st.explain(a)}", "not_legal_now",
                                {"action": a.text, "reason": st.explain(a)})
        return a

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action taken from `legal_actions()` without checking it (for search)."""
        self.state.apply(action)
        self.actions.append(action)

    def put_on_top(self, tile: Any) -> None:
        """Explicit chance for adapters that choose draws themselves (OpenSpiel chance
        nodes): move `tile`, which must be in the boneyard, to its top, so the next draw
        takes it.  It changes no public information; the record keeps it as
        ``"top <tile>"`` so `replay` reproduces the same draws."""
        t = parse_tile(tile, self.options.set_max)
        bone = self.state.boneyard
        if t not in bone:
            raise IllegalAction(f"{TEXT[t]} is not in the boneyard", "not_in_boneyard",
                                {"tile": TEXT[t]})
        i = bone.index(t)
        bone[i], bone[-1] = bone[-1], bone[i]
        self.state._legal = None
        self.actions.append(f"top {TEXT[t]}")

    def view(self, seat: Any) -> dict[str, Any]:
        """What `seat` may know (None: a spectator); see dominohall.engine.views."""
        return _view(self, seat)

    def to_record(self) -> dict[str, Any]:
        """A JSON-serializable record from which `replay` rebuilds this exact game."""
        if self.sampled:
            raise BadRecord("a world made by sample_world has no record of its own", "world_record")
        return {
            "format": RECORD_FORMAT,
            "version": self.record_version,
            "game": self.name,
            "players": self.players,
            "options": self.options.as_dict(),
            "seed": self.seed,
            "deck": self.deck,
            "leader": self.leader,
            "actions": self.actions[:],
        }

    def clone(self) -> Game:
        """An independent copy (cheap: a few list copies)."""
        return Game(self.name, self.options, self.seed, self.state.clone(), self.deck,
                    self.leader, self.actions[:], self.base, self.sampled, self.record_version)

    def __repr__(self) -> str:
        return (f"<Game {self.name} players={self.players} round={self.round} "
                f"turn={self.current_seat} scores={self.scores}>")


# The public entry points annotate what callers may pass (often untrusted: a JSON seed, a
# stored record) as Any and check it themselves.  A compiled function checks its annotated
# argument types on entry and would raise a bare TypeError; checked here, a wrong type gets
# the engine's own error and message in both builds (tests/engine/test_bad_input.py).


def new_game(
    name: Any,
    *,
    players: Any,
    seed: Any = None,
    options: Any = None,
    hands: Any = None,
    boneyard: Any = None,
    leader: Any = None,
    _version: int = RECORD_VERSION,
) -> Game:
    """Start a match of `name` ("mexican_train", "all_fives", "draw", "block").

    `players` is an int, `seed` an int or a str (None: a fresh random seed), `options` a
    mapping of option names (RULES.md) to values.  `hands` (lists of tile texts, one per
    seat) and `boneyard` (tile texts, top first) stack the first round's deck; `leader`
    picks the first leader of a line game.  Anything else raises BadOption naming the field.
    (`_version` is for `replay`: the record format, and so the chance, of an old record.)
    """
    if name.__class__ is not str or (name != "mexican_train" and name not in LINE_GAMES):
        raise BadOption("game", f"unknown game {name!r} "
                                f"(choose from mexican_train, all_fives, draw, block)",
                        "unknown_game", {"game": repr(name),
                                         "games": "mexican_train, all_fives, draw, block"})
    if options is not None and options.__class__ is not dict and not isinstance(options, Mapping):
        raise BadOption("options", f"{options!r} is not a mapping of option names to values",
                        "options_not_mapping", {"options": repr(options)})
    opts = resolve_options(name, players, options)
    if seed is None:
        seed = random.SystemRandom().randrange(2 ** 62)
    elif seed.__class__ is not int and (isinstance(seed, bool)
                                        or not isinstance(seed, (int, str))):
        raise BadOption("seed", f"{seed!r} is not a whole number or a string", "bad_seed",
                        {"seed": repr(seed)})
    stacked = None if hands is None and boneyard is None else \
        _stacked_deck(opts, hands, boneyard)
    deck = None if stacked is None else {
        "hands": [[TEXT[t] for t in h] for h in stacked[0]],
        "boneyard": [TEXT[t] for t in stacked[1]],
    }
    chance = _CHANCE_OF_VERSION[_version](seed)
    state: State
    if isinstance(opts, MexicanTrainOptions):
        if leader is not None:
            raise BadOption("leader", "Mexican Train has no leader: the engine decides who starts",
                            "no_leader")
        state = _MEXICAN_TRAIN_OF_VERSION[_version](opts, chance, stacked)
    else:
        if leader is not None and not (type(leader) is int and 0 <= leader < players):
            raise BadOption("leader", f"{leader!r} is not a seat (0..{players - 1})", "bad_leader",
                            {"leader": repr(leader), "last": players - 1})
        state = _LINE_GAME_OF_VERSION[_version](opts, chance, stacked, leader)
    return Game(name, opts, seed, state, deck, leader, [], 0, False, _version)


def _is_list(x: object) -> bool:
    """A sequence of items (a list or tuple, say), but not a string or bytes."""
    return isinstance(x, Sequence) and not isinstance(x, (str, bytes, bytearray))


def _stacked_deck(opts: Options, hands: Any, boneyard: Any) -> StackedDeck | None:
    """Validate a stacked first-round deck: every tile exactly once, sizes as dealt."""
    if hands is None and boneyard is None:
        return None
    if hands is None:
        raise BadOption("hands", "a stacked boneyard needs the hands too", "hands_needed")
    n, size = opts.players, opts.hand_size
    if not _is_list(hands) or len(hands) != n:
        raise BadOption("hands", f"give one list of tiles per seat ({n} lists)", "hands_per_seat",
                        {"n": n})
    set_max = opts.set_max
    expected = set(range(set_size(set_max)))
    if isinstance(opts, MexicanTrainOptions) and opts.engine == "set_aside":
        expected.discard(double(set_max))
    seen: set[int] = set()

    def parse(field: str, texts: object) -> list[int]:
        if isinstance(texts, str):
            raise BadOption(field, "give a list of tile strings, not one string", "tiles_not_list")
        if not _is_list(texts):
            raise BadOption(field, f"{texts!r} is not a list of tile strings", "tiles_not_a_list",
                            {"texts": repr(texts)})
        assert isinstance(texts, Sequence)
        out = []
        for text in texts:
            try:
                t = parse_tile(str(text), set_max)
            except IllegalAction as err:
                raise BadOption(field, str(err), err.code, err.params) from None
            if t in seen:
                raise BadOption(field, f"{TEXT[t]} appears more than once", "tile_twice",
                                {"tile": TEXT[t]})
            if t not in expected:
                raise BadOption(field, f"{TEXT[t]} is the engine, set aside before the deal",
                                "tile_is_engine", {"tile": TEXT[t]})
            seen.add(t)
            out.append(t)
        return out

    hand_ids = []
    for s, h in enumerate(hands):
        ids = parse("hands", h)
        if len(ids) != size:
            raise BadOption("hands", f"seat {s} has {len(ids)} tiles, but hand_size is {size}",
                            "hand_wrong_size", {"seat": s, "n": len(ids), "size": size})
        hand_ids.append(ids)
    bone_ids = parse("boneyard", [] if boneyard is None else boneyard)
    missing = expected - seen
    if missing:
        shown = ", ".join(TEXT[t] for t in sorted(missing, key=lambda t: (HIGH[t], t))[:6])
        raise BadOption("boneyard", f"{len(missing)} tiles of the set are missing: {shown}",
                        "tiles_missing", {"n": len(missing), "tiles": shown})
    return hand_ids, bone_ids


def replay(record: Any) -> Game:
    """Rebuild a game from `Game.to_record()` output (also after JSON round-trips)."""
    if not isinstance(record, Mapping) or record.get("format") != RECORD_FORMAT:
        raise BadRecord("not a dominohall game record", "not_a_record")
    version = record.get("version")
    if version.__class__ is not int or version not in _CHANCE_OF_VERSION:
        raise BadRecord(f"record version {version!r} is not supported "
                        f"(this dominohall reads versions 1 to {RECORD_VERSION})",
                        "record_version", {"version": repr(version), "latest": RECORD_VERSION})
    deck = record.get("deck") or {}
    if not isinstance(deck, Mapping):
        raise BadRecord(f"the record's deck {deck!r} is not a mapping of hands and boneyard",
                        "record_deck", {"deck": repr(deck)})
    actions = record.get("actions", [])
    if not _is_list(actions):
        raise BadRecord(f"the record's actions {actions!r} are not a list", "record_actions",
                        {"actions": repr(actions)})
    try:
        g = new_game(record["game"], players=record["players"], seed=record["seed"],
                     options=record["options"], hands=deck.get("hands"),
                     boneyard=deck.get("boneyard"), leader=record.get("leader"),
                     _version=version)
        actions = record["actions"]
    except KeyError as err:
        raise BadRecord(f"the record has no {err.args[0]!r}", "record_missing",
                        {"key": repr(err.args[0])}) from None
    except BadOption as err:
        raise BadRecord(f"the record's setup is invalid: {err}", "record_setup",
                        {"error": described(err)}) from None
    for k, text in enumerate(actions):
        try:
            if isinstance(text, str) and text.startswith("top "):
                g.put_on_top(text[4:])
                continue
            g.apply(text)
        except IllegalAction as err:
            raise BadRecord(f"action #{k + 1} {text!r} is illegal: {err}", "record_action",
                            {"k": k + 1, "action": repr(text), "error": described(err)}) from None
    return g


__all__ = ["Game", "new_game", "replay", "LineGameOptions", "State"]
