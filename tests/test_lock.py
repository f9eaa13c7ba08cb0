"""requirements.lock is the dependency set an operator installs and audits (docs/security.md).

It must pin every runtime dependency that pyproject.toml names, at a version pyproject.toml
allows, with at least one hash per pin (pip's --require-hashes refuses anything else). The test
reads files only: no index is asked, so it runs offline.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def locked() -> dict[str, list[tuple[Version, int]]]:
    """Each pinned package: its versions (one per environment marker, e.g. numpy's per Python
    version) and how many hashes the lock gives for each."""
    pins: dict[str, list[tuple[Version, int]]] = {}
    current: str | None = None
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        match = PIN.match(line)
        if match:
            current = canonicalize_name(match[1])
            pins.setdefault(current, []).append((Version(match[2]), 0))
        elif current is not None and "--hash=sha256:" in line:
            version, hashes = pins[current][-1]
            pins[current][-1] = (version, hashes + 1)
        elif not line.startswith((" ", "#")) and line.strip():
            raise AssertionError(f"unexpected line in requirements.lock: {line!r}")
    return pins


def test_every_runtime_dependency_is_pinned_at_an_allowed_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = locked()
    for text in project["dependencies"]:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not in requirements.lock: run scripts/lock.sh"
        for version, _ in pins[name]:
            assert requirement.specifier.contains(version, prereleases=True), (
                f"requirements.lock pins {name}=={version}, outside {requirement.specifier}:"
                " run scripts/lock.sh"
            )


def test_every_pin_carries_a_hash() -> None:
    pins = locked()
    assert len(pins) >= 10
    unhashed = [name for name, versions in pins.items() for _, hashes in versions if hashes == 0]
    assert unhashed == []
