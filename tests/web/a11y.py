"""The accessibility audit: axe-core (the npm package, ``node_modules/axe-core``, installed by
``npm ci`` with the client's other checks) run inside a page, and its findings summarised."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SEVERE = ("serious", "critical")

RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(" ")),
    why: v.nodes.map((n) => n.failureSummary),
  }));
}"""


def prepare(page: Any) -> None:
    """Load axe into every document the page opens (an init script is not subject to the
    page's Content-Security-Policy, which allows no inline script)."""
    if not AXE.exists():  # pragma: no cover - npm ci installs it (.ci/run)
        if os.environ.get("CI") == "true":
            raise FileNotFoundError(f"{AXE}: npm ci installs it")
        pytest.skip(f"no axe-core at {AXE}: run npm ci")
    page.add_init_script(path=str(AXE))


def settled(page: Any) -> None:
    """Wait until the view has drawn (no spinner left in it)."""
    page.wait_for_function(
        """() => {
            const main = document.getElementById('main');
            return main && main.children.length && !main.querySelector('.spinner');
        }"""
    )


def audit(page: Any, view: str) -> list[dict[str, Any]]:
    """The serious and critical violations on the page now: ``{view, id, impact, help,
    targets}`` each, ``targets`` the elements (CSS selectors) that break the rule."""
    found: list[dict[str, Any]] = page.evaluate(RUN)
    return [{"view": view, **v} for v in found if v["impact"] in SEVERE]


def lines(found: list[dict[str, Any]]) -> list[str]:
    """The violations in words, one line each, for a failing test's message."""
    return [
        f"{v['view']}: {v['id']} ({v['impact']}, {len(v['targets'])} elements) {v['help']}: "
        + ", ".join(v["targets"][:3])
        for v in found
    ]
