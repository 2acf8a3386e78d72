"""Worlds consistent with a view: what sampling bots search over.

``sample_world(view, rng)`` builds a complete :class:`Game` from nothing but one
seat's view: that seat's hand, everything public (table, log, counts, scores),
and, for the hidden hands and the boneyard, a random deal of the unseen tiles
that respects what the log proves:

* sizes: every hand and the boneyard keep their counts;
* tiles seen: nothing on the table or in the viewer's hand is dealt again;
* voids: a draw or pass with ``must_play`` on carries the open-end numbers the
  player could not match (``void``).  Tiles held then cannot touch those numbers,
  so at most as many tiles touching them as the player has drawn since may be
  in that hand now.

The deal is sampled by rejection over random orders (each hand filled from a
shuffled pool, skipping tiles a void forbids); after every 200 failed tries
the voids of the most constrained hand still bound are relaxed, never the
sizes, so sampling always ends (with no void left it fits at once).  Future deals come from
a fresh seed drawn from `rng`.  A sampled world's ``view(seat)`` equals the view
it was made from; it has no replayable record.

>>> import random, dominohall
>>> g = dominohall.new_game("all_fives", players=2, seed=5)
>>> w = sample_world(g.view(0), random.Random(1))
>>> w.view(0) == g.view(0)
True
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from typing import Any

from .chance import Chance
from .errors import DominohallError
from .game import RECORD_VERSION, Game
from .line_game import LineGameState
from .mexican_train import MexicanTrainState
from .options import resolve_options
from .tiles import BIT, N_IDS, WITH_HALF, double, parse_tile, set_size

View = Mapping[str, Any]


def sample_world(view: Any, rng: Any) -> Game:
    """A complete game consistent with `view` (a seat's view, not a spectator's)."""
    _checked(view, rng)
    name = view["game"]
    opts = resolve_options(name, view["players"], view["options"])
    hand_list, boneyard = sample_hands(view, rng)
    log = view["log"]
    start = max(i for i, e in enumerate(log) if e["type"] == "deal")
    round_log = log[start:]

    seed = rng.randrange(2 ** 62)
    chance = Chance(seed)
    internal_log = [_internal(e) for e in log]
    state: MexicanTrainState | LineGameState
    if name == "mexican_train":
        state = _mexican_train_state(view, opts, chance, hand_list, boneyard, internal_log, rng)
    else:
        state = _line_state(view, opts, chance, hand_list, boneyard, internal_log, round_log)
    return Game(name, opts, seed, state, base=view["version"], sampled=True,
                record_version=RECORD_VERSION)


def _checked(view: object, rng: object) -> None:
    """Checked here, not by the annotations: both builds raise the same errors."""
    if not isinstance(view, Mapping):
        raise DominohallError(f"sample_world needs a seat's view (Game.view), not {view!r}")
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, not {rng!r}")


def sample_hands(view: Any, rng: Any) -> tuple[list[int], list[int]]:
    """Only the deal of a sampled world: every seat's hand as a tile mask (the viewer's
    own hand as it is) and the boneyard (top last), drawn as `sample_world` draws them.
    Search bots that keep their own model of the table use this: it skips building the
    game."""
    _checked(view, rng)
    seat = view["seat"]
    if seat is None:
        raise DominohallError("sample_world needs a seat's view, not a spectator's")
    if view["is_over"]:
        raise DominohallError("the match is over: there is nothing to sample")
    name = view["game"]
    opts = resolve_options(name, view["players"], view["options"])
    n = opts.players
    log = view["log"]
    start = max(i for i, e in enumerate(log) if e["type"] == "deal")
    round_log = log[start:]

    seen = _mask(view["hand"])
    if name == "mexican_train":
        for train in view["trains"]:
            seen |= _mask(train["tiles"])
        seen |= BIT[double(int(view["engine"].split("-")[0]))]
    else:
        for e in round_log:
            if e["type"] == "play":
                seen |= BIT[parse_tile(e["tile"])]
    pool = [t for t in range(set_size(opts.set_max)) if not seen >> t & 1]
    sizes = view["hand_sizes"]
    hidden = [q for q in range(n) if q != seat]
    if len(pool) != sum(sizes[q] for q in hidden) + view["boneyard"]:
        raise DominohallError("the view is inconsistent: unseen tiles do not match the counts")

    voids = _voids(round_log, n)
    hands, boneyard = _deal(rng, pool, {q: sizes[q] for q in hidden}, voids)
    hands[seat] = _mask(view["hand"])
    return [hands[q] for q in range(n)], boneyard


def _mask(tiles: list[str]) -> int:
    m = 0
    for text in tiles:
        m |= BIT[parse_tile(text)]
    return m


def _internal(e: Mapping[str, Any]) -> dict[str, Any]:
    """A redacted view event back in the state's own form."""
    out = {k: v for k, v in e.items() if k != "text"}
    if out["type"] == "round_end":
        out["hands"] = [_mask(h) for h in out["hands"]]
    return out


def _voids(round_log: list[Mapping[str, Any]], n: int) -> dict[int, list[tuple[int, int]]]:
    """Per seat: (mask of tiles touching the void numbers, tiles drawn since)."""
    out: dict[int, list[tuple[int, int]]] = {q: [] for q in range(n)}
    draws_after = [0] * n
    for e in round_log[::-1]:          # not reversed(): it crashes mypyc 2.4.1
        kind = e["type"]
        if kind not in ("draw", "pass"):
            continue
        q = e["seat"]
        if kind == "draw" and not e.get("search"):
            draws_after[q] += 1         # a draw's void is about the hand before its own tile
        if "void" in e:
            touching = 0
            for v in e["void"]:
                touching |= WITH_HALF[v]
            out[q].append((touching, draws_after[q]))
    return out


def _fits(hand: int, t: int, rules: list[tuple[int, int]]) -> bool:
    for touching, allowed in rules:
        if touching >> t & 1 and (hand & touching).bit_count() >= allowed:
            return False
    return True


def _deal(rng: random.Random, pool: list[int], sizes: dict[int, int],
          voids: dict[int, list[tuple[int, int]]]) -> tuple[dict[int, int], list[int]]:
    """Random hands of the given sizes from `pool` respecting the voids; the rest is the
    boneyard (in random order)."""
    order = sorted(sizes, key=lambda q: -len(voids[q]))
    relaxed: set[int] = set()
    for attempt in itertools.count():
        # Every 200 failures, give up the voids of the strictest hand still bound by them;
        # once no hand is bound, the first try fits (the pool holds exactly the tiles).
        if attempt and attempt % 200 == 0 and len(relaxed) < len(order):
            relaxed.add(next(q for q in order if q not in relaxed))
        tiles = pool[:]
        rng.shuffle(tiles)
        hands: dict[int, int] = {}
        ok = True
        for q in order:
            rules = [] if q in relaxed else voids[q]
            hand, need, rest = 0, sizes[q], []
            for t in tiles:
                if need and _fits(hand, t, rules):
                    hand |= BIT[t]
                    need -= 1
                else:
                    rest.append(t)
            if need:
                ok = False
                break
            hands[q] = hand
            tiles = rest
        if ok:
            return hands, tiles
    raise AssertionError("unreachable")


def _fill_common(st: MexicanTrainState | LineGameState, view: View, opts: Any, chance: Chance,
                 hands: list[int], boneyard: list[int], log: list[dict[str, Any]]) -> None:
    """What every sampled state takes from the view (or the sampled deal) alike."""
    st.opts = opts
    st.n = opts.players
    st.chance = chance
    st.round = view["round"]
    st.current = view["current_seat"]
    st.hands = hands
    st.boneyard = boneyard
    st.scores = list(view["scores"])
    st.over = False
    st.winners = []
    st.log = log
    st._legal = None


def _mexican_train_state(view: View, opts: Any, chance: Chance, hands: list[int],
                         boneyard: list[int], log: list[dict[str, Any]],
                         rng: random.Random) -> MexicanTrainState:
    n = opts.players
    index = {train["id"]: i for i, train in enumerate(view["trains"])}
    turn = view["turn"]
    st = MexicanTrainState(opts, chance, None, False)
    _fill_common(st, view, opts, chance, hands, boneyard, log)
    st.engine = int(view["engine"].split("-")[0])
    st.ends = [train["open_end"] for train in view["trains"]]
    st.trains = [[parse_tile(t) for t in train["tiles"]] for train in view["trains"]]
    st.markers = sum(BIT[i] for i in range(n) if view["trains"][i]["marker"])
    owed = [index[i] for i in view["owed"]]
    st.owed = owed if opts.double_order == "played" else owed[::-1]
    st.deferred = [index[i] for i in turn["deferred"]]
    st.pending = [index[i] for i in turn["pending"]]
    st.first_done = sum(BIT[s] for s in view["first_turn_done"])
    st.drew = turn["drew"]
    st.turn_draws = turn["draws"]
    st.must_follow = turn["must_follow"]
    st.chain = turn["chain"]
    st.passes = turn["passes"]
    if turn["drawn"] is not None:
        st.drawn = parse_tile(turn["drawn"])
    elif st.drew:       # someone else's drawn tile: one of their tiles, at random
        st.drawn = rng.choice([t for t in range(N_IDS) if hands[st.current] >> t & 1])
    else:
        st.drawn = -1
    return st


def _line_state(view: View, opts: Any, chance: Chance, hands: list[int], boneyard: list[int],
                log: list[dict[str, Any]],
                round_log: list[Mapping[str, Any]]) -> LineGameState:
    st = LineGameState(opts, chance, None, None, False)
    _fill_common(st, view, opts, chance, hands, boneyard, log)
    st.count_scoring = opts.count_scoring
    st.must_play = opts.must_play
    st.leader = view["leader"]
    st.lead = -1
    st.ends, st.spinners = [], []
    for e in round_log:             # lay the hand's tiles again, in order
        if e["type"] == "play":
            target = e["target"]
            st._place(parse_tile(e["tile"]), -1 if target is None else st.end_index(target))
    st.count = st._count() if st.count_scoring and st.lead >= 0 else 0
    st.passes = view["turn"]["passes"]
    st.drew = view["turn"]["drew"]
    return st
