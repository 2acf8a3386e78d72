"""A full disk (issue 25): the bots' moves cannot be stored. They back off (1, 2, 4... s)
and the log gets one traceback, not one a move; when the disk has room again the match
goes on from where it was, nothing applied that was not stored."""

from __future__ import annotations

import logging
import time

from .conftest import in_process_app
from .helpers import create, hub, recv

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


def test_bots_back_off_and_log_once_while_the_disk_is_full(tmp_path, caplog):
    with in_process_app(tmp_path) as client:
        store = hub(client).store
        real = store.append_action
        full = {"on": True, "calls": 0}

        def append_action(*args, **kw):
            if full["on"]:
                full["calls"] += 1
                raise OSError(28, "No space left on device")
            return real(*args, **kw)

        store.append_action = append_action
        t = create(client, game="block", seats=BOTS, options={"hands": 1})
        caplog.set_level(logging.DEBUG, logger="dominohall")
        with client.websocket_connect(f"/ws/{t['id']}") as watcher:   # a spectator
            first = recv(watcher)["view"]["version"]
            time.sleep(3.5)
            room = hub(client).tables[t["id"]]
            assert room.version == first                    # nothing applied unsaved
            assert 2 <= full["calls"] <= 4, full            # tries at 0, 1, 3 s: no flood
            loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
            assert sum(1 for r in loud if r.exc_info) == 1, [r.getMessage() for r in loud]
            assert len(loud) <= 3, [r.getMessage() for r in loud]   # store, table, bot
            full["on"] = False                              # room on the disk again
            end = time.monotonic() + 10
            while time.monotonic() < end and room.version == first:
                time.sleep(0.05)
            assert room.version > first, "the bots did not carry on"
            assert any("works again" in r.getMessage() for r in caplog.records)
