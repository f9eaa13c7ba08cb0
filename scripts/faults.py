"""The full-size fault run of issue 29, whose figures are in docs/operating.md ("What happens
when Redis or PostgreSQL goes away").

Two server processes on a PostgreSQL schema of the run's own and a Redis the run starts (its
own port), friend matches with their two players on different processes, while Redis is stopped
and started again, database connections are killed in bursts and a process is killed with
SIGKILL (``tests/server/faults.py`` says what is checked). Needs PostgreSQL
(``BIDAK_TEST_POSTGRES_URL``, as the tests) and ``redis-server``. Prints the figures as JSON
and exits 1 if anything went wrong.

    python scripts/faults.py                      # 40 matches, three 20 s outages
    python scripts/faults.py --cross 12 --same 2  # a smaller run on a busy machine
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.backends import new_postgres_schema
from tests.server.faults import Plan, run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cross", type=int, default=40, help="matches split over the two")
    parser.add_argument("--same", type=int, default=0, help="matches on one process")
    parser.add_argument("--practice", type=int, default=0, help="matches against the bot")
    parser.add_argument("--length", type=int, default=7, choices=(1, 3, 5, 7))
    parser.add_argument("--think", type=float, nargs=2, default=(0.3, 0.8))
    parser.add_argument("--stalls", type=int, default=6)
    parser.add_argument("--outages", type=float, nargs="*", default=[20.0, 20.0, 20.0])
    parser.add_argument("--bursts", type=int, default=3)
    parser.add_argument("--burst-kills", type=int, default=40)
    parser.add_argument("--process-kills", type=int, default=1)
    parser.add_argument("--gap", type=float, default=5.0)
    parser.add_argument(
        "--clock-scale", type=float, default=1.0, help="deadlines are this fraction of 30 s"
    )
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--limit", type=float, default=900.0)
    parser.add_argument("--folder", type=Path, help="keep the servers' logs here")
    options = parser.parse_args()
    plan = Plan(
        cross=options.cross,
        same=options.same,
        practice=options.practice,
        length=options.length,
        think=(options.think[0], options.think[1]),
        stalls=options.stalls,
        clock_scale=options.clock_scale,
        outages=options.outages,
        bursts=options.bursts,
        burst_kills=options.burst_kills,
        process_kills=options.process_kills,
        gap=options.gap,
        seed=options.seed,
        limit=options.limit,
    )
    url, drop = new_postgres_schema()
    try:
        if options.folder is not None:
            options.folder.mkdir(parents=True, exist_ok=True)
            report = asyncio.run(run(plan, options.folder, url))
        else:
            with tempfile.TemporaryDirectory(prefix="bidak-faults-") as folder:
                report = asyncio.run(run(plan, Path(folder), url))
    finally:
        drop()
    plan_shown = {k: str(v) if isinstance(v, Path) else v for k, v in vars(options).items()}
    print(json.dumps({"plan": plan_shown, **report.figures}, indent=2))
    for problem in report.problems:
        print("problem:", problem, file=sys.stderr)
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
