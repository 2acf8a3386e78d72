"""What one seat may know: the only place where hidden information is filtered.

``view(game, seat)`` returns a JSON-serializable dict.  ``seat=None`` is the
spectator.  Treat a view as read-only: its log events are shared between views
of the same game (each event is redacted once per seat, which keeps a view of a
1,000-event Mexican Train match cheap), and so is its options dict; everything
else (the log list itself included) is the view's own, so a view reads the same
after later play.  Bots, the terminal game, the web server and the RL observers
all read the game through this function; nothing else reads another seat's hand.

Schema (every game)::

    game            "mexican_train" | "all_fives" | "draw" | "block"
    options         every option, resolved (dict)
    players         number of seats
    seat            the viewing seat, or None for a spectator
    hand            that seat's tiles, canonical text ("12-5"), ascending; None for a spectator
    hand_sizes      tiles in each hand
    boneyard        number of tiles in the boneyard
    current_seat    whose turn it is (None when the match is over)
    legal_actions   action texts (Action objects, which are str), empty unless it is this
                    seat's turn
    scores          running match totals per seat (partners show the team score)
    round           1-based round (Mexican Train) / hand (line games) number
    is_over         the match has ended
    winners         winning seats (empty until the end)
    version         number of actions applied so far (a state version for clients)
    log             events, redacted for this seat (see below)

Mexican Train adds::

    rounds          rounds in the match
    engine          the round's engine double, e.g. "12-12"
    trains          [{"id": "t0", "owner": 0, "tiles": [...], "open_end": 12,
                      "marker": bool, "started": bool}, ... one per seat,
                     {"id": "mx", "owner": None, "tiles": [...], "open_end": 12,
                      "marker": True, "started": bool}]
    owed            train ids whose last tile is an owed double, in the order to cover
    first_turn_done seats that have had their first turn this round
    turn            the turn in progress: drew (since the last play), draws (this turn),
                    must_follow (a double was just played), chain (inside a first-turn
                    chain), passes (in a row), pending (this turn's uncovered doubles),
                    deferred (first-turn doubles owed once everyone has had a first turn),
                    drawn (the tile just drawn: only in the drawer's own view)

Line games add::

    teams           bool
    leader          the seat that led this hand
    layout          {"lead": "6-6" | None, "spinner": "6-6" | None,
                     "ends": [{"id": "L", "value": 6, "tiles": ["6-3", ...]}, ...],
                     "count": int}
                    (ends lists only the ends a tile can be played on now)
    turn            {"drew": drew this turn, "passes": passes in a row}

Events (each a dict with ``type`` and a human ``text``)::

    deal       round, hand_sizes, boneyard (line games: leader)
    engine     seat (None with engine=set_aside), tile          (Mexican Train)
    draw       seat, tile (only in the drawer's own view), search (holder search draws),
               void (with must_play on: the open-end numbers the player proved not to hold)
    play       seat, tile, target (None for a lead); line games add count, points
    pass       seat, void (as for draw)
    end        seat                                             (first-turn chain)
    last_tile  seat
    round_end  round, reason ("domino" | "blocked" | "target"), seat, hands (all
               revealed), pips, points, scores
    game_end   scores, winners
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .line_game import LineGameState, event_dict
from .mexican_train import MexicanTrainState
from .tiles import TEXT, texts

if TYPE_CHECKING:
    from .game import Game

Event = dict[str, Any]


def events(game: Game, seat: int | None, start: int = 0) -> list[Event]:
    """The game's log from index `start` on, as `seat` may see it."""
    return [redact(e, seat) for e in game.state.log[start:]]


def view(game: Game, seat: Any) -> dict[str, Any]:
    """Everything `seat` may know about `game` (None: a spectator)."""
    st = game.state
    if seat is not None and not (seat.__class__ is int and 0 <= seat < st.n):
        raise ValueError(f"seat must be 0..{st.n - 1} or None, not {seat!r}")
    over = st.over
    current = None if over else st.current
    if seat is None:
        hand = None
        legal: list[Any] = []
    else:
        hand = texts(st.hands[seat])
        legal = st.legal()[:] if seat == current else []
    # The redacted log, each event redacted once per seat (the log only grows).
    cache = game.view_cache
    done = cache.get(seat)
    if done is None:
        done = cache[seat] = []
    log = st.log
    n = len(done)
    if n != len(log):
        if n > len(log):                # cannot happen unless a state was swapped in
            done.clear()
            n = 0
        for e in log[n:]:
            done.append(redact(e, seat))
    if isinstance(st, MexicanTrainState):
        out = _common(game, st, seat, hand, current, legal, done)
        out.update(_mexican_train_table(st, seat))
        return out
    opts = st.opts
    hit = _OPTIONS_CACHE.get(id(opts))      # _options_dict, inline
    if hit is None:
        hit = _OPTIONS_CACHE[id(opts)] = (opts, opts.as_dict())
    spinner = None
    for s in st.spinners:
        if s.arms:
            spinner = TEXT[s.tile]
            break
    lead = st.lead
    ends = [{"id": e.name, "value": e.value, "tiles": [TEXT[t] for t in e.tiles]}
            for e in st.ends]
    return {                            # one literal: the keys of _common, then the layout
        "game": game.name,
        "options": hit[1],
        "players": st.n,
        "seat": seat,
        "hand": hand,
        "hand_sizes": [*map(_bit_count, st.hands)],
        "boneyard": len(st.boneyard),
        "current_seat": current,
        "legal_actions": legal,
        "scores": st.scores[:],
        "round": st.round,
        "is_over": over,
        "winners": st.winners[:],
        "version": game.base + len(game.actions),
        "log": done[:],                 # a copy (the cache grows); the events are shared
        "teams": opts.teams,
        "leader": st.leader,
        "layout": {
            "lead": TEXT[lead] if lead >= 0 else None,
            "spinner": spinner,
            "ends": ends,
            "count": st.count,
        },
        "turn": {"drew": st.drew, "passes": st.passes},
    }


_bit_count = int.bit_count


def _common(game: Game, st: MexicanTrainState | LineGameState, seat: int | None,
            hand: list[str] | None, current: int | None, legal: list[Any],
            log: list[Event]) -> dict[str, Any]:
    """The keys every game's view has."""
    return {
        "game": game.name,
        "options": _options_dict(st.opts),
        "players": st.n,
        "seat": seat,
        "hand": hand,
        "hand_sizes": [h.bit_count() for h in st.hands],
        "boneyard": len(st.boneyard),
        "current_seat": current,
        "legal_actions": legal,
        "scores": st.scores[:],
        "round": st.round,
        "is_over": st.over,
        "winners": st.winners[:],
        "version": game.base + len(game.actions),
        "log": log[:],
    }


_OPTIONS_CACHE: dict[int, tuple[Any, dict[str, Any]]] = {}


def _options_dict(opts: Any) -> dict[str, Any]:
    """The options as a dict, made once per options object (views share it: read-only).
    Keyed by id, holding the object so the id stays its own; hashing a frozen
    dataclass of 17 fields on every view cost more than the rest of a small view."""
    hit = _OPTIONS_CACHE.get(id(opts))
    if hit is None:
        hit = _OPTIONS_CACHE[id(opts)] = (opts, opts.as_dict())
    return hit[1]


def _mexican_train_table(st: MexicanTrainState, seat: int | None) -> dict[str, Any]:
    n = st.n
    trains = []
    for i in range(n + 1):
        trains.append({
            "id": f"t{i}" if i < n else "mx",
            "owner": i if i < n else None,
            "tiles": [TEXT[t] for t in st.trains[i]],
            "open_end": st.ends[i],
            "marker": bool(st.markers >> i & 1) if i < n else True,
            "started": bool(st.trains[i]),
        })
    order = st.owed if st.opts.double_order == "played" else st.owed[::-1]
    return {
        "rounds": st.opts.rounds,
        "engine": f"{st.engine}-{st.engine}",
        "trains": trains,
        "owed": [trains[i]["id"] for i in order],
        "first_turn_done": [s for s in range(n) if st.first_done >> s & 1],
        "turn": {
            "drew": st.drew, "draws": st.turn_draws, "must_follow": st.must_follow,
            "chain": st.chain, "passes": st.passes,
            "pending": [trains[i]["id"] for i in st.pending],
            "deferred": [trains[i]["id"] for i in st.deferred],
            "drawn": TEXT[st.drawn] if seat == st.current and st.drawn >= 0 else None,
        },
    }


class _SeatNames(dict[int, str]):
    """``"seat 3"`` for 3, made once."""

    def __missing__(self, s: int) -> str:
        name = self[s] = f"seat {s}"
        return name


_SEAT = _SeatNames()


def redact(event: Event | tuple[Any, ...], seat: int | None) -> Event:
    """A copy of `event` as `seat` may see it, with its human text.

    The line games' frequent events are tuples in the state's log (see
    ``line_game.event_dict``); they are expanded here straight into their redacted dicts
    and texts (the same as ``event_dict`` then `describe`: tests/engine check it)."""
    if event.__class__ is tuple:
        kind = event[0]
        s = event[1]
        who = "you" if s == seat else _SEAT[s]
        if kind == "play":
            tile = TEXT[event[2]]
            target = event[3]
            points = event[5]
            text = (f"{who} played {tile}" if target is None
                    else f"{who} played {tile} on {target}")
            if points:
                text = f"{text} (count {event[4]}: {points} points)"
            return {"type": "play", "seat": s, "tile": tile, "target": target,
                    "count": event[4], "points": points, "text": text}
        if kind == "pass":
            void = event[2]
            if void is None:
                return {"type": "pass", "seat": s, "text": f"{who} passed"}
            if len(void) == 2:                # the two ends of a line: sorted(set(void))
                a, b = void
                void = [a, b] if a < b else [b, a] if b < a else [a]
            else:
                void = sorted(set(void))
            return {"type": "pass", "seat": s, "void": void, "text": f"{who} passed"}
        if kind == "draw":
            e: Event = {"type": "draw", "seat": s}
            if s == seat:
                tile = e["tile"] = TEXT[event[2]]
                text = f"you drew {tile}"
            else:
                text = f"{who} drew a tile"
            if event[3] is not None:
                e["void"] = sorted(set(event[3]))
            e["text"] = text
            return e
        if kind == "last_tile":
            return {"type": "last_tile", "seat": s,
                    "text": "you have one tile left" if s == seat
                    else f"{who} has one tile left"}
        return _redact_dict(event_dict(event), seat)      # a tuple kind of the future
    return _redact_dict(dict(event), seat)


def _redact_dict(e: Event, seat: int | None) -> Event:
    """Redact `e`, a new dict, in place and add its text."""
    kind = e["type"]
    if kind == "draw":
        if e["seat"] != seat:
            e.pop("tile", None)
    elif kind == "round_end":                 # hands are kept as bitmasks in the state's log
        e["hands"] = [texts(h) for h in e["hands"]]
    text = _TEXTS.get(kind)
    e["text"] = str(kind) if text is None else text(e, seat)
    return e


def _who(s: int, seat: int | None) -> str:
    return "you" if s == seat else _SEAT[s]


def describe(e: Event, seat: int | None = None) -> str:
    """One line of log text for an (already redacted) event."""
    kind = e["type"]
    text = _TEXTS.get(kind)
    return str(kind) if text is None else text(e, seat)


def _deal_text(e: Event, seat: int | None) -> str:
    return (f"round {e['round']}: {e['hand_sizes'][0]} tiles each, "
            f"{e['boneyard']} in the boneyard")


def _engine_text(e: Event, seat: int | None) -> str:
    if e["seat"] is None:
        return f"the engine {e['tile']} is set in the centre"
    return f"{_who(e['seat'], seat)} placed the engine {e['tile']}"


def _draw_text(e: Event, seat: int | None) -> str:
    what = e.get("tile", "a tile")
    why = " looking for the engine" if e.get("search") else ""
    return f"{_who(e['seat'], seat)} drew {what}{why}"


def _play_text(e: Event, seat: int | None) -> str:
    where = "" if e["target"] is None else f" on {e['target']}"
    text = f"{_who(e['seat'], seat)} played {e['tile']}{where}"
    if e.get("points"):
        text += f" (count {e['count']}: {e['points']} points)"
    return text


def _pass_text(e: Event, seat: int | None) -> str:
    return f"{_who(e['seat'], seat)} passed"


def _end_text(e: Event, seat: int | None) -> str:
    return f"{_who(e['seat'], seat)} ended the first-turn chain"


def _last_tile_text(e: Event, seat: int | None) -> str:
    return f"{_who(e['seat'], seat)} {'have' if e['seat'] == seat else 'has'} one tile left"


_REASONS = {"blocked": "blocked", "target": "target reached"}


def _round_end_text(e: Event, seat: int | None) -> str:
    reason = e["reason"]
    if reason == "domino":
        how = "" if e["seat"] is None else f"{_who(e['seat'], seat)} went out"
    else:
        how = _REASONS[reason]
    return f"round {e['round']} over ({how}): points {e['points']}, totals {e['scores']}"


def _game_end_text(e: Event, seat: int | None) -> str:
    return f"match over: winners {e['winners']}, scores {e['scores']}"


_TEXTS = {"deal": _deal_text, "engine": _engine_text, "draw": _draw_text, "play": _play_text,
          "pass": _pass_text, "end": _end_text, "last_tile": _last_tile_text,
          "round_end": _round_end_text, "game_end": _game_end_text}


class TableNumbers:
    """A line-game table as numbers, for many games at once: what `view` shows one seat,
    in a fixed order, appended to flat lists (the batched RL environments turn them into
    tensors with a few numpy calls per step; see ``rl/state_observer.py``).

    Per game, `write` appends to ``record`` these numbers: the current seat (-1 once the
    match is over), the viewing seat, the lead tile (-1: none yet), the first spinner with
    arms (-1: none), the open value of each end slot (``slots``: end name -> slot, of
    ``n_slots``; -1 for a slot with no end), every hand's size, the boneyard's size, the
    scores, the hand's number, the count, drew this turn (0/1), passes in a row, and each
    end slot's length (tiles laid on it). With ``private``, the viewing seat's own hand goes
    to ``hands`` as little-endian bytes of its tile bitmask; and for a game whose turn it is
    the seat's, ``legal`` gets ``row * actions + codes[action]`` for each legal action.
    Nothing else of a hand is read: only their sizes.
    """

    __slots__ = ("slots", "n_slots", "spinners", "codes", "actions", "hand_bytes",
                 "private")

    def __init__(self, slots: dict[str, int], n_slots: int, spinners: bool,
                 codes: dict[str, int], actions: int, hand_bytes: int, private: bool) -> None:
        self.slots = slots
        self.n_slots = n_slots
        self.spinners = spinners          # spinner=none: no spinner ever shows
        self.codes = codes
        self.actions = actions
        self.hand_bytes = hand_bytes
        self.private = private

    def write(self, games: Sequence[Game], rows: Sequence[int], seats: Sequence[int],
              record: list[int], hands: list[bytes], legal: list[int] | None) -> None:
        """Append the numbers of ``seats[i]``'s view of ``games[i]`` for each i in `rows`
        (`legal`: None to skip the action masks)."""
        slots, n_slots, codes, actions = self.slots, self.n_slots, self.codes, self.actions
        for i in rows:
            st = games[i].state
            assert isinstance(st, LineGameState)
            seat = seats[i]
            over = st.over
            if legal is not None and not over and st.current == seat:
                at = i * actions
                for a in st.legal():
                    legal.append(at + codes[a])
            if self.private:
                hands.append(st.hands[seat].to_bytes(self.hand_bytes, "little"))
            spinner = -1
            if self.spinners:
                for sp in st.spinners:
                    if sp.arms:
                        spinner = sp.tile
                        break
            opened = [-1] * n_slots
            lengths = [0] * n_slots
            for end in st.ends:
                k = slots[end.name]
                opened[k] = end.value
                lengths[k] = len(end.tiles)
            record.append(-1 if over else st.current)
            record.append(seat)
            record.append(st.lead)
            record.append(spinner)
            record.extend(opened)
            for hand in st.hands:
                record.append(hand.bit_count())
            record.append(len(st.boneyard))
            record.extend(st.scores)
            record.append(st.round)
            record.append(st.count)
            record.append(1 if st.drew else 0)
            record.append(st.passes)
            record.extend(lengths)
