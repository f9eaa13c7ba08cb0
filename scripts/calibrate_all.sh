#!/usr/bin/env bash
# The full calibration runs, one after the other, niced, in the background:
#   nohup bash scripts/calibrate_all.sh > /dev/null 2>&1 &
# Progress: tail -f calibration/<level>.log; results: the "summary" in calibration/<level>.json.
# Re-running resumes each run after its last finished match.
set -u
cd "$(dirname "$0")/.."
GAMES="${GAMES:-200}"
for level in beginner normal; do
    BGBOT_MULTIPLY_THREADS=1 nice -n 10 .venv/bin/python scripts/calibrate.py \
        --level "$level" --games "$GAMES" --out "calibration/$level.json" \
        >> "calibration/$level.log" 2>&1
done
# Expert is judged at 3-ply, which is slow: let the engine use both cores (still niced).
nice -n 10 .venv/bin/python scripts/calibrate.py \
    --level expert --games "$GAMES" --out calibration/expert.json >> calibration/expert.log 2>&1
