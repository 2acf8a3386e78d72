"""Cross-check our 2-player Block game against OpenSpiel's ``python_block_dominoes``.

RULES.md B8: with 2 players, 7 tiles each and ``hands=1``, our ``block`` game is exactly
OpenSpiel's ``python_block_dominoes``. For thousands of deals we deal the same tiles in
both, play the same random line in both and compare at every decision.

How OpenSpiel's game works (open_spiel/python/games/block_dominoes.py) and how it maps
onto ours:

* **Tiles.** Their deck is ``itertools.combinations_with_replacement([0.0 .. 6.0], 2)``:
  28 float pairs ``(lo, hi)`` with ``lo <= hi``. Tile ``(lo, hi)`` is our ``"hi-lo"``
  (we print the high half first). Both are the full double-6 set, tile for tile.
* **Deal.** 14 explicit chance nodes, each outcome ``a`` deals ``_DECK[a]`` (its text is
  ``"Deal (lo, hi)"``): the first 7 go to player 0, the next 7 to player 1; the other 14
  tiles stay in their deck and are never used. We shuffle the 28 tiles with a seeded
  ``random.Random``, feed the first 14 to their chance nodes in that order, and create
  ``new_game("block", players=2, options={"hands": 1}, hands=[first 7, next 7],
  boneyard=[the 14 undealt tiles], leader=0)``: Block never draws, but our deck must
  still account for every tile of the set.
* **Who starts.** Always player 0 (their ``_next_player = 0`` after the deal), so our
  ``leader=0``. Seats and players are the same numbers.
* **Actions.** 154 ids, one per ``(player, tile, edge)``, text ``"p0 tile:(lo, hi)
  pip:edge"``. The lead has ``edge=None`` (our action text is just the tile, ``"6-4"``);
  later plays name the open-end *value* the tile is laid against (our ``"6-4>L"`` /
  ``"6-4>R"`` name the end; we translate through ``view(None)["layout"]["ends"]``). When
  both ends show the same value they list one action where we list two (``>L`` and
  ``>R``), so we compare the set of playable tiles and the set of
  ``(tile, open-end value)`` placements, not the raw action lists.
* **A player who cannot play.** OpenSpiel has no pass action: after a play by ``q`` it
  hands the turn to the opponent if the opponent has a play, else back to ``q`` if ``q``
  has one (the opponent is *skipped*), else the game is over (blocked). We give the
  blocked seat one legal action, ``pass``. So a skip in OpenSpiel must be exactly one
  forced ``pass`` (``legal_actions() == ["pass"]``) by the skipped seat on our side, and
  ``pass`` must never appear anywhere else. When OpenSpiel ends the game by a block, we
  may either be over at once or ask the stuck seats for forced passes (at most one per
  seat) before the hand is scored; either way no tile may be playable.
* **Terminal.** Theirs: a player plays their last tile ("domino") or neither player can
  play ("blocked"). Ours must end at the same moment, with ``round_end.reason`` equal to
  ``"domino"`` / ``"blocked"`` and ``round_end.pips`` equal to the pips left in each hand.
* **Points.** Their ``returns()`` are zero-sum: the player with fewer pips left gets
  ``+P`` and the other ``-P``, where ``P`` is the pip count of the *loser's* hand (after a
  domino the winner holds 0 pips); equal pips give ``[0, 0]``. Ours (RULES B6 with
  ``round_to = 1``, ``block_tie = nobody``): the winner scores the opponent's pips and the
  loser scores 0. Hence ``g.scores[i] == max(returns[i], 0)`` and
  ``returns[0] == g.scores[0] - g.scores[1]``; ``g.winners`` is the seat with the positive
  return, or both seats on a tie (``hands=1``: highest score wins, ties share).

Set ``DOMINOHALL_REQUIRE_PEERS=1`` to make a missing OpenSpiel a failure instead of a skip
(CI does, so the cross-check cannot silently disappear). ``DOMINOHALL_CROSSCHECK_DEALS``
changes the number of deals (default 2000).
"""

from __future__ import annotations

import os
import random
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

REQUIRE_PEERS = os.environ.get("DOMINOHALL_REQUIRE_PEERS") == "1"

if REQUIRE_PEERS:
    # Do not skip: a missing peer must fail every test below, loudly.
    try:
        import pyspiel
        from open_spiel.python.games import block_dominoes as _os_block  # registers the game
    except ImportError as exc:  # pragma: no cover - depends on the environment
        pyspiel = None
        _os_block = None
        _PEER_ERROR: str | None = f"{type(exc).__name__}: {exc}"
    else:
        _PEER_ERROR = None
else:
    pyspiel = pytest.importorskip("pyspiel")
    _os_block = pytest.importorskip("open_spiel.python.games.block_dominoes")
    _PEER_ERROR = None

import dominohall  # noqa: E402  (after the peer check on purpose: our engine must exist)

NUM_DEALS = int(os.environ.get("DOMINOHALL_CROSSCHECK_DEALS", "2000"))
CHUNK = 100
PLAYERS = 2
HAND_SIZE = 7

Tile = tuple[int, int]  # (lo, hi), lo <= hi
ALL_TILES: list[Tile] = [(lo, hi) for lo in range(7) for hi in range(lo, 7)]

_OS_ACTION_RE = re.compile(r"^p(\d) tile:\(([\d.]+), ([\d.]+)\) pip:(None|[\d.]+)$")
_OS_DEAL_RE = re.compile(r"^Deal \(([\d.]+), ([\d.]+)\)$")


def _require_peer() -> None:
    if _PEER_ERROR is not None:
        pytest.fail(
            "DOMINOHALL_REQUIRE_PEERS=1 but OpenSpiel (pyspiel + "
            f"open_spiel.python.games.block_dominoes) cannot be imported: {_PEER_ERROR}"
        )


def _tile_text(t: Tile) -> str:
    return f"{t[1]}-{t[0]}"


def _parse_tile(text: str) -> Tile:
    a, b = (int(x) for x in text.split("-"))
    return (a, b) if a <= b else (b, a)


class _OpenSpielBlock:
    """The loaded game plus decoded action tables (built once, from the public API)."""

    def __init__(self) -> None:
        self.game = pyspiel.load_game("python_block_dominoes")
        assert self.game.num_players() == PLAYERS
        state = self.game.new_initial_state()
        assert state.is_chance_node()
        self.deal_action: dict[Tile, int] = {}
        for action, _prob in state.chance_outcomes():
            m = _OS_DEAL_RE.match(state.action_to_string(pyspiel.PlayerId.CHANCE, action))
            assert m, state.action_to_string(pyspiel.PlayerId.CHANCE, action)
            lo, hi = sorted((int(float(m.group(1))), int(float(m.group(2)))))
            self.deal_action[(lo, hi)] = action
        # Their set and ours must be the same 28 tiles, one chance outcome each.
        assert sorted(self.deal_action) == ALL_TILES
        assert len(set(self.deal_action.values())) == len(ALL_TILES)
        self._decoded: dict[tuple[int, int], tuple[Tile, int | None]] = {}

    def decode(self, state: Any, player: int, action: int) -> tuple[Tile, int | None]:
        """Action id -> (tile, open-end value it is laid against, None for the lead)."""
        key = (player, action)
        hit = self._decoded.get(key)
        if hit is None:
            text = state.action_to_string(player, action)
            m = _OS_ACTION_RE.match(text)
            assert m, f"unexpected OpenSpiel action text {text!r}"
            assert int(m.group(1)) == player, text
            lo, hi = sorted((int(float(m.group(2))), int(float(m.group(3)))))
            edge = None if m.group(4) == "None" else int(float(m.group(4)))
            hit = ((lo, hi), edge)
            self._decoded[key] = hit
        return hit


_PEER: _OpenSpielBlock | None = None


def _peer() -> _OpenSpielBlock:
    global _PEER
    _require_peer()
    if _PEER is None:
        _PEER = _OpenSpielBlock()
    return _PEER


class _Ctx:
    """Deal and line so far, for failure messages that can be replayed by hand."""

    def __init__(self, seed: int, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]):
        self.seed = seed
        self.hands = [[_tile_text(t) for t in h] for h in hands]
        self.boneyard = [_tile_text(t) for t in boneyard]
        self.line: list[str] = []  # our action texts, in order, passes included

    def __str__(self) -> str:
        return (
            f"\n  seed={self.seed}\n  hands={self.hands}\n  boneyard={self.boneyard}"
            f"\n  leader=0\n  line so far ({len(self.line)} actions)={self.line}"
        )


def _our_placements(g: Any) -> tuple[dict[tuple[Tile, int | None], str], bool, bool]:
    """Our legal actions as {(tile, end value or None for the lead): action text}.

    Also returns whether `pass` and whether `draw` were offered.
    """
    actions = [str(a) for a in g.legal_actions()]
    has_pass = "pass" in actions
    has_draw = "draw" in actions
    plays = [a for a in actions if a not in ("pass", "draw")]
    placements: dict[tuple[Tile, int | None], str] = {}
    end_value: dict[str, int] = {}
    if any(">" in a for a in plays):
        layout = g.view(None)["layout"]
        end_value = {str(e["id"]): int(e["value"]) for e in layout["ends"]}
    for a in plays:
        tile_text, _, target = a.partition(">")
        tile = _parse_tile(tile_text)
        value = end_value[target] if target else None
        placements.setdefault((tile, value), a)  # first of >L / >R on equal ends
    return placements, has_pass, has_draw


def _our_open_ends(g: Any) -> list[int]:
    return sorted(int(e["value"]) for e in g.view(None)["layout"]["ends"])


def _forced_pass(g: Any, seat: int, ctx: _Ctx, why: str) -> None:
    assert not g.is_over, f"our game ended but {why}{ctx}"
    assert g.current_seat == seat, (
        f"{why}: expected our seat {seat} to pass, but current seat is {g.current_seat}{ctx}"
    )
    legal = [str(a) for a in g.legal_actions()]
    assert legal == ["pass"], f"{why}: seat {seat} should only be able to pass, has {legal}{ctx}"
    g.apply("pass", seat=seat)
    ctx.line.append(f"s{seat}:pass")


def _play_one_deal(seed: int) -> dict[str, Any]:
    peer = _peer()
    rng = random.Random(seed)
    tiles = list(ALL_TILES)
    rng.shuffle(tiles)
    hands = [tiles[0:HAND_SIZE], tiles[HAND_SIZE : 2 * HAND_SIZE]]
    boneyard = tiles[2 * HAND_SIZE :]
    ctx = _Ctx(seed, hands, boneyard)

    # --- deal the same tiles in both -------------------------------------------------
    state = peer.game.new_initial_state()
    for t in hands[0] + hands[1]:
        assert state.is_chance_node()
        state.apply_action(peer.deal_action[t])
    assert not state.is_chance_node()
    assert state.current_player() == 0, "OpenSpiel's first player is always player 0"

    g = dominohall.new_game(
        "block",
        players=PLAYERS,
        options={"hands": 1},
        hands=ctx.hands,
        boneyard=ctx.boneyard,
        leader=0,
    )
    for seat in range(PLAYERS):
        ours = sorted(_parse_tile(t) for t in g.view(seat)["hand"])
        assert ours == sorted(hands[seat]), f"seat {seat} was dealt {ours}{ctx}"
    assert g.view(None)["boneyard"] == len(boneyard), ctx

    remaining = [set(h) for h in hands]
    open_ends: list[int] = []  # multiset of open-end values, as OpenSpiel sees them
    last_player: int | None = None
    skips = 0  # seats OpenSpiel skipped mid-hand (forced passes on our side)

    # --- the same random line in both ------------------------------------------------
    while not state.is_terminal():
        player = state.current_player()
        if last_player is not None:
            # Seats OpenSpiel skipped between the last play and `player` must pass on ours.
            seat = (last_player + 1) % PLAYERS
            while seat != player:
                _forced_pass(g, seat, ctx, f"OpenSpiel skipped seat {seat}")
                skips += 1
                seat = (seat + 1) % PLAYERS
        assert not g.is_over, f"our game is over but OpenSpiel's player {player} is to play{ctx}"
        assert g.current_seat == player, (
            f"turn differs: OpenSpiel player {player}, ours seat {g.current_seat}{ctx}"
        )

        theirs = {peer.decode(state, player, a): a for a in state.legal_actions()}
        ours, has_pass, has_draw = _our_placements(g)
        assert not has_draw, f"Block never draws, but seat {player} may draw{ctx}"
        assert not has_pass, (
            f"seat {player} may pass although OpenSpiel gives it a play ({sorted(theirs)}){ctx}"
        )
        their_tiles = {t for t, _ in theirs}
        our_tiles = {t for t, _ in ours}
        assert our_tiles == their_tiles, (
            f"playable tiles differ for seat {player}: ours {sorted(our_tiles)}, "
            f"OpenSpiel {sorted(their_tiles)}{ctx}"
        )
        assert set(ours) == set(theirs), (
            f"placements (tile, open-end value) differ for seat {player}: "
            f"ours {sorted(ours, key=str)}, OpenSpiel {sorted(theirs, key=str)}{ctx}"
        )

        (tile, edge) = key = rng.choice(sorted(theirs, key=str))
        state.apply_action(theirs[key])
        text = ours[key]
        g.apply(text, seat=player)
        ctx.line.append(f"s{player}:{text}")

        remaining[player].remove(tile)
        if edge is None:
            open_ends = sorted(tile)
        else:
            open_ends.remove(edge)
            open_ends = sorted(open_ends + [tile[1] if tile[0] == edge else tile[0]])
        if not g.is_over:
            assert _our_open_ends(g) == open_ends, (
                f"open ends differ: ours {_our_open_ends(g)}, expected {open_ends}{ctx}"
            )
        last_player = player

    # --- the end ------------------------------------------------------------------
    assert last_player is not None
    domino = not remaining[last_player]
    if domino:
        assert g.is_over, f"seat {last_player} played its last tile but our game goes on{ctx}"
    else:
        # Blocked in OpenSpiel: nobody can play. Ours may ask each stuck seat for one pass.
        end_passes = 0
        while not g.is_over:
            assert end_passes < PLAYERS, f"more than one pass per seat after a block{ctx}"
            _forced_pass(g, g.current_seat, ctx, "OpenSpiel ended the hand by a block")
            end_passes += 1
    assert g.current_seat is None, ctx

    returns = [int(r) for r in state.returns()]
    pips = [sum(lo + hi for lo, hi in h) for h in remaining]
    expected_scores = [max(r, 0) for r in returns]
    assert list(g.scores) == expected_scores, (
        f"final points differ: ours {list(g.scores)}, OpenSpiel returns {returns} "
        f"(pips left {pips}){ctx}"
    )
    assert returns[0] == g.scores[0] - g.scores[1], ctx
    winners = [0] if returns[0] > 0 else [1] if returns[0] < 0 else [0, 1]
    assert sorted(g.winners) == winners, f"winners {g.winners}, expected {winners}{ctx}"

    log = g.view(None)["log"]
    round_ends = [e for e in log if e.get("type") == "round_end"]
    assert len(round_ends) == 1, f"expected one round_end event, got {round_ends}{ctx}"
    assert round_ends[0]["reason"] == ("domino" if domino else "blocked"), (
        f"round_end reason {round_ends[0]['reason']!r}, OpenSpiel "
        f"{'domino' if domino else 'blocked'}{ctx}"
    )
    assert list(round_ends[0]["pips"]) == pips, (
        f"round_end pips {round_ends[0]['pips']}, expected {pips}{ctx}"
    )
    return {"domino": domino, "skips": skips, "returns": returns}


def test_openspiel_peer_available() -> None:
    """With DOMINOHALL_REQUIRE_PEERS=1 a missing OpenSpiel fails here (and below)."""
    peer = _peer()
    assert len(peer.deal_action) == 28


@pytest.mark.parametrize(
    "first_seed",
    range(0, NUM_DEALS, CHUNK),
    ids=lambda s: f"seeds{s}-{min(s + CHUNK, NUM_DEALS) - 1}",
)
def test_block_matches_openspiel(first_seed: int) -> None:
    stats: Counter[str] = Counter()
    for seed in range(first_seed, min(first_seed + CHUNK, NUM_DEALS)):
        out = _play_one_deal(seed)
        stats["domino" if out["domino"] else "blocked"] += 1
        stats["skips"] += out["skips"]
        stats["tie" if out["returns"] == [0, 0] else "decided"] += 1
    # The random lines must exercise both endings and some skips, or the check is weak.
    if first_seed == 0:
        assert stats["domino"] and stats["blocked"] and stats["skips"], stats
