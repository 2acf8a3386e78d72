"""The table page's handling of server messages (js/table_state.js), a pure function run
under Node: fed the messages a real server sent each seat and a spectator over a whole
match, it ends with the server's own view and log; its effects say what the page does."""

from __future__ import annotations

import json
import random

import pytest

from dominohall.engine.views import events

from .conftest import in_process_app
from .helpers import create, hub, recv


@pytest.fixture()
def client(tmp_path):
    with in_process_app(tmp_path) as c:
        yield c


REDUCE_ALL = """
let s = TS.initialState();
const out = [];
data.messages.forEach((m, i) => {
  const r = TS.reduce(s, m, 1000 * i);
  s = r.state;
  out.push(r.effects.map((fx) => fx.type === "event" ? "event:" + fx.event.type
    : fx.type === "round_end" ? "round_end:" + fx.event.round + (fx.gameEnd ? ":over" : "")
    : fx.type));
});
return { effects: out, view: s.view, log: s.log, table: s.table, pending: s.pending };
"""


def play_match(client, rng: random.Random) -> tuple[dict, dict]:
    """Two humans and a spectator play a two-round match; every message each received."""
    t = create(client, options={"set_max": 6, "hand_size": 7, "rounds": 2})
    tid, tokens = t["id"], [s["token"] for s in t["seats"]]
    room = hub(client).tables[tid]
    got: dict = {0: [], 1: [], None: []}
    with client.websocket_connect(f"/ws/{tid}?token={tokens[0]}") as w0, \
            client.websocket_connect(f"/ws/{tid}?token={tokens[1]}") as w1, \
            client.websocket_connect(f"/ws/{tid}") as spec:
        socks = {0: w0, 1: w1, None: spec}
        for s, w in socks.items():
            got[s].append(recv(w))
        while not room.game.is_over:
            seat = room.game.current_seat
            v = got[seat][-1]["view"]
            socks[seat].send_text(json.dumps({"type": "action", "version": v["version"],
                                              "action": rng.choice(v["legal_actions"])}))
            for s, w in socks.items():
                got[s].append(recv(w))
    return got, room


def test_reduced_messages_end_with_the_servers_view_and_log(client, node):
    got, room = play_match(client, random.Random(5))
    game = room.game
    for seat, messages in got.items():
        r = node(REDUCE_ALL, {"messages": messages})
        want = game.view(seat)
        log = want.pop("log")
        assert r["view"] == json.loads(json.dumps(want))
        assert r["log"] == json.loads(json.dumps(events(game, seat, 0))) == \
            json.loads(json.dumps(log))
        assert r["pending"] is False and r["table"]["status"] == "over"
        flat = [fx for step in r["effects"] for fx in step]
        # the first message draws the page and announces nothing already in the log
        assert r["effects"][0] == ["render"]
        # each round's end is shown once, the last one with the match over
        ends = [fx for fx in flat if fx.startswith("round_end:")]
        assert ends == ["round_end:1", "round_end:2:over"], ends
        # every later event is announced once, in order
        announced = [fx[len("event:"):] for fx in flat if fx.startswith("event:")]
        first = len(messages[0]["events"])
        assert announced == [e["type"] for e in log[first:]]


def test_a_page_opened_after_the_match_shows_its_end(client, node):
    got, _room = play_match(client, random.Random(2))
    last = got[0][-1]
    r = node(REDUCE_ALL, {"messages": [{**last, "log_start": 0,
                                        "events": last["events"]}]})
    assert r["effects"][0][0] == "render"
    assert r["effects"][0][-1] == "round_end:2:over"


BASE_VIEW = {"game": "all_fives", "seat": 0, "version": 3, "hand": ["6-6", "5-4"],
             "legal_actions": ["6-6", "5-4"], "is_over": False}
BASE_TABLE = {"status": "playing", "pause": 0, "notices": [], "turn": None, "seats": []}


def state(version=3, hand=("6-6", "5-4"), legal=("6-6", "5-4"), events=(), start=0, **tb):
    return {"type": "state", "view": {**BASE_VIEW, "version": version, "hand": list(hand),
                                      "legal_actions": list(legal)},
            "log_start": start, "events": list(events), "table": {**BASE_TABLE, **tb}}


def test_effects_of_hand_made_messages(node):
    script = """
    let s = TS.initialState();
    const steps = [];
    for (const [m, before] of data) {
      if (before === "select") s = { ...s, selected: "6-6" };
      if (before === "send") s = TS.sent(s);
      const r = TS.reduce(s, m, 5000);
      s = r.state;
      steps.push({ fx: r.effects.map((f) => f.type === "notice" ? "notice:" + f.notice.seat
        : f.type === "again" ? "again:" + f.next : f.type),
        selected: s.selected, pending: s.pending, hint: s.hint, hintAsked: s.hintAsked,
        log: s.log.map((e) => e.n), pauseDeadline: s.pauseDeadline, turnDeadline: s.turnDeadline });
    }
    return steps;
    """
    ev = [{"type": "pass", "seat": 1, "n": i} for i in range(4)]
    messages = [
        [state(events=ev[:2]), None],                                   # 0: first
        [state(version=4, events=ev[2:3], start=2, pause=10), "send"],  # 1: a pause starts
        [{"type": "table", "table": {**BASE_TABLE, "notices": [{"type": "reinvited", "seat": 1}],
                                     "turn": {"seat": 0, "left": 7}}}, None],   # 2
        [{"type": "table", "table": {**BASE_TABLE, "notices": [{"type": "reinvited", "seat": 1},
                                                               {"type": "reinvited", "seat": 2}],
                                     "next_table": "abc"}}, None],     # 3
        [{"type": "hint", "version": 3, "action": "6-6", "why": "old"}, None],      # 4 stale
        [{"type": "hint", "version": 4, "action": "5-4>L", "why": "w"}, None],      # 5
        [state(version=5, hand=["6-6"], legal=[], events=ev[3:], start=3), "select"],  # 6
        [{"type": "error", "code": "stale", "reason": "stale_action", "params": {}}, "send"],
        [{"type": "pong"}, None],
    ]
    steps = node(script, messages)
    assert steps[0]["fx"] == ["render"] and steps[0]["log"] == [0, 1]
    # a later state joins its events at log_start, announces them, clears pending
    assert steps[1]["fx"] == ["render", "event"] and steps[1]["log"] == [0, 1, 2]
    assert steps[1]["pending"] is False and steps[1]["pauseDeadline"] == 5000 + 10_000
    # the pause ends: its summary closes; a new notice is told once; the turn clock is set
    assert steps[2]["fx"] == ["notice:1", "pause_over", "render"]
    assert steps[2]["turnDeadline"] == 5000 + 7000
    assert steps[3]["fx"] == ["notice:2", "again:abc", "render"]
    # a hint for an older version is dropped; a current one picks its tile
    assert steps[4]["hint"] is None and steps[4]["fx"] == ["render"]
    assert steps[5]["hint"] == {"action": "5-4>L", "why": "w"} and steps[5]["selected"] == "5-4"
    assert steps[5]["fx"] == ["hint", "render"]
    # a new version drops the hint; a tile no longer in the hand (or no turn) is unselected
    assert steps[6]["hint"] is None and steps[6]["selected"] is None
    assert steps[6]["log"] == [0, 1, 2, 3]
    # an error ends the wait and is said; an unknown message changes nothing
    assert steps[7]["fx"] == ["error", "render"] and steps[7]["pending"] is False
    assert steps[8]["fx"] == [] and steps[8]["log"] == [0, 1, 2, 3]
