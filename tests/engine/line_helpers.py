"""Helpers for the hand-made golden tests of the line games (RULES.md Part B).

Only the public API of docs/engine-api.md is used: new_game with stacked
``hands`` / ``boneyard`` (top first) and ``leader=``, apply, legal_actions,
view, scores, round, is_over, winners, current_seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import dominohall


def all_tiles(set_max: int = 6) -> list[str]:
    """Every tile of a double-``set_max`` set, high half first, ascending."""
    return [f"{a}-{b}" for a in range(set_max + 1) for b in range(a + 1)]


def norm(tile: str) -> str:
    a, b = (int(x) for x in tile.split("-"))
    if a < b:
        a, b = b, a
    return f"{a}-{b}"


def norm_action(text: str) -> str:
    text = str(text)
    if text in ("draw", "pass", "end"):
        return text
    if ">" in text:
        tile, target = text.split(">", 1)
        return f"{norm(tile)}>{target}"
    return norm(text)


def pips(tiles: Iterable[str]) -> int:
    return sum(int(x) for t in tiles for x in t.split("-"))


def build_deck(
    hands: Sequence[Sequence[str]],
    boneyard_top: Sequence[str] = (),
    hand_size: int = 7,
    set_max: int = 6,
) -> tuple[list[list[str]], list[str]]:
    """Complete partially given hands with the lowest unused tiles (ascending
    order), then put ``boneyard_top`` on top of the boneyard followed by every
    remaining tile in ascending order.  Checks that every tile is used once."""
    used: list[str] = [norm(t) for h in hands for t in h] + [norm(t) for t in boneyard_top]
    assert len(used) == len(set(used)), f"duplicate tile in stacked deck: {used}"
    full = all_tiles(set_max)
    for t in used:
        assert t in full, t
    spare = [t for t in full if t not in used]
    out_hands: list[list[str]] = []
    for h in hands:
        h = [norm(t) for t in h]
        assert len(h) <= hand_size
        while len(h) < hand_size:
            h.append(spare.pop(0))
        out_hands.append(h)
    boneyard = [norm(t) for t in boneyard_top] + spare
    assert sorted(sum(out_hands, []) + boneyard) == sorted(full)
    return out_hands, boneyard


def new(
    game: str = "all_fives",
    deal: Sequence[Sequence[str]] | None = None,
    boneyard_top: Sequence[str] = (),
    leader: int = 0,
    seed: int = 1,
    players: int | None = None,
    **options: object,
):
    """A line game with a stacked first deal (every tile known).  ``deal`` are the
    (partial) hands per seat; ``options`` go to new_game's options (so ``hands=1``
    here is the RULES B7 option, not the stacked deck)."""
    assert deal is not None
    n = players if players is not None else len(deal)
    hand_size = int(options.get("hand_size", 7))  # type: ignore[arg-type]
    set_max = int(options.get("set_max", 6))  # type: ignore[arg-type]
    full_hands, boneyard = build_deck(deal, boneyard_top, hand_size, set_max)
    return dominohall.new_game(
        game,
        players=n,
        seed=seed,
        options=dict(options),
        hands=full_hands,
        boneyard=boneyard,
        leader=leader,
    )


def legal(g) -> list[str]:
    return [norm_action(str(a)) for a in g.legal_actions()]


def step(g, seat: int, action: str) -> None:
    """Apply ``action`` for ``seat``, checking first that it is that seat's turn
    and that the action is listed as legal."""
    assert g.current_seat == seat, f"expected seat {seat} to move, got {g.current_seat}"
    assert norm_action(action) in legal(g), f"{action!r} not in {legal(g)}"
    g.apply(action, seat=seat)


def log(g) -> list[dict]:
    return list(g.view(None)["log"])


def last_event(g, kind: str) -> dict:
    for ev in reversed(log(g)):
        if ev["type"] == kind:
            return ev
    raise AssertionError(f"no {kind} event in log")


def events(g, kind: str) -> list[dict]:
    return [ev for ev in log(g) if ev["type"] == kind]


def layout(g) -> dict:
    return g.view(None)["layout"]


def end_ids(g) -> set[str]:
    return {e["id"] for e in layout(g)["ends"]}


def count(g) -> int:
    return layout(g)["count"]


def targets(g) -> set[str]:
    """The set of targets (after '>') among the current legal actions."""
    return {a.split(">", 1)[1] for a in legal(g) if ">" in a}


def round5(x: int) -> int:
    """RULES B6: nearest 5, remainder 1-2 down, 3-4 up."""
    return (x + 2) // 5 * 5


def run_first_legal(g, max_steps: int = 20000, on_step=None) -> int:
    """Play the first legal action until the match is over."""
    steps = 0
    while not g.is_over:
        acts = g.legal_actions()
        assert acts, "no legal action while the game is not over"
        g.apply(acts[0])
        steps += 1
        if on_step is not None:
            on_step(g)
        assert steps < max_steps, "game did not finish"
    return steps


# ---- the blocked 4-player deal (B6), shared by the line-game golden tests ----------

# A 4-player deal (7 tiles each, no boneyard) that blocks after ten plays:
# 0-0, 1-0>L, 2-1>L, 2-0>L, 3-0>L, 4-3>L, 4-0>L, 5-0>R, 6-5>R, 6-0>R leaves
# 0 on both line ends, all seven 0s on the table and the spinner's arms showing
# 0 as well.  The only count that scores is 5 (seat 3, after 5-0>R).
BLOCK_SCRIPT = [
    (0, "0-0"), (1, "1-0>L"), (2, "2-1>L"), (3, "2-0>L"), (0, "3-0>L"),
    (1, "4-3>L"), (2, "4-0>L"), (3, "5-0>R"), (0, "6-5>R"), (1, "6-0>R"),
]
BLOCK_PLAYED = {0: ["0-0", "3-0", "6-5"], 1: ["1-0", "4-3", "6-0"], 2: ["2-1", "4-0"],
                3: ["2-0", "5-0"]}


def block_deal(rest):
    hands = [BLOCK_PLAYED[s] + rest[s] for s in range(4)]
    assert all(len(h) == 7 for h in hands)
    return hands


def play_until_hand_ends(g, max_passes=8):
    r = g.round
    for _ in range(max_passes):
        if g.round != r or g.is_over:
            return
        assert legal(g) == ["pass"], legal(g)
        g.apply("pass")
    assert g.round != r or g.is_over, "hand did not end after everyone passed"


def play_block_script(g):
    for seat, a in BLOCK_SCRIPT:
        step(g, seat, a)
    assert count(g) == 0
    play_until_hand_ends(g)


# the rest of each hand beside BLOCK_PLAYED for a blocked hand tied for fewest pips
TIE_REST = {0: ["5-5", "6-6", "6-1", "5-2"], 1: ["3-2", "5-1", "4-2", "3-3"],
            2: ["6-2", "5-3", "6-3", "5-4", "6-4"], 3: ["1-1", "2-2", "3-1", "4-1", "4-4"]}
