"""`bidak bench server` as a user types it, on a tiny load: it prints its table with numbers.

No timing is asserted: the figures depend on the machine. The run starts a real server and the
bare relay as subprocesses, so it takes some seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bidak.bench.server import Load, Result, Tally, Think
from bidak.bench.server.report import capacity
from bidak.cli import app
from bidak.cli.bench import _counts
from tests.server import backends

postgres_url = backends.postgres_url
redis_url = backends.redis_url

runner = CliRunner()


def _row(output: str, label: str) -> list[str]:
    line = next(line for line in output.splitlines() if label in line)
    return [cell.strip() for cell in line.split("│")[2:-1]]


def test_bench_server_prints_bidak_next_to_the_bare_relay(tmp_path: Path) -> None:
    kept = tmp_path / "run"
    args = ["bench", "server", "--matches", "3", "--duration", "2", "--think", "0.02-0.1"]
    result = runner.invoke(app, [*args, "--keep", str(kept)], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    assert "bidak" in result.output and "bare relay" in result.output
    number = re.compile(r"^\d+(\.\d+)?%?$")
    labels = ("actions/s", "p50 ms, actor", "p99 ms, opponent", "server CPU", "generator CPU")
    for label in labels:
        cells = _row(result.output, label)
        assert len(cells) == 2 and all(number.match(cell) for cell in cells), (label, cells)
    assert int(_row(result.output, "actions ")[0]) > 0
    assert _row(result.output, "errors") == ["0", "0"]
    # The server's CPU an action in ms, and beside the relay's how many times the relay's.
    bidak_cpu, relay_cpu = _row(result.output, "CPU an action ms")
    ratio = re.fullmatch(r"(\d+\.\d{3}) \((\d+\.\d)x\)", bidak_cpu)
    assert ratio and re.fullmatch(r"\d+\.\d{3}", relay_cpu), (bidak_cpu, relay_cpu)
    if float(relay_cpu) >= 0.05:  # the ratio of the two as printed, to their rounding
        assert float(ratio[2]) == pytest.approx(float(ratio[1]) / float(relay_cpu), rel=0.05)
    # How much of each one's CPU was the kernel's: a share of its CPU, not more than all of it.
    for share in _row(result.output, "of it in the kernel"):
        assert re.fullmatch(r"\d+%", share) and int(share[:-1]) <= 100, share
    # The server it starts tells its longest loop stall and collection (/metrics); the relay
    # does not.
    for label in ("longest loop stall ms", "longest collection ms"):
        bidak, relay = _row(result.output, label)
        assert number.match(bidak) and relay == "-", (label, bidak, relay)
    # --keep leaves the server's database and log for a look afterwards.
    assert (kept / "bench.sqlite3").stat().st_size > 0
    assert "Bidak on http://" in (kept / "server.log").read_text()


def test_bench_server_keeps_its_files_only_in_a_folder_without_an_earlier_run(
    tmp_path: Path,
) -> None:
    (tmp_path / "bench.sqlite3").write_bytes(b"an earlier run")
    wide = {"COLUMNS": "300"}
    result = runner.invoke(app, ["bench", "server", "--keep", str(tmp_path)], env=wide)
    assert result.exit_code == 2 and "already holds a bench database" in result.output
    assert (tmp_path / "bench.sqlite3").read_bytes() == b"an earlier run"
    args = ["bench", "server", "--keep", str(tmp_path), "--url", "http://x"]
    result = runner.invoke(app, args, env=wide)
    assert result.exit_code == 2 and "leave out --url" in result.output


def test_think_times_are_a_range_or_one_value() -> None:
    assert Think.parse("2-5") == Think(2.0, 5.0)
    assert Think.parse("0.5") == Think(0.5, 0.5)
    assert str(Think.parse("0.5-1")) == "0.5-1 s"
    result = runner.invoke(app, ["bench", "server", "--think", "5-2"])
    assert result.exit_code == 2 and "error:" in result.output


def test_bench_server_quick_mode_prints_the_pairing_time(tmp_path: Path) -> None:
    args = ["bench", "server", "--matches", "3", "--duration", "2", "--think", "0.02-0.1"]
    result = runner.invoke(app, [*args, "--quick"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    number = re.compile(r"^\d+(\.\d+)?$")
    for label in ("pairing p50 ms", "pairing p99 ms"):
        bidak, relay = _row(result.output, label)
        assert number.match(bidak) and relay == "-", (label, bidak, relay)
    assert int(_row(result.output, "actions ")[0]) > 0
    assert _row(result.output, "errors") == ["0", "0"]


def test_a_sweep_prints_a_row_per_count_and_the_largest_carried(tmp_path: Path) -> None:
    args = ["bench", "server", "--sweep", "1", "--duration", "1", "--think", "0.02-0.1"]
    result = runner.invoke(app, args, env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    summary = result.output.split("--sweep")[-1]
    rows = [line for line in summary.splitlines() if re.match(r"^│ +\d+ ", line)]
    assert [row.split("│")[1].strip() for row in rows] == ["1"]
    assert re.search(r"bidak (1|none), bare relay (1|none) \(of 1\)", result.output), result.output
    wrong = runner.invoke(app, ["bench", "server", "--sweep", "0,x"])
    assert wrong.exit_code == 2 and "--sweep takes match counts" in wrong.output
    assert _counts("4000,500, 1000,500") == [500, 1000, 4000], "each once, smallest first"


def _result(matches: int, p99_ms: float, errors: int = 0) -> Result:
    load = Load("bidak", "http://x", matches, 10.0, Think(2.0, 5.0))
    tally = Tally(actor_ms=[1.0] * 99 + [p99_ms] * 2, opponent_ms=[1.0] * 101)
    tally.error("setup: ConnectError", errors)
    return Result("bidak", load, tally, None)


def test_capacity_is_the_largest_count_carried_before_the_first_that_was_not() -> None:
    rows = [(500, _result(500, 20.0)), (1000, _result(1000, 90.0))]
    assert capacity(rows) == 1000
    # A count past the first failure does not count, however lucky its run was.
    rows += [(2000, _result(2000, 180.0)), (4000, _result(4000, 30.0))]
    assert capacity(rows) == 1000
    assert capacity([(500, _result(500, 101.0))]) is None
    assert capacity([(500, _result(500, 10.0, errors=1))]) is None, "errors are not carried"


def test_a_count_run_several_times_is_carried_only_when_every_run_was() -> None:
    calm, burst = _result(900, 20.0), _result(900, 120.0)
    rows = [(800, _result(800, 20.0)), (800, _result(800, 30.0)), (900, calm), (900, burst)]
    assert capacity(rows) == 800, "one of 900's two runs failed"
    assert capacity([(800, calm), (900, burst), (900, calm)]) == 800, "in whatever order"
    assert capacity([(800, calm), (800, burst)]) is None
    rows = [(800, calm), (800, calm), (900, calm), (900, calm), (1000, burst), (1000, calm)]
    assert capacity(rows) == 900


def test_a_repeated_sweep_runs_each_count_that_many_times(tmp_path: Path) -> None:
    args = ["bench", "server", "--sweep", "1", "--repeat", "2", "--duration", "1"]
    result = runner.invoke(app, [*args, "--think", "0.02-0.1"], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    summary = result.output.split("--sweep")[-1]
    rows = [line for line in summary.splitlines() if re.match(r"^│ +\d+ ", line)]
    assert [row.split("│")[1].strip() for row in rows] == ["1", "1"]
    assert re.search(r"\(of 1, 2 runs each\)", result.output), result.output
    alone = runner.invoke(app, ["bench", "server", "--repeat", "2"])
    assert alone.exit_code == 2 and "--repeat repeats the counts of a --sweep" in alone.output


def _descendants(root: int) -> set[int]:
    """Every living process under ``root`` (from /proc: each process's parent)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = set(), [root]
    while frontier:
        pid = frontier.pop()
        children = [child for child, parent in parents.items() if parent == pid]
        found.update(children)
        frontier.extend(children)
    return found


def _alive(pid: int) -> bool:
    with contextlib.suppress(OSError):
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        return state != "Z"
    return False


def test_a_sweep_stopped_with_sigterm_leaves_no_process_behind(tmp_path: Path) -> None:
    """SIGTERM in the middle of a sweep stops the bench and every process it started (its
    server and its load workers), as Ctrl-C does (issue 41: they ran on, orphaned)."""
    bench = subprocess.Popen(
        [
            *(sys.executable, "-c", "from bidak.cli import main; main()", "bench", "server"),
            *("--sweep", "20,40", "--duration", "60", "--think", "1-2", "--workers", "2"),
        ],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        seen: set[int] = set()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(seen) < 3:  # the server and two load workers
            seen |= _descendants(bench.pid)
            time.sleep(0.2)  # polling for the processes to appear, not timing anything
        assert len(seen) >= 3, f"the bench started {len(seen)} processes"
        bench.send_signal(signal.SIGTERM)
        bench.wait(60)
    finally:
        if bench.poll() is None:
            bench.kill()
    # A process that was told to stop may take a moment to go (multiprocessing's resource
    # tracker leaves when it sees its parent gone): wait for it, within bounds.
    gone_by = time.monotonic() + 15
    left = [pid for pid in seen if _alive(pid)]
    while left and time.monotonic() < gone_by:
        time.sleep(0.2)  # polling for the exits, not timing anything
        left = [pid for pid in left if _alive(pid)]
    for pid in left:  # do not leave them to the rest of the suite either
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    assert left == [], f"still running after the bench stopped: {left}"


def test_under_a_cap_a_count_is_carried_with_p99_within_50_ms_and_no_long_stall() -> None:
    from bidak.bench.server.report import efficiency

    quiet = _result(500, 40.0)
    quiet.loop_stall = 0.05
    stalled = _result(600, 40.0)
    stalled.loop_stall = 0.150
    assert capacity([(500, quiet)], capped=True) == 500
    assert capacity([(500, _result(500, 60.0))], capped=True) is None
    assert capacity([(500, _result(500, 60.0))]) == 500, "uncapped, the bar stays 100 ms"
    assert capacity([(500, quiet), (600, stalled)], capped=True) == 500
    assert efficiency({1: 500, 2: 950, 3: 1200}) == {1: 1.0, 2: 0.95, 3: 0.8}
    assert efficiency({1: None, 2: 950}) == {1: None, 2: None}


def test_a_capped_run_holds_the_server_in_a_cgroup_of_its_own_and_removes_it() -> None:
    import pytest

    from bidak.bench.server.cpucap import CpuCap, unavailable

    problem = unavailable()
    if problem is not None:
        pytest.skip(f"CPU caps cannot be set here: {problem}")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    cap = CpuCap(0.25, "test")
    try:
        cap.hold(sleeper.pid)
        assert cap.holds() == [sleeper.pid]
        groups = Path(f"/proc/{sleeper.pid}/cgroup").read_text()
        assert cap.path.name in groups
        if cap.version == 1:
            assert (cap.path / "cpu.cfs_quota_us").read_text().strip() == "2500"
            assert (cap.path / "cpu.cfs_period_us").read_text().strip() == "10000"
        assert cap.throttled_ms() is not None
    finally:
        cap.remove()
        sleeper.kill()
        sleeper.wait()
    assert not cap.path.exists()

    args = ["bench", "server", "--matches", "2", "--duration", "1", "--think", "0.02-0.1"]
    result = runner.invoke(app, [*args, "--cap-cores", "0.5"], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert "1 server process(es) to be capped at 0.5 core each" in result.output
    left = [p.name for p in cap.root.iterdir() if p.name.startswith(f"bidak-bench-{os.getpid()}")]
    assert left == [], "every group the bench made is gone"
    wrong = runner.invoke(app, [*args, "--server-workers", "1,2"])
    assert wrong.exit_code == 2 and "need a --sweep" in wrong.output


def test_room_routing_puts_both_players_of_a_match_on_one_process_and_split_on_two() -> None:
    load = Load("bidak", "http://a", 4, 1.0, Think(1, 1), urls=("http://a", "http://b"))
    room = Load("bidak", "http://a", 4, 1.0, Think(1, 1), urls=load.urls, routing="room")
    split = Load("bidak", "http://a", 4, 1.0, Think(1, 1), urls=load.urls, routing="split")
    for pair in range(4):
        assert load.socket_url(pair, 0) == load.socket_url(pair, 1) == "http://a"  # one port
        assert room.socket_url(pair, 0) == room.socket_url(pair, 1)
        assert split.socket_url(pair, 0) != split.socket_url(pair, 1)
    # Each way spreads the matches over both processes.
    assert {room.socket_url(pair, 0) for pair in range(4)} == {"http://a", "http://b"}
    assert {split.socket_url(pair, 0) for pair in range(4)} == {"http://a", "http://b"}


def _databases() -> set[str]:
    async def names() -> set[str]:
        import asyncpg

        connection = await asyncpg.connect(backends.POSTGRES_ADMIN_URL)
        try:
            return {row[0] for row in await connection.fetch("SELECT datname FROM pg_database")}
        finally:
            await connection.close()

    return asyncio.run(names())


def test_split_routing_plays_each_match_across_two_processes_started_apart(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    args = ["bench", "server", "--matches", "4", "--duration", "2", "--think", "0.02-0.1"]
    args += ["--server-workers", "2", "--routing", "split", "--keep", str(tmp_path)]
    # The bench makes a database of its own beside the one named, and drops it afterwards.
    args += ["--database-url", backends.POSTGRES_ADMIN_URL, "--bus-url", redis_url]
    before = _databases()
    result = runner.invoke(app, args, env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert _databases() == before
    assert "split routing over 2 ports" in " ".join(result.output.split())
    # On a failure, what the bench printed and the end of each process's log say why.
    logs = [(tmp_path / f"server-{n}.log") for n in (0, 1)]
    told = result.output + "".join(
        f"\n--- {log.name}\n" + "\n".join(log.read_text().splitlines()[-30:])
        for log in logs
        if log.exists()
    )
    assert int(_row(result.output, "actions ")[0]) > 0, told
    assert _row(result.output, "errors") == ["0", "0"], told
    for n in (0, 1):  # each process its own log, and players of its own
        assert '"WebSocket /ws" [accepted]' in (tmp_path / f"server-{n}.log").read_text()
    wrong = runner.invoke(app, [*args, "--quick"], env={"COLUMNS": "160"})
    assert wrong.exit_code == 2
    assert "leave out --url and --quick" in " ".join(wrong.output.split())
