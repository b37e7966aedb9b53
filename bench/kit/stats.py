"""Figures every bench reports: percentiles, the machine's speed and jitter, CPU by process and part,
the shared parts' and the servers' counters, and the report's lines."""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100); NaN when there are no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def ms(values: Sequence[float], p: float, digits: int = 1) -> str:
    """The `p` percentile of `values` at `digits` decimals, or "n/a" when there are none."""
    return num(percentile(values, p), digits)


def num(v: float, digits: int = 2) -> str:
    return "n/a" if math.isnan(v) else f"{v:.{digits}f}"


def median(values: Sequence[float]) -> float:
    """The median of the values that are numbers; NaN when there are none."""
    kept = [v for v in values if not math.isnan(v)]
    return statistics.median(kept) if kept else math.nan


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def reference_loop_ms() -> float:
    """How long a fixed pure-Python loop takes now (best of five), in ms. This machine's CPU
    speed drifts by tens of percent from one minute to the next, so a bench prints this beside
    its figures and runs are compared with it in view."""
    best = math.inf
    for _ in range(5):
        t0, x = time.perf_counter(), 0
        for i in range(200_000):
            x += i * i
        best = min(best, (time.perf_counter() - t0) * 1000)
    return best


def wake_jitter_ms(seconds: float = 3.0, every: float = 0.02) -> tuple[float, float, float, float]:
    """A fixed loop of about 5 ms run every `every` seconds for `seconds`: (fastest, p50, p99, max)
    in ms. A server sleeps between messages and wakes for each; on these virtual machines the same
    work right after a wake-up can take several times as long, which no code change removes."""
    times = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t0, x = time.perf_counter(), 0
        for i in range(80_000):
            x += i * i
        times.append((time.perf_counter() - t0) * 1000)
        time.sleep(every)
    return min(times), percentile(times, 50), percentile(times, 99), max(times)


def jitter_lines(jitter_ms: Sequence[float]) -> list[str]:
    """The machine's wake-up jitter (`wake_jitter_ms`) as a live bench prints it, if timed."""
    if not jitter_ms:
        return []
    return [
        "machine wake-up jitter before the run: a {:.1f} ms loop run every 20 ms took "
        "p50 {:.1f}  p99 {:.1f}  max {:.1f} ms".format(*jitter_ms)
    ]


def _proc(pid: int | str, name: str) -> bytes:
    """/proc/<pid>/<name>; empty when the process has gone."""
    try:
        with open(f"/proc/{pid}/{name}", "rb") as f:
            return f.read()
    except OSError:
        return b""


def _stat_fields(pid: int) -> list[bytes]:
    """/proc/<pid>/stat's fields after the command's name (in parentheses, which may hold spaces)."""
    return _proc(pid, "stat").rsplit(b")", 1)[-1].split()


def read_process_cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user and system) a process on this machine has used; None if it can't be read."""
    fields = _stat_fields(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") if len(fields) > 12 else None


def process_cpu_seconds(pid: int) -> float:
    """CPU seconds a process on this machine has used; 0 if it can't be read (it has gone)."""
    return read_process_cpu_seconds(pid) or 0.0


def pids_named(name: str) -> list[int]:
    wanted = name.encode()
    pids = [e for e in os.listdir("/proc") if e.isdigit()]
    return [int(e) for e in pids if _proc(e, "comm").strip().startswith(wanted)]


def _machine_busy_seconds() -> float:
    """CPU seconds all cores spent busy since boot (everything but idle and iowait)."""
    with open("/proc/stat") as f:
        ticks = [int(v) for v in f.readline().split()[1:]]
    return (sum(ticks[:8]) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def cpu_snapshot(named: dict[str, list[int]]) -> dict[str, float]:
    """Busy CPU seconds so far: named processes, redis, and the whole machine.

    PostgreSQL backends come and go (one per connection), so they are not counted one by one:
    what the machine spent beyond the named processes is mostly theirs.
    """
    snap = {label: sum(process_cpu_seconds(p) for p in pids) for label, pids in named.items()}
    snap["redis-server"] = sum(process_cpu_seconds(p) for p in pids_named("redis-server"))
    snap["machine"] = _machine_busy_seconds()
    return snap


def _postgres_backends(dbname: str) -> list[int]:
    """PIDs of PostgreSQL backends connected to `dbname` (their title names it: `postgres: ... db ...`)."""
    needle = f" {dbname} ".encode()
    return [pid for pid in pids_named("postgres") if needle in _proc(pid, "cmdline")]


def _postmaster_children_seconds() -> float:
    """CPU seconds of PostgreSQL backends that have ended (the postmaster has reaped them), in every
    database: with HTTP requests closing their connections, a backend lives for one request."""
    pids = set(pids_named("postgres"))
    for pid in pids:
        fields = _stat_fields(pid)
        if len(fields) > 14 and int(fields[1]) not in pids:  # the postmaster: its parent is no postgres
            return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
    return 0.0


CpuReading = tuple[dict[str, float], dict[int, float], float]


def cpu_reading(named: dict[str, list[int]], dbname: str) -> CpuReading:
    """`cpu_snapshot`, and the CPU of PostgreSQL's backends on `dbname` and of those that ended."""
    snap = cpu_snapshot(named)
    backends = {pid: process_cpu_seconds(pid) for pid in _postgres_backends(dbname)}
    return snap, backends, _postmaster_children_seconds()


def cpu_window(start: CpuReading, end: CpuReading) -> dict[str, float]:
    """CPU seconds by part between two `cpu_reading`s."""
    out = {k: end[0][k] - start[0][k] for k in end[0]}
    # A backend that started in the window counts from 0 (it is at most a few ms old then).
    out["postgres (bench database)"] = sum(v - start[1].get(pid, 0.0) for pid, v in end[1].items())
    out["postgres (ended connections, any database)"] = end[2] - start[2]
    named = sum(v for k, v in out.items() if k != "machine")
    out["rest (other postgres, kernel, ...)"] = out["machine"] - named
    return out


def cpu_line(cpu_s: dict[str, float], window_s: float) -> str:
    cpu = ", ".join(f"{k} {100 * v / window_s:.0f}%" for k, v in cpu_s.items())
    return f"CPU in the window (100% = one core): {cpu}"


def layer_shards(server_env: Sequence[tuple[str, str]]) -> list[str]:
    """The channel layer's own Redis servers named in a bench's server environment
    (CHANNEL_LAYER_REDIS_URLS), whose work shared_snapshot adds to the bench Redis's."""
    return [
        url
        for key, value in server_env
        if key == "CHANNEL_LAYER_REDIS_URLS"
        for url in value.split(",")
        if url
    ]


def shared_snapshot(database_url: str, redis_url: str, *more_redis: str) -> dict[str, float]:
    """What the shared parts have done so far, counted by the parts themselves: the bench
    database's transactions and rows (PostgreSQL's statistics, flushed within a second), the
    cluster's write-ahead log, and the bench Redis's commands and bytes (PUBLISH is the channel
    layer's send, one per push or group message), summed with `more_redis` (the channel layer's
    shards, when it has Redis servers of its own)."""
    import psycopg
    import redis

    keys = ("transactions", "rollbacks", "rows read", "rows inserted", "rows updated", "rows deleted")
    with psycopg.connect(database_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT xact_commit, xact_rollback, tup_fetched, tup_inserted, tup_updated, tup_deleted, "
            "pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint "
            "FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    assert row is not None
    names = [f"pg {k}" for k in keys] + ["pg WAL bytes (cluster)"]
    snap = {name: float(value) for name, value in zip(names, row, strict=True)}
    for url in (redis_url, *more_redis):
        r = redis.Redis.from_url(url)
        stats = r.info("stats")
        for key, name in (
            ("redis bytes in", "total_net_input_bytes"),
            ("redis bytes out", "total_net_output_bytes"),
        ):
            snap[key] = snap.get(key, 0.0) + float(stats[name])
        for name, figures in r.info("commandstats").items():
            key = f"redis {name.removeprefix('cmdstat_').upper()}"
            snap[key] = snap.get(key, 0.0) + float(figures["calls"])
    return snap


def shared_lines(start: dict[str, float], end: dict[str, float], moves: int) -> list[str]:
    """Each shared part's work per acknowledged move in the window (the server's own reads and
    writes, its workers', the pages' socket opens: all of it, divided by the moves)."""
    if not moves:
        return []
    per = {k: (end.get(k, 0.0) - start.get(k, 0.0)) / moves for k in end}
    redis_calls = {k: v for k, v in per.items() if k.startswith("redis ") and "bytes" not in k and v >= 0.05}
    return [
        f"shared parts per move ({moves} moves): PostgreSQL {per['pg transactions']:.2f} transactions, "
        f"rows read {per['pg rows read']:.1f}, inserted {per['pg rows inserted']:.1f}, "
        f"updated {per['pg rows updated']:.1f}, deleted {per['pg rows deleted']:.2f}; "
        f"WAL {per['pg WAL bytes (cluster)']:.0f} B (the whole cluster's)",
        f"  Redis {sum(redis_calls.values()):.1f} commands ("
        + ", ".join(
            f"{k.removeprefix('redis ')} {v:.2f}"
            for k, v in sorted(redis_calls.items(), key=lambda kv: -kv[1])
        )
        + f"), {per['redis bytes in']:.0f} B in, {per['redis bytes out']:.0f} B out",
    ]


Scrape = dict[tuple[str, tuple[tuple[str, str], ...]], float]  # (sample, labels) -> value


def scrape_metrics(urls: Sequence[str], token: str, timeout: float = 10) -> Scrape:
    """A server's /metrics (every process's, summed) as {(sample, sorted labels): value}: from the
    first of `urls` that answers (one may be restarting)."""
    import urllib.request

    from prometheus_client.parser import text_string_to_metric_families

    text, failed = None, None
    for url in urls:
        req = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                text = r.read().decode()
            break
        except OSError as e:
            failed = e
    if text is None:
        raise RuntimeError(f"no server answered /metrics: {failed}")
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def counts(counter: dict[str, int] | dict[int, int], empty: str = "none") -> str:
    """`k v, k v` in key order, or `empty`."""
    return ", ".join(f"{k} {v}" for k, v in sorted(counter.items())) or empty


def table_lines(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Columns padded to their widest cell, a rule under the header."""
    widths = [max(len(row[i]) for row in [*rows, header]) for i in range(len(header))]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows]
    return lines


def write_report(lines: Sequence[str], write: Callable[[str], None]) -> None:
    """A report's lines, after a blank line (what a run or a comparison of runs ends with)."""
    write("")
    for line in lines:
        write(line)


class Reported(Protocol):
    lines: list[str]


R = TypeVar("R", bound=Reported)


def reported(result: R, lines: list[str], write: Callable[[str], None]) -> R:
    """A run's result with its report's lines, which are written (`write_report`)."""
    result.lines = lines
    write_report(lines, write)
    return result
