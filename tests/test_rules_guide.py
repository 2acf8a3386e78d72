"""The players' rules guide (issue 11): dominohall.guide.rules_markdown(), docs/how-to-play.md.

Its option tables are generated from the engine's option definitions, so the guide,
``dominohall options`` and the lobby's form cannot contradict each other; these tests
fail when the committed guide is stale or docs/how-to-play.md differs from it.
"""

from __future__ import annotations

import dataclasses
import pathlib

import pytest

import dominohall
from dominohall.engine import options as engine_options
from dominohall.guide import generate, rules_markdown
from dominohall.guide.__main__ import main as guide_main

ROOT = pathlib.Path(__file__).resolve().parents[1]
GUIDE = rules_markdown("en")


def test_the_committed_guide_is_current_and_docs_is_the_same_text():
    assert generate.regenerate(GUIDE) == GUIDE, "run python -m dominohall.guide --write"
    assert (ROOT / "docs" / "how-to-play.md").read_text(encoding="utf-8") == GUIDE
    assert guide_main(["--check"]) == 0


def test_the_check_fails_when_an_option_changes(monkeypatch, capsys):
    specs = list(engine_options.MEXICAN_TRAIN_SPECS)
    specs[0] = dataclasses.replace(specs[0], label="Which set")
    monkeypatch.setattr(generate, "MEXICAN_TRAIN_SPECS", tuple(specs))
    assert generate.regenerate(GUIDE) != GUIDE
    assert guide_main(["--check"]) == 1
    assert "out of date" in capsys.readouterr().err


def test_unknown_or_missing_generated_blocks_are_errors():
    with pytest.raises(KeyError, match="unknown"):
        generate.regenerate(GUIDE + "<!-- begin generated: nope -->\n<!-- end generated: nope -->")
    with pytest.raises(KeyError, match="lacks"):
        generate.regenerate("# How to play\n")


def test_each_game_has_its_section_and_the_argued_rules_have_examples():
    for heading in ("## Mexican Train", "## All Fives", "## Draw and Block", "## House options"):
        assert heading in GUIDE
    examples = GUIDE.count("### Worked examples")
    assert examples == 2
    for topic in ("An owed double", "Markers", "The first-turn chain", "A blocked round",
                  "The spinner and the count", "Rounding a domino", "A blocked hand"):
        assert f"**{topic}" in GUIDE, topic
    assert "being written" not in GUIDE


@pytest.mark.parametrize("game", dominohall.GAMES)
def test_every_option_and_preset_is_in_the_guide_as_dominohall_options_says(game):
    """The guide carries each option's name, label and help text verbatim (the same
    sentences `dominohall options` prints), and every preset with its label."""
    for spec in dominohall.specs_for(game):
        if spec.name == "game":
            continue
        rows = [ln for ln in GUIDE.splitlines() if f"| `{spec.name}` |" in ln
                and ln.startswith(f"| {spec.label} |")]
        assert any(ln.endswith(f"| {spec.help.replace('|', chr(92) + '|')} |") for ln in rows), \
            spec.name
    for name, about in engine_options.PRESET_LABELS[game].items():
        if game == "mexican_train":
            assert f"| {about['label']} | `{name}` | {about['description']} |" in GUIDE


def test_the_guide_tells_the_deal_table_of_the_engine():
    row = next(ln for ln in GUIDE.splitlines() if ln.startswith("| Tiles each (`table`"))
    assert row.split("|")[2:-1] == [f" {engine_options.HAND_SIZE_TABLE[n]} "
                                    for n in range(2, 11)]


def test_the_guide_states_the_clarified_rules():
    """RULES A10/B5/B6: the guide says what the engine now does."""
    assert "A lap of passes is not enough to\nblock a round" in GUIDE
    assert "A lap of passes while tiles can still\n  be drawn is not a block" in GUIDE
    assert "you may pass only when you\n  can neither play nor draw" in GUIDE


def test_the_readme_points_at_the_guide():
    readme = (ROOT / "README.md").read_text()
    assert "shared/RULES.md" not in readme
    assert "](docs/how-to-play.md)" in readme and "](docs/rules.md)" in readme


def test_the_guide_renders_its_tables_as_tables():
    """Rendered as Markdown (markdown-it, which the terminal game's Textual uses), every
    generated block is a real table with one cell per column in every row."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse(GUIDE)
    widths: list[set[int]] = []
    cells = 0
    for t in tokens:
        if t.type == "table_open":
            widths.append(set())
        elif t.type == "tr_open":
            cells = 0
        elif t.type in ("th_open", "td_open"):
            cells += 1
        elif t.type == "tr_close":
            widths[-1].add(cells)
    assert len(widths) == len(generate.BLOCKS)
    assert all(len(w) == 1 and min(w) >= 4 for w in widths), widths
    html = MarkdownIt("commonmark").enable("table").render(GUIDE)
    assert "<td><code>hand_size</code></td>" in html and "&lt;!--" not in html
