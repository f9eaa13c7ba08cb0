"""A level's style changed field by field (``bidak bench bots --against gnubg --style``), and a
recorded style read back: how an engine setting other than a level's own is dueled."""

from __future__ import annotations

import pytest

from bidak.engine.levels import STYLES, BadStyle, Level, Style, restyle, style_from_repr

PLIES = ("1ply", "2ply", "3ply")


def test_overrides_change_only_the_fields_named_with_their_types() -> None:
    expert = STYLES[Level.EXPERT]
    changed = restyle(expert, " close=0.02 , max_plays=40,deeper=3ply", PLIES)
    assert changed.close == 0.02 and isinstance(changed.close, float)
    assert changed.max_plays == 40 and isinstance(changed.max_plays, int)
    assert changed.ply == expert.ply and changed.cap == expert.cap
    assert restyle(expert, "max_plays=none,deeper=None", PLIES).deeper is None
    assert restyle(expert, "", PLIES) == expert
    always = restyle(expert, "ply=3ply", PLIES)
    assert always.ply == "3ply" and always.depth.startswith("3ply")
    assert expert.races and not restyle(expert, "races=False", PLIES).races
    assert restyle(STYLES[Level.NORMAL], "races=true", PLIES).races is True


EXPERT_BEFORE_RACES = (
    "Style(ply='2ply', cap=0.0, temperature=0.0, noise=0.0, hit_bias=0.0, shot_bias=0.0, "
    "double_bias=0.0, take_bias=0.0, cube_noise=0.0, deeper='3ply', close=0.005, max_plays=50)"
)
"""The Expert as the duels' files written before ``races`` existed record it."""


def test_a_style_recorded_before_the_race_look_reads_back_without_it() -> None:
    before = style_from_repr(EXPERT_BEFORE_RACES)
    assert before == restyle(STYLES[Level.EXPERT], "races=false", PLIES)
    assert before != STYLES[Level.EXPERT]


@pytest.mark.parametrize(
    ("overrides", "says"),
    [
        ("depth=3ply", "unknown style field 'depth'"),
        ("close", "field=value"),
        ("close=", "field=value"),
        ("close=much", "close must be a number"),
        ("max_plays=4.5", "max_plays must be a number"),
        ("noise=-0.1", "noise must be 0 or more"),
        ("close=nan", "close must be 0 or more"),
        ("deeper=4ply", "deeper must be one of 1ply, 2ply, 3ply"),
        ("ply=none", "ply must be one of"),
        ("cap=none", "cap must be a number"),
        ("races=maybe", "races must be true or false"),
        ("races=1", "races must be true or false"),
    ],
)
def test_bad_overrides_are_refused_with_what_is_wrong(overrides: str, says: str) -> None:
    with pytest.raises(BadStyle, match=says):
        restyle(STYLES[Level.EXPERT], overrides, PLIES)


def test_a_recorded_style_reads_back_as_the_same_style() -> None:
    for style in [*STYLES.values(), restyle(STYLES[Level.EXPERT], "close=1,max_plays=none", PLIES)]:
        assert style_from_repr(repr(style)) == style


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('true')",
        "Style('2ply')",
        "Other(ply='2ply')",
        "Style(ply=print('x'))",
        "Style(speed='fast')",
        "Style(",
    ],
)
def test_a_text_that_is_not_a_recorded_style_is_refused_without_running_it(text: str) -> None:
    with pytest.raises(BadStyle, match="not a recorded style"):
        style_from_repr(text)
    assert isinstance(style_from_repr("Style(ply='1ply')"), Style)
