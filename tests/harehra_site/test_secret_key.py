"""A site run with DEBUG=0 never signs with the public development key: it refuses that key, and
with none set it makes a key of its own for the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRINT_KEY = "import django; django.setup(); from django.conf import settings; print(settings.SECRET_KEY)"


def _run(env: dict[str, str], cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")}
    return subprocess.run(
        [sys.executable, "-c", PRINT_KEY],
        env={**base, "DJANGO_SETTINGS_MODULE": "harehra_site.settings", "PYTHONPATH": str(ROOT), **env},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_debug_off_refuses_the_development_key() -> None:
    from harehra_site.settings import DEVELOPMENT_KEY

    run = _run({"DEBUG": "0", "SECRET_KEY": DEVELOPMENT_KEY})
    assert run.returncode != 0 and "public development SECRET_KEY" in run.stderr


def test_with_no_key_set_the_checkout_makes_its_own(tmp_path: Path) -> None:
    from harehra_site.settings import DEVELOPMENT_KEY, local_secret_key

    first = local_secret_key(tmp_path / ".secret_key")
    assert len(first) >= 50 and first != DEVELOPMENT_KEY
    assert local_secret_key(tmp_path / ".secret_key") == first  # the same key every start
    assert (tmp_path / ".secret_key").stat().st_mode & 0o077 == 0  # only its owner reads it
    run = _run({"DEBUG": "0"})
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == (ROOT / ".secret_key").read_text().strip() != DEVELOPMENT_KEY


def test_debug_on_may_use_the_development_key() -> None:
    from harehra_site.settings import DEVELOPMENT_KEY

    run = _run({"DEBUG": "1"})
    assert run.returncode == 0 and run.stdout.strip() == DEVELOPMENT_KEY
