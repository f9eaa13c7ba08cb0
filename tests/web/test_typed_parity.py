"""A play typed at the table (typed.js) reads as the engine reads it (bidak.rules.notation):
for the same text, position and roll, the browser's reading and ``resolve`` name the same play,
or refuse it for the same reason. Positions reached by random legal plays from the start."""

from __future__ import annotations

import random
import re
from typing import Any

from bidak.errors import BidakError
from bidak.rules import Position
from bidak.rules.notation import resolve
from bidak.rules.plays import legal_plays

REASONS = {  # the engine's message -> the browser's catalog key
    "cannot read": "typed.unreadable",
    "needs a start and an end": "typed.needs_end",
    "is not a point": "typed.point",
    "a hit is marked": "typed.hit_start",
    "from higher points to lower": "typed.direction",
    "bar can only start": "typed.bar_off",
    "a count must be": "typed.count",
    "you have no checker on": "typed.no_checker",
    "is not a legal play": "typed.illegal",
    "could mean": "typed.ambiguous",
}
TRIES = [
    "13/7",
    "9/6 6/5",
    "5/8",
    "8-5",
    "26/23",
    "bar/22",
    "6/off",
    "off/5",
    "*8/5",
    "8/5(5)",
    "8/5*",
    "24/18 13/9",
    "13/10 13/11",
    "8/5(2)",
    "6/5 8/5",
    "BAR/20",
    "25/22 6/0",
    "x",
    "8*/5",
    "13/7*/5 6/5",
]


def engine(text: str, position: Position, dice: tuple[int, int]) -> str:
    try:
        return "play " + str(resolve(text, position, dice))
    except BidakError as error:
        message = str(error)
        found = [key for phrase, key in REASONS.items() if phrase in message]
        assert len(found) == 1, message
        return found[0]


def cases(seed: int, count: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    position = Position.initial()
    found = []
    for _ in range(count):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, dice)
        legal = [{"steps": [list(s) for s in p.steps], "notation": str(p)} for p in plays]
        texts = [str(p) for p in plays[:6] if p.steps] + TRIES
        texts += [t.upper() for t in texts[:2]] + [re.sub(r"\bbar\b", "25", t) for t in texts[:3]]
        for text in texts:
            found.append(
                {
                    "text": text,
                    "board": {
                        "points": list(position.points),
                        "bar": list(position.bar),
                        "off": [0, 0],
                    },
                    "legal": legal,
                    "dice": list(dice),
                    "engine": engine(text, position, dice),
                }
            )
        position = rng.choice(plays).result.flipped()
    return found


READ = """async ([url, cases]) => {
    const { readPlay } = await import(url);
    return cases.map((c) => {
        const r = readPlay(c.text, c.board, c.legal, c.dice);
        return "play" in r ? "play " + r.play.notation : r.error;
    });
}"""


def test_the_browser_reads_typed_plays_as_the_engine_does(server: Any, pages: Any) -> None:
    running = server()
    page = pages.new(running.base)
    page.goto("/")
    page.wait_for_selector("#training-card")
    url = page.evaluate("document.querySelector('script[type=module]').src")
    url = url.rsplit("/", 1)[0] + "/typed.js"  # beside main.js, of the same version
    all_cases = cases(seed=40, count=30)
    browser = page.evaluate(READ, [url, all_cases])
    differ = [
        (c["text"], c["dice"], c["engine"], b)
        for c, b in zip(all_cases, browser, strict=True)
        if c["engine"] != b
    ]
    assert not differ, differ[:10]
    kinds = {c["engine"].split(" ")[0] for c in all_cases}
    assert {"play", "typed.illegal", "typed.no_checker", "typed.hit_start"} <= kinds, kinds
