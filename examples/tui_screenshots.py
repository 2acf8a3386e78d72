"""Redraw the terminal screenshots in docs/ (README's "Play in the terminal") from a seeded
game, so they show what the terminal shows today:

    python examples/tui_screenshots.py          # writes docs/tui-*.svg

A Mexican Train mid-round at 80×24 and at 150×45, and the round-end summary at 80×24."""

from __future__ import annotations

import asyncio
import pathlib

from dominohall.tui.app import NoticeScreen, PlayApp
from dominohall.tui.session import Session

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs"
KEYS = {"draw": "d", "pass": "p", "end": "e"}


def session() -> Session:
    return Session.new("mexican_train", 4, 7, {"set_max": 12, "rounds": 2}, ["greedy"],
                       autosave=False)


async def mid_round(size: tuple[int, int], moves: int, out: str) -> None:
    s = session()
    app = PlayApp(s, speed=0)
    async with app.run_test(size=size) as pilot:
        done = 0
        while done < moves:
            await pilot.pause()
            if s.human_to_play:
                action = str(s.view()["legal_actions"][0])
                await pilot.press(KEYS.get(action, "enter"))
                done += 1
        for _ in range(20):
            await pilot.pause()
            if s.human_to_play:
                break
        await pilot.pause(0.3)
        app.save_screenshot(str(DOCS / out))


async def round_end(out: str) -> None:
    s = Session.new("mexican_train", 4, 5, {"set_max": 6, "rounds": 2, "hand_size": 5},
                    ["greedy"], autosave=False)
    app = PlayApp(s, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(300):
            await pilot.pause()
            if isinstance(app.screen, NoticeScreen):
                break
            if s.human_to_play:
                action = str(s.view()["legal_actions"][0])
                await pilot.press(KEYS.get(action, "enter"))
        await pilot.pause(0.3)
        app.save_screenshot(str(DOCS / out))


def main() -> None:
    asyncio.run(mid_round((80, 24), 3, "tui-80x24.svg"))
    asyncio.run(mid_round((150, 45), 3, "tui-mexican-train.svg"))
    asyncio.run(round_end("tui-round-end.svg"))
    print("wrote", ", ".join(f"docs/{n}" for n in ("tui-80x24.svg", "tui-mexican-train.svg",
                                                    "tui-round-end.svg")))


if __name__ == "__main__":
    main()
