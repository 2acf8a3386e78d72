"""Helpers for the hand-made Mexican Train golden tests (public API only)."""

from __future__ import annotations

import json

import dominohall


def tile(text: str) -> str:
    """Canonical tile text, high half first: "3-6" -> "6-3"."""
    a, b = (int(x) for x in text.split("-"))
    return f"{max(a, b)}-{min(a, b)}"


def pips(text: str) -> int:
    a, b = (int(x) for x in text.split("-"))
    return a + b


def full_set(set_max: int) -> list[str]:
    return [f"{a}-{b}" for a in range(set_max, -1, -1) for b in range(a, -1, -1)]


def stacked(hands, top=(), *, seed=0, **options):
    """A Mexican Train game with a stacked first-round deck.

    Defaults: set_max=6, engine="set_aside", hand_size=len(hands[0]).
    The boneyard is `top` (drawn first, in this order) followed by every other
    tile of the set in descending order (minus the engine with set_aside).
    """
    opts = {"set_max": 6, "engine": "set_aside"}
    opts.update(options)
    opts.setdefault("hand_size", len(hands[0]))
    set_max = opts["set_max"]
    hands = [[tile(t) for t in h] for h in hands]
    top = [tile(t) for t in top]
    used = [t for h in hands for t in h] + top
    assert len(set(used)) == len(used), "duplicate tile in the stacked deck"
    engine = f"{set_max}-{set_max}"
    rest = [
        t
        for t in full_set(set_max)
        if t not in used and not (opts["engine"] == "set_aside" and t == engine)
    ]
    return dominohall.new_game(
        "mexican_train",
        players=len(hands),
        seed=seed,
        options=opts,
        hands=hands,
        boneyard=top + rest,
    )


def legal(g) -> set[str]:
    return {str(a) for a in g.legal_actions()}


def play(g, *actions) -> None:
    for a in actions:
        g.apply(a)


def trains(g) -> dict:
    return {t["id"]: t for t in g.view(None)["trains"]}


def train_tiles(g, tid: str) -> list[str]:
    return [tile(t) for t in trains(g)[tid]["tiles"]]


def hand(g, seat: int) -> list[str]:
    return sorted(tile(t) for t in g.view(seat)["hand"])


def events(g, seat=None, kind=None) -> list[dict]:
    log = g.view(seat)["log"]
    return [e for e in log if kind is None or e["type"] == kind]


def last_event(g, kind, seat=None) -> dict:
    evs = events(g, seat, kind)
    assert evs, f"no {kind!r} event in the log"
    return evs[-1]


def finish_chain(g, seat: int) -> None:
    """End a first-turn chain if the engine has not ended it by itself."""
    if g.current_seat == seat and "end" in legal(g):
        g.apply("end")


def snapshot(g) -> str:
    cur = g.current_seat
    return json.dumps(
        {
            "spectator": g.view(None),
            "current": g.view(cur) if cur is not None else None,
            "record": g.to_record(),
            "scores": list(g.scores),
            "round": g.round,
            "current_seat": cur,
            "legal": sorted(legal(g)),
        },
        sort_keys=True,
        default=str,
    )


# The 3-player blocked deal (A10/A11): every 0 on the table and an owed 0-0 nobody can
# cover; shared by the Mexican Train golden tests and the clarified ones.
BLOCK_CHAINS = [
    ["6-1", "1-1", "4-1", "6-4", "6-5", "5-5", "5-0", "0-0"],
    ["6-0", "4-0", "5-4", "5-2", "4-2", "4-4", "4-3", "3-0"],
    ["6-2", "2-1", "1-0", "2-0", "3-2", "3-3", "5-3", "5-1"],
]
BLOCK_LEFT = ["6-3", "2-2", "3-1"]  # 9, 4 and 4 pips


def blocked_game(**options):
    hands = [chain + [left] for chain, left in zip(BLOCK_CHAINS, BLOCK_LEFT)]
    g = stacked(hands, rounds=1, **options)
    assert g.view(None)["boneyard"] == 0
    for seat, chain in enumerate(BLOCK_CHAINS):
        assert g.current_seat == seat
        for t in chain:
            g.apply(f"{t}>t{seat}")
        finish_chain(g, seat)
    assert g.view(None)["owed"] == ["t0"]
    return g
