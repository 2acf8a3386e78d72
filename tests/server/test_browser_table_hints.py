"""The table's Hint, server side (dominohall.server.hints), without a browser: who may ask,
the table setting and its default, and that the answer is the terminal game's hint."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from types import SimpleNamespace

import pytest

from dominohall.engine import new_game
from dominohall.server import hints
from dominohall.server.protocol import Rejected
from dominohall.server.tables import Connection, Seat, TableSettings
from dominohall.tui.hint import strongest_bot, why

HUMAN, BOT = Seat("human"), Seat("bot")


def test_the_default_is_on_for_one_human_and_off_for_more():
    assert hints.table_setting(None, [HUMAN, BOT, BOT]) is True
    assert hints.table_setting(None, [BOT, BOT]) is True
    assert hints.table_setting(None, [HUMAN, HUMAN, BOT]) is False
    assert hints.table_setting(True, [HUMAN, HUMAN]) is True
    assert hints.table_setting(False, [HUMAN]) is False
    for bad in ("yes", 1, 0, [], {}):
        with pytest.raises(Rejected) as err:
            hints.table_setting(bad, [HUMAN])
        assert err.value.status == 422
    # a table stored before the setting existed gets the default for its seats
    assert hints.allowed(SimpleNamespace(settings=TableSettings(), seats=[HUMAN, HUMAN])) is False
    assert hints.allowed(SimpleNamespace(settings=TableSettings(), seats=[HUMAN, BOT])) is True


def room_for(game, seats, allowed: bool | None = True):
    pool = concurrent.futures.ThreadPoolExecutor(1)
    return SimpleNamespace(id="t", game=game, seats=seats, settings=TableSettings(hints=allowed),
                           version=len(game.actions), hub=SimpleNamespace(bot_pool=pool))


def test_only_the_seat_to_play_gets_a_hint_and_it_is_the_terminal_games():
    game = new_game("all_fives", players=2, seed=11)
    seat = game.current_seat
    room = room_for(game, [HUMAN, BOT])

    async def ask(conn):
        hints.request(room, conn)
        return json.loads(await asyncio.wait_for(conn.queue.get(), 30))

    async def scenario():
        codes = []
        for conn, allowed in ((Connection(None), True), (Connection(1 - seat), True),
                              (Connection(seat), False)):
            room.settings.hints = allowed
            try:
                hints.request(room, conn)
            except Rejected as err:
                codes.append(err.code)
        room.settings.hints = True
        mine = Connection(seat)
        first = await ask(mine)
        again = await ask(mine)                   # the same position: answered from the cache
        return codes, first, again

    codes, first, again = asyncio.run(scenario())
    assert codes == ["spectator", "not_your_turn", "hints_off"]
    assert first["type"] == "hint" and first["version"] == len(game.actions)
    assert first["action"] in game.legal_actions()
    # the terminal game's reason for that move (the bot's search is timed, so the move
    # itself may differ from one run to the next; its reason may not)
    reason = why(first["action"], game.view(seat))
    assert first["why"] == reason             # in words, no bot name in front (issue 21)
    assert not first["why"].startswith(f"{strongest_bot(game.name)}:")
    assert again == first
    room.hub.bot_pool.shutdown()


def test_one_hint_at_a_time_per_connection():
    game = new_game("mexican_train", players=3, seed=5)
    room = room_for(game, [HUMAN, BOT, BOT])
    conn = Connection(game.current_seat)

    async def scenario():
        hints.request(room, conn)
        with pytest.raises(Rejected) as err:
            hints.request(room, conn)             # the first is still being worked out
        reply = json.loads(await asyncio.wait_for(conn.queue.get(), 30))
        return err.value.code, reply

    code, reply = asyncio.run(scenario())
    assert code == "busy"
    assert reply["action"] in game.legal_actions()
    room.hub.bot_pool.shutdown()
