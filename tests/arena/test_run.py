"""The arena's runs: duplicate deals, jobs, resume, interruption, files."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest

import dominohall
from dominohall import arena
from dominohall.arena import match
from dominohall.arena.seeds import bot_seed, deal_seed

MT1 = {"rounds": 1}            # 1-round Mexican Train: ~10 ms a game
FOUR = ["greedy", "random", "random", "doubles"]


def without_timing(games):
    return [{k: v for k, v in g.items() if not k.startswith("ms")} for g in games]


def stats_without_timing(st):
    st = json.loads(json.dumps(st))
    for row in st["bots"].values():
        row.pop("ms_mean")
        row.pop("ms_max")
    return st


def test_duplicate_deals_give_every_rotation_the_same_tiles(monkeypatch):
    """Each seat's hand at its first turn of each round is the same in every rotation,
    whichever bot sits there; and each bot sits in every seat."""
    seen = defaultdict(dict)              # (deal seed of the seat, round) -> {bot: hand}
    real = match.make_bot

    class Recorder:
        def __init__(self, entry, seed, game):
            self.bot, self.entry, self.seed = real(entry, seed, game), entry, seed
            self.rounds = set()

        def act(self, view):
            if view["round"] not in self.rounds:
                self.rounds.add(view["round"])
                seen[self.seed, view["round"]][self.entry] = sorted(view["hand"])
            return self.bot.act(view)

    monkeypatch.setattr(match, "make_bot", Recorder)
    deals, players = 3, 4
    r = arena.run("mexican_train", players, ["greedy", "random", "doubles", "planner"],
                  deals=deals, seed=11,
                  options={"rounds": 2})
    assert r.complete and len(r.games) == deals * players
    for deal in range(deals):
        fresh = dominohall.new_game("mexican_train", players=players,
                                    seed=deal_seed(11, deal), options={"rounds": 2})
        for seat in range(players):
            for rnd in (1, 2):
                hands = seen[bot_seed(11, deal, seat), rnd]
                assert len(hands) == 4, "every bot sat in this seat"
                first = next(iter(hands.values()))
                assert all(h == first for h in hands.values()), (deal, seat, rnd)
            assert seen[bot_seed(11, deal, seat), 1]["greedy"] == sorted(fresh.view(seat)["hand"])
    lineups = {tuple(g["lineup"]) for g in r.games}
    assert lineups == {(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)}


def test_same_results_whatever_jobs():
    one = arena.run("mexican_train", 4, FOUR, deals=3, seed=5, options=MT1, jobs=1)
    two = arena.run("mexican_train", 4, FOUR, deals=3, seed=5, options=MT1, jobs=2)
    assert [(g["deal"], g["rotation"]) for g in two.games] == \
        [(d, r) for d in range(3) for r in range(4)]
    assert without_timing(one.games) == without_timing(two.games)
    assert stats_without_timing(one.stats) == stats_without_timing(two.stats)
    other_seed = arena.run("mexican_train", 4, FOUR, deals=3, seed=6, options=MT1)
    assert without_timing(other_seed.games) != without_timing(one.games)


class StopAfter:
    """A progress callback that presses Ctrl-C once `n` games are done."""

    def __init__(self, n):
        self.n = n

    def __call__(self, done, total):
        if done >= self.n:
            raise KeyboardInterrupt


@pytest.mark.parametrize("jobs", [1, 2])
def test_interrupt_then_resume_matches_an_uninterrupted_run(tmp_path, jobs):
    out = tmp_path / "results.json"
    kw = dict(players=4, bots=FOUR, deals=4, seed=3, options=MT1)
    stopped = arena.run("mexican_train", jobs=jobs, progress=StopAfter(5), out=out, **kw)
    assert stopped.interrupted and not stopped.complete
    assert 5 <= len(stopped.games) < 16
    saved = json.loads(out.read_text())
    assert saved["interrupted"] and not saved["complete"]
    assert saved["finished_games"] == len(stopped.games) and "stats" in saved

    calls = []
    resumed = arena.run("mexican_train", resume=out, out=out,
                        progress=lambda done, total: calls.append((done, total)), **kw)
    assert resumed.complete and not resumed.interrupted
    assert calls[0][0] > len(stopped.games) and calls[-1] == (16, 16)
    straight = arena.run("mexican_train", **kw)
    assert without_timing(resumed.games) == without_timing(straight.games)
    assert stats_without_timing(resumed.stats) == stats_without_timing(straight.stats)
    again = arena.load(out)                          # the stats recompute from the JSON
    assert again.complete and stats_without_timing(again.stats) == \
        stats_without_timing(resumed.stats)
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]   # no temp files left


def test_resume_may_add_deals_but_not_change_settings(tmp_path):
    out = tmp_path / "r.json"
    arena.run("mexican_train", 4, "random", deals=1, seed=2, options=MT1, out=out)
    more = arena.run("mexican_train", 4, "random", deals=2, seed=2, options=MT1, resume=out)
    assert more.complete and len(more.games) == 8
    with pytest.raises(arena.ArenaError, match="different seed"):
        arena.run("mexican_train", 4, "random", deals=2, seed=3, options=MT1, resume=out)
    with pytest.raises(arena.ArenaError, match="double_blank=0 there, 50 here"):
        arena.run("mexican_train", 4, "random", deals=2, seed=2, resume=out,
                  options={"rounds": 1, "double_blank": 50})
    with pytest.raises(arena.ArenaError, match="different bots"):
        arena.run("mexican_train", 4, "greedy", deals=2, seed=2, options=MT1, resume=out)
    with pytest.raises(arena.ArenaError, match="deals may only grow"):
        arena.run("mexican_train", 4, "random", deals=1, seed=2, options=MT1, resume=more)
    (tmp_path / "junk.json").write_text("{}")
    with pytest.raises(arena.ArenaError, match="not an arena results file"):
        arena.load(tmp_path / "junk.json")


def test_line_game_points_and_files(tmp_path):
    r = arena.run("block", 2, ["scorer", "random"], deals=3, seed=1,
                  options={"target": 100}, out=tmp_path / "b.json")
    assert not r.lower_is_better and r.settings["score"] == "points"
    assert all(max(g["scores"]) >= 100 for g in r.games)       # whole matches, to the target
    csv_lines = arena.csv_text(r).splitlines()
    assert csv_lines[0].startswith("bot,copies,games,win_share,mean_score,rating")
    assert [line.split(",")[0] for line in csv_lines[1:]] == ["scorer", "random"]
    positive = arena.run("mexican_train", 4, "random", deals=1, seed=1,
                         options={"rounds": 1, "scoring": "positive"})
    assert not positive.lower_is_better


def test_bad_settings_are_clear_errors():
    with pytest.raises(arena.ArenaError, match="unknown bot 'nope' for mexican_train"):
        arena.run("mexican_train", 4, "nope", deals=1, seed=1)
    with pytest.raises(arena.ArenaError, match="names 3 bots for 4 players"):
        arena.run("mexican_train", 4, "random,greedy,random", deals=1, seed=1)
    with pytest.raises(dominohall.BadOption, match="double_blank"):
        arena.run("mexican_train", 4, "random", deals=1, seed=1, options={"double_blank": 7})
    with pytest.raises(arena.ArenaError, match="jobs"):
        arena.run("mexican_train", 4, "random", deals=1, seed=1, jobs=0)
    with pytest.raises(arena.ArenaError, match="budget"):
        arena.run("mexican_train", 4, "pimc:budget=5", deals=1, seed=1)


def test_an_illegal_move_names_the_bot(monkeypatch):
    class Cheat:
        def __init__(self, entry, seed, game):
            pass

        def act(self, view):
            return "draw" if "draw" not in view["legal_actions"] else "pass"

    monkeypatch.setattr(match, "make_bot", Cheat)
    # whoever moves first in this deal: the seat is named, whichever it is
    with pytest.raises(arena.ArenaError,
                       match=r"bot 'random' in seat \d \(deal 0, rotation 0\) returned"):
        arena.play_game({"game": "mexican_train", "players": 4, "bots": ["random"] * 4,
                         "seed": 1, "options": MT1}, 0, 0)


def test_a_crashing_bot_is_named(monkeypatch):
    class Broken:
        def __init__(self, entry, seed, game):
            pass

        def act(self, view):
            raise KeyError("oops")

    monkeypatch.setattr(match, "make_bot", Broken)
    with pytest.raises(arena.ArenaError, match=r"seat \d \(deal 0, rotation 0, round 1\) "
                                               r"crashed: KeyError"):
        arena.play_game({"game": "block", "players": 2, "bots": ["random"] * 2,
                         "seed": 1, "options": {}}, 0, 0)
