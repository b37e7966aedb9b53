"""`manage.py bench_slow_deadlines`: the beat's sweep and the lateness of due deadlines beside
100,000 slow games' deadlines spread over 3 days (bench/slow_deadlines.py)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from bench.kit.command import config, guarded
from bench.kit.stack import ensure_database
from bench.slow_deadlines import SlowConfig, format_report, run_slow_bench


class Command(BaseCommand):
    help = "The sweep's database time and due deadlines' lateness beside 100,000 slow games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--database-url", required=True, help="the bench's database (dropped and made)")
        parser.add_argument("--games", type=int, help="slow games not due, spread over 3 days (100,000)")
        parser.add_argument("--live", type=int, help="live games beside them, not due (600)")
        parser.add_argument("--due", type=int, help="slow games due in the window (the rate of 3 days)")
        parser.add_argument("--window", type=int, help="seconds of moved clock measured (600)")
        parser.add_argument("--hot-moves", type=int, help="live moves counted for HOT updates (200; 0: none)")
        parser.add_argument("--seed", type=int)
        parser.add_argument(
            "--compare-ref",
            metavar="REF",
            help="first REF's bench (its code, in a git worktree of its own) on the database named "
            "--database-url with _ref after it, then this checkout's",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        cfg = config(SlowConfig, options)
        if options["compare_ref"]:
            guarded(lambda: self._run_ref(options["compare_ref"], cfg, options))
            self.stdout.write("")
            self.stdout.write("=== this checkout ===")
        figures = guarded(lambda: self._run(cfg))
        for line in format_report(figures):
            self.stdout.write(line)

    def _run_ref(self, ref: str, cfg: SlowConfig, options: dict[str, Any]) -> None:
        """REF's own bench_slow_deadlines, in a worktree of REF, on a database of its own."""
        import subprocess
        import sys

        from bench.kit.stack import ref_worktree

        argv = ["--database-url", cfg.database_url + "_ref"]
        for name in ("games", "live", "due", "window", "hot_moves", "seed"):
            if options.get(name) is not None:
                argv += [f"--{name.replace('_', '-')}", str(options[name])]
        with ref_worktree(ref, self.stdout.write) as code:
            self.stdout.write(f"=== {code.label} ===")
            done = subprocess.run(
                [sys.executable, "manage.py", "bench_slow_deadlines", *argv],
                cwd=code.tree,
                capture_output=True,
                text=True,
                check=False,
            )
            for line in done.stdout.splitlines():
                self.stdout.write(line)
            if done.returncode != 0:
                raise RuntimeError(f"REF's bench failed: {done.stderr.strip()[-2000:]}")
            from bench.slow_deadlines import drop_database

            drop_database(cfg.database_url + "_ref")

    def _run(self, cfg: SlowConfig) -> dict[str, Any]:
        from bench.kit.stack import use_database
        from bench.slow_deadlines import drop_database

        drop_database(cfg.database_url)
        ensure_database(cfg.database_url)
        use_database(cfg.database_url)
        return run_slow_bench(cfg, self.stdout.write)
