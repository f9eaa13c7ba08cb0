#!/usr/bin/env bash
# Write requirements.lock: the exact packages `bidak serve` runs on, each pinned with the SHA-256
# of every file PyPI has for that version, for every platform (uv's universal resolution).
# Run it after changing [project.dependencies] in pyproject.toml; tests/test_lock.py fails
# until the lock matches. Needs network access to PyPI, and uv (pip install 'uv==0.13.*').
set -euo pipefail
cd "$(dirname "$0")/.."
uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes \
  --no-header --quiet --output-file requirements.lock
echo "requirements.lock: $(grep -c '==' requirements.lock) packages"
