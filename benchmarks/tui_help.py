"""How long the terminal's help (h) takes to show the rules guide, per language and size.

Starts a Mexican Train table headless, waits a second (a player looks at the table before
pressing h), presses h and times until the help's body fills the screen.  Issue 21 measured
4-15 s on a loaded machine with Textual's MarkdownViewer.  Run with ``nice -n 10``:
``python benchmarks/tui_help.py [LANG ...]``.
"""

from __future__ import annotations

import asyncio
import sys
import time

from dominohall.i18n import LANGUAGES, set_language
from dominohall.tui.app import HelpScreen, PlayApp
from dominohall.tui.session import Session


def text(app: PlayApp) -> str:
    return "\n".join(s.text for s in app.screen._compositor.render_strips())


async def once(lang: str, size: tuple[int, int]) -> float:
    set_language(lang)
    session = Session.new("mexican_train", 4, 3, {}, ["greedy"], autosave=False)
    app = PlayApp(session, speed=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await asyncio.sleep(1.0)
        await pilot.pause()
        start = time.perf_counter()
        await pilot.press("h")
        while time.perf_counter() - start < 60:
            await pilot.pause(0.005)
            if isinstance(app.screen, HelpScreen):
                body = [line for line in text(app).splitlines() if line.strip(" ▊▎█▌▐━┃│▀▄")]
                if len(body) > size[1] // 2:
                    break
        return time.perf_counter() - start


def main(langs: list[str]) -> None:
    for size in [(80, 24), (150, 45)]:
        for lang in langs:
            print(f"{size[0]}x{size[1]} {lang}: {asyncio.run(once(lang, size)):.2f} s",
                  flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or list(LANGUAGES))
