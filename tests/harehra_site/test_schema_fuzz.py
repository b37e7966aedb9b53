"""A bounded schemathesis run against a real server: every response of every API operation is
in the schema (status, content type, body, headers), no 5xx, auth is not ignored.

Left out: schemathesis' two acceptance heuristics (positive_data_acceptance,
negative_data_rejection): they count a business refusal (a weak password, a taken name, a
bad move) as "valid data rejected"; the schema cannot say those rules."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.support.stack import Stack

pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(
        redis_db=6,
        servers=1,
        BOT_DELAY_SECONDS="0.2",
        THROTTLE_SIGN_IN="100000/min",  # throttles are tested elsewhere: let the fuzzer reach the views
        THROTTLE_REGISTER="100000/min",
    ),
]
OUTPUT = Path(__file__).resolve().parents[2] / "test-output"
ST = shutil.which("st") or str(Path(sys.executable).parent / "st")


@pytest.mark.skipif(not os.path.exists(ST), reason="schemathesis is not installed")
def test_every_response_is_in_the_schema(stack: Stack) -> None:
    body = json.dumps({"username": "fuzzer", "password": "correct-horse-battery"}).encode()
    req = urllib.request.Request(
        stack.url() + "/api/accounts/register/", data=body, headers={"Content-Type": "application/json"}
    )
    token = json.load(urllib.request.urlopen(req, timeout=10))["token"]
    run = subprocess.run(
        [
            ST, "run", stack.url() + "/api/schema/", "--checks", "all",
            "--exclude-checks", "positive_data_acceptance,negative_data_rejection",
            "-H", f"Authorization: Token {token}", "-n", "10", "--seed", "15",
            "--request-timeout", "10", "--continue-on-failure",
        ],
        capture_output=True, text=True, timeout=480, cwd=OUTPUT,
    )  # fmt: skip
    (OUTPUT / "schemathesis.txt").write_text(run.stdout + run.stderr)
    assert run.returncode == 0, run.stdout[-6000:]
