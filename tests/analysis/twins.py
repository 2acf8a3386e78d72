"""Twin positions: two real games whose view for one seat is byte-for-byte the same, while
the other seats' hidden tiles differ.

A game is dealt from a stacked first-round deck (a random order of the set) and played
by bots to a position in that round where seat `k` is to move.  Its twin is the same
deck with two tiles exchanged that seat `k` never saw by then: a tile still in another
seat's hand for one still in the boneyard, or tiles of two other seats.  The same actions
are replayed on the twin's deck; a twin where one of them is no longer legal (the seat
could have played the tile it got instead of drawing, say) is dropped.  Both are kept as
records, so the twin goes through everything a record does (`replay`, the server's hint).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from dominohall import bots
from dominohall.engine import BadRecord, Game, new_game, replay
from dominohall.engine.options import resolve_options
from dominohall.engine.tiles import TEXT, double, set_size

#: (game, players, options) the twins are drawn from: every game, a few table sizes
TABLES: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "mexican_train": [(2, {}), (4, {}), (3, {"engine": "set_aside"})],
    "all_fives": [(2, {"hands": 1}), (4, {"teams": True}), (3, {})],
    "draw": [(2, {}), (4, {})],
    "block": [(2, {}), (3, {}), (4, {"teams": True})],
}


@dataclass
class Twin:
    """A position (`record`, seat `seat` to move) and its twin (`other`)."""

    game: str
    seat: int
    record: dict[str, Any]
    other: dict[str, Any]
    last_tile: bool        # the seat holds one tile and may play it


def dealt(name: str, players: int, options: dict[str, Any], rng: random.Random
          ) -> tuple[list[list[str]], list[str]]:
    """A random first-round deck: hands and boneyard (top first) as tile texts."""
    opts = resolve_options(name, players, options)
    tiles = list(range(set_size(opts.set_max)))
    if name == "mexican_train" and opts.engine == "set_aside":   # type: ignore[union-attr]
        tiles.remove(double(opts.set_max))
    rng.shuffle(tiles)
    size = opts.hand_size
    hands = [[TEXT[t] for t in tiles[s * size:(s + 1) * size]] for s in range(players)]
    return hands, [TEXT[t] for t in tiles[players * size:]]


def _game(name: str, players: int, options: dict[str, Any], seed: int,
          deck: tuple[list[list[str]], list[str]]) -> Game:
    return new_game(name, players=players, seed=seed, options=options, hands=deck[0],
                    boneyard=deck[1])


def view_bytes(game: Game, seat: int) -> bytes:
    return json.dumps(game.view(seat), sort_keys=True).encode()


def twins(name: str, count: int, seed: int = 0) -> Iterator[Twin]:
    """`count` twin positions of game `name`, a share of them last-tile positions."""
    rng = random.Random(f"twins:{name}:{seed}")
    made = 0
    deal = 0
    while made < count:
        deal += 1
        players, options = TABLES[name][deal % len(TABLES[name])]
        deck = dealt(name, players, options, rng)
        game = _game(name, players, options, deal, deck)
        players_bots = [bots.make(rng.choice(["random", "greedy"]), seed=deal * 10 + s,
                                  game=name) for s in range(players)]
        # the positions of round 1 where someone has a choice; last tiles first
        positions: list[tuple[int, bool]] = []
        while not game.is_over and game.round == 1:
            seat = game.current_seat
            assert seat is not None
            view = game.view(seat)
            legal = view["legal_actions"]
            if len(legal) > 1 or (len(view["hand"]) == 1 and "-" in str(legal[0])):
                positions.append((len(game.actions), len(view["hand"]) == 1))
            game.apply(players_bots[seat].act(view))
        if not positions:
            continue
        last = [p for p in positions if p[1]]
        picks = last[-1:] + rng.sample(positions, min(2, len(positions)))
        for at, last_tile in picks:
            twin = _twin(name, players, options, deal, deck, game.actions[:at], rng,
                         last_tile)
            if twin is not None:
                yield twin
                made += 1
                if made >= count:
                    return


def _twin(name: str, players: int, options: dict[str, Any], seed: int,
          deck: tuple[list[list[str]], list[str]], actions: list[Any], rng: random.Random,
          last_tile: bool) -> Twin | None:
    game = _game(name, players, options, seed, deck)
    for a in actions:
        game.apply(a)
    seat = game.current_seat
    assert seat is not None
    st = game.state
    held = {s: {TEXT[t] for t in range(set_size(game.options.set_max)) if st.hands[s] >> t & 1}
            for s in range(players)}
    boneyard = {TEXT[t] for t in st.boneyard}
    hands, bone = deck
    # tiles seat `seat` never saw: dealt to another seat and held still, or never drawn
    places = [(s, i) for s in range(players) if s != seat
              for i, t in enumerate(hands[s]) if t in held[s]]
    spare = [i for i, t in enumerate(bone) if t in boneyard]
    options_ = [("bone", p, i) for p in places for i in spare] + \
        [("hand", p, q) for p in places for q in places if p[0] < q[0]]
    rng.shuffle(options_)
    for kind, (s, i), other in options_[:12]:
        new_hands = [h[:] for h in hands]
        new_bone = bone[:]
        if kind == "bone":
            j = other
            assert isinstance(j, int)
            new_hands[s][i], new_bone[j] = new_bone[j], new_hands[s][i]
        else:
            assert isinstance(other, tuple)
            s2, i2 = other
            new_hands[s][i], new_hands[s2][i2] = new_hands[s2][i2], new_hands[s][i]
        record = game.to_record()
        twin_record = {**record, "deck": {"hands": new_hands, "boneyard": new_bone}}
        try:
            twin = replay(twin_record)
        except BadRecord:
            continue                       # an action of the position is illegal there
        if view_bytes(twin, seat) != view_bytes(game, seat):
            continue
        assert twin.state.hands != game.state.hands or twin.state.boneyard != st.boneyard
        return Twin(name, seat, record, twin_record, last_tile)
    return None
