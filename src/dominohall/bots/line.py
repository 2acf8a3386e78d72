"""All Fives / Draw / Block bots above random: `scorer` and `fives` (views only).

Both ask the engine what a play scores by playing it in a world sampled from the
view (`dominohall.sample_world`): the layout is public, so every sampled world
scores our own play alike, and no rule is written twice.
"""

from __future__ import annotations

from ..engine import Game, sample_world
from ..engine.actions import PLAY, parse_action
from ..engine.line_game import LineGameState
from ..engine.tiles import BIT, HIGH, IS_DOUBLE, LOW, PIPS, WITH_HALF
from .base import SeededBot, View, hand_mask


def score_after(world: Game, text: str, seat: int) -> tuple[int, Game]:
    """Points `seat` gains by playing `text` now in `world`, and the world after it."""
    c = world.clone()
    c.apply_unchecked(parse_action(text))
    return c.scores[seat] - world.scores[seat], c


class ScorerBot(SeededBot):
    """Takes the biggest immediate score; ties go to the heaviest tile."""

    name = "scorer"

    def choose(self, view: View) -> str:
        legal = [str(a) for a in view["legal_actions"]]
        world = sample_world(view, self.rng)
        seat = view["seat"]

        def key(a: str) -> tuple[int, int, float]:
            act = parse_action(a)
            if act.kind != PLAY:
                return (-1, -1, 0.0)
            return (score_after(world, a, seat)[0], PIPS[act.tile], self.rng.random())
        return max(legal, key=key)


class FivesBot(SeededBot):
    """A weighted one-move heuristic: the score now, minus the best reply an opponent is
    expected to make with the tiles we cannot see (averaged over sampled worlds that
    respect what their draws and passes proved), plus dumping heavy doubles, keeping
    control of a suit, and going out when it pays."""

    name = "fives"

    def __init__(self, seed: int = 0, worlds: int = 6, reply_weight: float = 0.8) -> None:
        super().__init__(seed)
        self.worlds = worlds
        self.reply_weight = reply_weight

    def choose(self, view: View) -> str:
        legal = [str(a) for a in view["legal_actions"]]
        seat = view["seat"]
        hand = hand_mask(view)
        worlds = [sample_world(view, self.rng) for _ in range(self.worlds)]
        best, best_value = legal[0], -1e9
        for a in legal:
            act = parse_action(a)
            if act.kind != PLAY:
                value = -100.0
            else:
                value = self.value(worlds, a, act.tile, seat, hand)
            if value > best_value:
                best, best_value = a, value
        return best

    def value(self, worlds: list[Game], a: str, t: int, seat: int, hand: int) -> float:
        now, after = score_after(worlds[0], a, seat)
        rest = hand & ~BIT[t]
        value = float(now)
        if not rest:
            return value + 50.0                    # going out scores the others' hands
        if after.round == worlds[0].round and not after.is_over:
            value -= self.reply_weight * self._reply(worlds, a, seat)
        if IS_DOUBLE[t]:
            value += 0.5 * PIPS[t] + 2.0           # doubles are the hardest tiles to place
        value += 0.15 * PIPS[t]                    # heavy tiles cost the most at the end
        # control: tiles we still hold that match the number this play leaves open
        left_open = LOW[t] if HIGH[t] in _ends(worlds[0]) else HIGH[t]
        value += 1.0 * (rest & WITH_HALF[left_open]).bit_count()
        return value

    def _reply(self, worlds: list[Game], a: str, seat: int) -> float:
        total = 0.0
        for w in worlds:
            _, after = score_after(w, a, seat)
            replier = after.current_seat
            st = after.state
            assert isinstance(st, LineGameState)
            if replier is None or st.side(replier) == st.side(seat):
                continue
            best = 0
            for r in after.state.legal():
                if r.kind == PLAY:
                    best = max(best, score_after(after, r, replier)[0])
            total += best
        return total / len(worlds)


def _ends(world: Game) -> set[int]:
    return set(world.state.end_values)  # type: ignore[union-attr]


__all__ = ["FivesBot", "ScorerBot"]
