"""After the match: every decision weighed by the strongest bot, like a chess site's analysis.

`analyse(record)` replays a finished (or unfinished) game record and, for every
*decision* (a turn with more than one legal action) of every seat, or of one seat,
values each legal action **from the mover's view alone** (`Game.view(seat)` at that
moment, never the real hidden hands):

* worlds are sampled from the view as the top bot samples them (`bot.sample`:
  `dominohall.sample_world`, hand sizes, tiles seen, numbers a player proved it lacked),
  with a random generator seeded from the view and the analysis seed (`view_seed`), so
  the same view gets the same values, whatever the other seats really hold;
* in every world each legal action is played and the rest of the hand (line games) or
  round (Mexican Train) is played out by the top bot's own evaluation, every action with
  the same random numbers: Block and Draw on a plain line, `bots.block.DeepBot`'s (worlds
  weighted by how likely the others' plays were in each, `endgame.Solver` exact once at
  most 16 tiles are left and nobody can draw, its heavy-tile rollout before);
  All Fives (and a line game with a spinner or a draw to choose), `bots.allfives.
  AllFivesBot`'s (its rollouts, exact alpha-beta once nobody can draw and few tiles are
  left); Mexican Train, `bots.train.TrainBot`'s (no head start for its own rollout
  choice);
* an action's **value** is its mean over the worlds, in points of the mover's side for
  the rest of the hand or round, counted against the others: in the line games the
  points the mover's side (a team with partners) gains, the count's points included,
  minus the most any rival side gains; in Mexican Train the others' mean penalty pips
  minus the mover's (so higher is better everywhere, and a point given to a rival is a
  point lost).  Winning the match is worth no bonus here: the values are points.

The chosen action's **loss** is the best value minus its value (0 when it is the best),
and its **mark** comes from the game's thresholds (`THRESHOLDS`, points lost):

========================  ======  ===========  =========  ========
game                       good   inaccuracy   mistake    blunder
========================  ======  ===========  =========  ========
Mexican Train (pips)       < 3     3 to < 8    8 to < 15    15+
All Fives (points)         < 2.5   2.5 to < 5  5 to < 10    10+
Draw, Block (pips)         < 2     2 to < 5    5 to < 10    10+
========================  ======  ===========  =========  ========

``best`` is the action with the highest value itself.  All Fives scores in fives, so a
play that gives away one five more is a mistake, two a blunder; a Mexican Train round
moves by tens of pips, so its steps are wider.  Per player: the total and mean loss and
the **accuracy**, the share of its decisions marked best or good (in per cent).

``hindsight=True`` adds, as a separate column (never mixed with the fair one), the same
values with every hand and the boneyard known: exact where nobody can draw and few tiles
are left (Block and Draw: `endgame.Solver` from 16 tiles; All Fives: alpha-beta from
``solve_tiles``), else the real position played out by the same evaluation
(`HINDSIGHT_ROLLOUTS` rollouts averaged); ``exact`` tells which.

The work is fixed (worlds per decision, no clock): the same record, settings and seed give
the same analysis on any machine and in both builds (the engine compiled or pure).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..bots.allfives import AllFivesBot
from ..bots.train import TrainBot
from ..engine import BadRecord, Game, replay
from ..engine.actions import parse_action
from .advice import view_seed

View = Mapping[str, Any]
Progress = Callable[[int, int], None]

#: points lost below which a mark applies: (good, inaccuracy, mistake); blunder above
THRESHOLDS: dict[str, tuple[float, float, float]] = {
    "mexican_train": (3.0, 8.0, 15.0),
    "all_fives": (2.5, 5.0, 10.0),
    "draw": (2.0, 5.0, 10.0),
    "block": (2.0, 5.0, 10.0),
}
MARKS = ("best", "good", "inaccuracy", "mistake", "blunder")

#: worlds a decision at the default setting, and with ``quick`` (a quarter)
WORLDS: dict[str, int] = {"mexican_train": 24, "all_fives": 48, "draw": 64, "block": 64}
QUICK_SHARE = 4
#: the bot parameters the evaluation takes (``--bot deep:KEY=VALUE``)
BOT_PARAMS = {
    "line": ("worlds", "policy", "reply_weight", "solve_tiles", "max_nodes", "beliefs",
             "belief_beta", "max_steps"),
    "mexican_train": ("worlds", "dump_at", "beliefs", "belief_beta", "max_steps"),
}
#: rollouts averaged in the real position (hindsight) when it is not solved exactly
HINDSIGHT_ROLLOUTS = 4
#: positions the exact hindsight search may visit before it falls back to rollouts
HINDSIGHT_NODES = 20000


@dataclass(frozen=True)
class Settings:
    """How hard the analysis looks: worlds a decision and the evaluator's parameters."""

    game: str
    worlds: int
    params: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "worlds": self.worlds, "params": dict(self.params),
                "seed": self.seed}


def settings_for(game: str, bot: str | None = None, quick: bool = False, seed: int = 0,
                 ) -> Settings:
    """The settings for `game`: the default worlds (a quarter with `quick`), changed by a
    bot spec ``deep:worlds=96:solve_tiles=12`` (ValueError for anything else)."""
    if game not in WORLDS:
        raise ValueError(f"unknown game {game!r}")
    worlds = max(2, WORLDS[game] // QUICK_SHARE) if quick else WORLDS[game]
    params: dict[str, Any] = {}
    if bot:
        from ..arena.match import parse_bot
        name, params = parse_bot(bot)
        if name != "deep":
            raise ValueError(f"the analysis weighs moves with the top bot's search: write "
                             f"--bot deep or deep:KEY=VALUE (not {name!r})")
        allowed = BOT_PARAMS["mexican_train" if game == "mexican_train" else "line"]
        for key, value in params.items():
            if key not in allowed:
                raise ValueError(f"--bot: {key!r} is not a parameter of the {game} "
                                 f"evaluation (choose from {', '.join(allowed)})")
            if key in ("worlds", "solve_tiles", "max_nodes", "beliefs", "dump_at",
                       "max_steps") and (not isinstance(value, int)
                                         or isinstance(value, bool) or value < 1):
                if not (key in ("beliefs", "solve_tiles") and value == 0):
                    raise ValueError(f"--bot: {key}={value!r} must be a whole number "
                                     f"of 1 or more")
        worlds = int(params.pop("worlds", worlds))
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed {seed!r} is not a whole number")
    return Settings(game, worlds, params, seed)


def _evaluator(settings: Settings) -> Any:
    """The top bot whose `sample`/`evaluate` weigh the actions (no clock, no racing, no
    bonus for winning the match, no head start for its own rollout choice)."""
    params = dict(settings.params)
    if settings.game == "mexican_train":
        return TrainBot(seed=0, worlds=settings.worlds, prior=0.0, **params)
    return AllFivesBot(seed=0, worlds=settings.worlds, race=0.0, match_bonus=0.0, **params)


def _solving(view: View, bot: Any) -> bool:
    """Whether the line games' evaluation searches exactly (as `AllFivesBot.choose`)."""
    o = view["options"]
    no_draw = o.get("draw") == "none" or view["boneyard"] <= o.get("boneyard_reserve", 0)
    return bool(no_draw and sum(view["hand_sizes"]) <= bot.solve_tiles)


def _block_values(view: View, settings: Settings) -> dict[str, float] | None:
    """Block and Draw on a plain line: the values by the Block/Draw top bot's own search
    (`bots.block.DeepBot`): worlds from `sample_hands`, weighted by how likely the others'
    plays were in each (`inference.PlayHistory`), each candidate solved exactly by
    `endgame.Solver` once at most ``solve_tiles`` tiles are left and nobody can draw, else
    valued by its rollout; None where that model does not play the game."""
    import math

    from ..bots import block
    from ..bots.endgame import NodeLimit, Solver, applicable
    from ..bots.inference import PlayHistory
    from ..engine.options import resolve_options
    from ..engine.sampling import sample_hands

    opts = resolve_options(view["game"], view["players"], view["options"])
    plays = block._candidates(dict(view))
    legal = [str(a) for a in view["legal_actions"]]
    if not applicable(opts) or not plays or any("-" not in a for a in legal):
        return None
    params = {k: v for k, v in settings.params.items() if k in ("solve_tiles", "beliefs")}
    bot = block.DeepBot(seed=0, worlds=settings.worlds, match_bonus=0.0,
                        solve_tiles=int(params.get("solve_tiles", 16)))
    bot.rng = random.Random(view_seed(view, f"analysis:{settings.seed}"))
    seat = view["seat"]
    v = dict(view)
    history = PlayHistory(v, bot.beta, bot.double, bot.lapse, bot.partner_beta)
    candidates = list(plays)
    solving = sum(view["hand_sizes"]) <= bot.solve_tiles
    rows: list[list[float]] = []
    weights: list[float] = []
    for _ in range(settings.worlds):
        hands, boneyard = sample_hands(v, bot.rng)
        h = block._hand_from_view(v, opts, hands, boneyard, bot.scoring)
        row: list[float] | None = None
        if solving and not h.drawable():
            try:
                row = Solver(h, seat, 0.0).root(candidates)
            except NodeLimit:
                row = None
        if row is None:
            world_seed = bot.rng.randrange(2 ** 32)
            row = [bot._rollout_value(h, seat, t, end, world_seed, None)
                   for t, end in candidates]
        rows.append(row)
        weights.append(history.log_weight(hands, seat))
    top = max(weights)
    w = [math.exp(x - top) for x in weights]
    total = sum(w)
    by_play = {plays[c]: sum(wi * row[i] for wi, row in zip(w, rows)) / total
               for i, c in enumerate(candidates)}
    # with both ends showing the same number a tile's plays are one candidate
    out = {}
    for a in legal:
        act = parse_action(a)
        same = next((text for (t, _end), text in plays.items() if t == act.tile), a)
        out[a] = round(by_play.get(a, by_play.get(same, 0.0)), 6)
    return out


def value_actions(view: View, settings: Settings) -> dict[str, float]:
    """Each legal action's value (see the module docstring) from `view` alone."""
    if settings.game in ("block", "draw"):
        values = _block_values(view, settings)
        if values is not None:
            return values
    legal = [str(a) for a in view["legal_actions"]]
    candidates = [parse_action(a) for a in legal]
    bot = _evaluator(settings)
    bot.rng = random.Random(view_seed(view, f"analysis:{settings.seed}"))
    if settings.game != "mexican_train":
        bot.solving = _solving(view, bot)
    seat = view["seat"]
    totals = [0.0] * len(legal)
    v = dict(view)
    bot.prepare(v)
    for _ in range(settings.worlds):
        world = bot.sample(v)
        rng = random.Random(bot.rng.randrange(2 ** 32))
        row = bot.evaluate(world, candidates, seat, rng, None)
        for i, x in enumerate(row):
            totals[i] += x
    return {a: round(t / settings.worlds, 6) for a, t in zip(legal, totals)}


def hindsight_values(game: Game, settings: Settings) -> tuple[dict[str, float], bool]:
    """Each legal action's value in the real position (every hand known) and whether it
    was searched exactly."""
    seat = game.current_seat
    assert seat is not None
    view = game.view(seat)
    legal = [str(a) for a in view["legal_actions"]]
    candidates = [parse_action(a) for a in legal]
    params = dict(settings.params)
    if settings.game != "mexican_train":
        params.setdefault("max_nodes", HINDSIGHT_NODES)
    if settings.game in ("block", "draw"):
        solved = _block_hindsight(game, view)
        if solved is not None:
            return solved, True
    bot = _evaluator(Settings(settings.game, 1, params, settings.seed))
    rng = random.Random(view_seed(view, f"hindsight:{settings.seed}"))
    exact = False
    if settings.game != "mexican_train" and _solving(view, bot):
        bot.solving = True
        row = bot.evaluate(game.clone(), candidates, seat, rng, None)
        if bot.solved:
            return {a: round(x, 6) for a, x in zip(legal, row)}, True
    if settings.game != "mexican_train":
        bot.solving = False
    totals = [0.0] * len(legal)
    for _ in range(HINDSIGHT_ROLLOUTS):
        row = bot.evaluate(game.clone(), candidates, seat,
                           random.Random(rng.randrange(2 ** 32)), None)
        for i, x in enumerate(row):
            totals[i] += x
    return {a: round(t / HINDSIGHT_ROLLOUTS, 6) for a, t in zip(legal, totals)}, exact


def _block_hindsight(game: Game, view: View) -> dict[str, float] | None:
    """Block and Draw endings with every hand known: each action's exact value by
    `endgame.Solver` (at most 16 tiles in the hands, nobody can draw), else None."""
    from ..bots import block
    from ..bots.endgame import NodeLimit, Solver, applicable

    opts: Any = game.options
    plays = block._candidates(dict(view))
    legal = [str(a) for a in view["legal_actions"]]
    if not applicable(opts) or not plays or any("-" not in a for a in legal) \
            or sum(view["hand_sizes"]) > 16:
        return None
    st: Any = game.state
    h = block._hand_from_view(dict(view), opts, list(st.hands), list(st.boneyard))
    if h.drawable():
        return None
    candidates = list(plays)
    try:
        row = Solver(h, view["seat"], 0.0).root(candidates)
    except NodeLimit:
        return None
    by_play = {plays[c]: v for c, v in zip(candidates, row)}
    out = {}
    for a in legal:
        tile = parse_action(a).tile
        same = next((text for (t, _end), text in plays.items() if t == tile), a)
        out[a] = round(by_play.get(a, by_play.get(same, 0.0)), 6)
    return out


def mark(game: str, loss: float, best: bool) -> str:
    """The mark of a move that lost `loss` points (`best`: it has the highest value)."""
    if best:
        return "best"
    good, inaccuracy, mistake = THRESHOLDS[game]
    if loss < good:
        return "good"
    if loss < inaccuracy:
        return "inaccuracy"
    if loss < mistake:
        return "mistake"
    return "blunder"


@dataclass(frozen=True)
class Judgement:
    """A chosen action against the values of every legal action."""

    values: dict[str, float]
    best: str
    loss: float
    mark: str

    def as_dict(self) -> dict[str, Any]:
        ranked = sorted(self.values.items(), key=lambda kv: -kv[1])
        return {"values": dict(ranked), "best": self.best, "loss": self.loss,
                "mark": self.mark}


def judge(game: str, values: dict[str, float], chosen: str) -> Judgement:
    """The loss and mark of `chosen` among `values` (ties: the earliest legal action is
    named best, but every action with the top value is marked best)."""
    top = max(values.values())
    best = next(a for a, v in values.items() if v == top)
    loss = round(max(0.0, top - values[chosen]), 6)
    return Judgement(values, best, loss, mark(game, loss, values[chosen] == top))


@dataclass(frozen=True)
class Decision:
    """One decision of the record: action number `index` (0-based) by `seat`."""

    index: int
    seat: int
    round: int
    action: str
    fair: Judgement
    hindsight: Judgement | None = None
    exact: bool = False
    #: the replay viewer's step of the position the decision was made in
    step: int = 0

    def as_dict(self) -> dict[str, Any]:
        out = {"index": self.index, "step": self.step, "seat": self.seat,
               "round": self.round, "action": self.action, **self.fair.as_dict()}
        if self.hindsight is not None:
            out["hindsight"] = {**self.hindsight.as_dict(), "exact": self.exact}
        return out


@dataclass(frozen=True)
class PlayerSummary:
    seat: int
    decisions: int
    total_loss: float
    mean_loss: float
    accuracy: float
    marks: dict[str, int]

    def as_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": self.decisions,
                "total_loss": self.total_loss, "mean_loss": self.mean_loss,
                "accuracy": self.accuracy, "marks": dict(self.marks)}


@dataclass(frozen=True)
class Analysis:
    game: str
    players: int
    settings: Settings
    decisions: list[Decision]
    hindsight: bool

    def summary(self, hindsight: bool = False) -> list[PlayerSummary]:
        """Per seat that had decisions: losses, accuracy, marks (fair, or hindsight)."""
        out = []
        for seat in range(self.players):
            mine = [d.hindsight if hindsight else d.fair for d in self.decisions
                    if d.seat == seat]
            judged = [j for j in mine if j is not None]
            if not judged:
                continue
            total = round(sum(j.loss for j in judged), 6)
            marks = {m: sum(j.mark == m for j in judged) for m in MARKS}
            accurate = marks["best"] + marks["good"]
            out.append(PlayerSummary(seat, len(judged), total, round(total / len(judged), 6),
                                     round(100.0 * accurate / len(judged), 1), marks))
        return out

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": "dominohall-analysis", "version": 1, "game": self.game,
            "players": self.players, "settings": self.settings.as_dict(),
            "thresholds": dict(zip(("good", "inaccuracy", "mistake"),
                                   THRESHOLDS[self.game])),
            "decisions": [d.as_dict() for d in self.decisions],
            "players_summary": [p.as_dict() for p in self.summary()],
        }
        if self.hindsight:
            out["players_summary_hindsight"] = [p.as_dict() for p in self.summary(True)]
        return out


def _start(record: Mapping[str, Any]) -> tuple[Game, list[Any]]:
    """The record's game before its first action, and its actions (BadRecord if either
    is not a dominohall record's)."""
    if not isinstance(record, Mapping):
        raise BadRecord("not a dominohall game record", "not_a_record")
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise BadRecord(f"the record's actions {actions!r} are not a list", "record_actions",
                        {"actions": repr(actions)})
    return replay({**record, "actions": []}), actions


def _walk(record: Mapping[str, Any]) -> list[tuple[int, Game, str]]:
    """(index, game before it, action) for every action of the record that had a choice;
    the whole record is checked first (BadRecord on an illegal action)."""
    game, actions = _start(record)
    replay(record)                                # every action legal, or BadRecord
    out = []
    for k, text in enumerate(actions):
        if isinstance(text, str) and text.startswith("top "):
            game.put_on_top(text[4:])
            continue
        if len(game.legal_actions()) > 1:
            out.append((k, game.clone(), str(text)))
        game.apply(text)
    return out


def _step(record: Mapping[str, Any], index: int) -> int:
    """The replay viewer's step of the position before action `index` (the moves before
    it; a stacked boneyard's ``top`` entries are not moves)."""
    return sum(1 for a in record["actions"][:index]
               if not (isinstance(a, str) and a.startswith("top ")))


def decisions_of(record: Mapping[str, Any], seat: int | None = None
                 ) -> list[tuple[int, int, int, dict[str, Any], str]]:
    """(index, mover, round, the mover's view, chosen action) for every decision of
    `record` (of `seat` only, if given): everything the fair analysis of each needs,
    and nothing else (a server can hand each to a worker)."""
    game, _actions = _start(record)
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < game.players):
        raise ValueError(f"seat must be 0..{game.players - 1}, not {seat!r}")
    out = []
    for k, g, action in _walk(record):
        mover = g.current_seat
        assert mover is not None
        if seat is None or mover == seat:
            out.append((k, mover, g.round, g.view(mover), action))
    return out


def assemble(record: Mapping[str, Any], settings: Settings,
             decisions: list[tuple[int, int, int, dict[str, Any], str]],
             values: list[dict[str, float]]) -> Analysis:
    """The fair analysis from `decisions_of(record)` and each one's `value_actions`."""
    game, _actions = _start(record)
    out = [Decision(k, mover, rnd, action, judge(game.name, vals, action),
                    step=_step(record, k))
           for (k, mover, rnd, _view, action), vals in zip(decisions, values)]
    return Analysis(game.name, game.players, settings, out, False)


def analyse(record: Mapping[str, Any], seat: int | None = None,
            settings: Settings | None = None, hindsight: bool = False,
            progress: Progress | None = None) -> Analysis:
    """Every decision of `record` (of `seat` only, if given) weighed (module docstring).
    `progress(done, total)` is called after each decision."""
    game, _actions = _start(record)
    settings = settings or settings_for(game.name)
    if settings.game != game.name:
        raise ValueError(f"settings for {settings.game}, record of {game.name}")
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < game.players):
        raise ValueError(f"seat must be 0..{game.players - 1}, not {seat!r}")
    todo = [(k, g, a) for k, g, a in _walk(record) if seat is None or g.current_seat == seat]
    decisions = []
    for done, (k, g, action) in enumerate(todo, 1):
        mover = g.current_seat
        assert mover is not None
        view = g.view(mover)
        fair = judge(g.name, value_actions(view, settings), action)
        hind, exact = None, False
        if hindsight:
            values, exact = hindsight_values(g, settings)
            hind = judge(g.name, values, action)
        decisions.append(Decision(k, mover, g.round, action, fair, hind, exact,
                                  _step(record, k)))
        if progress is not None:
            progress(done, len(todo))
    return Analysis(game.name, game.players, settings, decisions, hindsight)


__all__ = ["MARKS", "THRESHOLDS", "WORLDS", "Analysis", "Decision", "Judgement",
           "PlayerSummary", "Settings", "analyse", "assemble", "decisions_of",
           "hindsight_values", "judge", "mark", "settings_for", "value_actions"]
