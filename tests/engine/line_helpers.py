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
