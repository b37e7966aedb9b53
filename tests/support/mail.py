"""A real mail server for tests that send mail through a stack's worker: aiosmtpd on 127.0.0.1,
which keeps every message it receives, parsed (`Mailbox`).

A module's stack sends to it when its marker names `SMTP_ENV`:
`pytest.mark.stack(redis_db=..., worker=True, **SMTP_ENV)`; the `mailbox` fixture
(tests/conftest.py) starts the server for a test and hands over what it received."""

from __future__ import annotations

import email
import email.policy
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from aiosmtpd.controller import Controller

from tests.support.stack import free_port

# One port per test process: the stacks' environment names it before any server is started.
SMTP_PORT = free_port()
SMTP_ENV = {
    "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
    "EMAIL_HOST": "127.0.0.1",
    "EMAIL_PORT": str(SMTP_PORT),
}


class Mailbox:
    """aiosmtpd's handler: every message, parsed, by recipient."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], email.message.EmailMessage]] = []
        self.changed = threading.Condition()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.changed:
            self.messages.append((list(envelope.rcpt_tos), message))  # type: ignore[arg-type]
            self.changed.notify_all()
        return "250 OK"

    def to(self, address: str) -> list[email.message.EmailMessage]:
        """The messages to `address` so far, in the order received."""
        with self.changed:
            return [m for rcpt, m in self.messages if address in rcpt]

    def wait_for(self, to: str, count: int = 1, timeout: float = 20) -> email.message.EmailMessage:
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                theirs = [m for rcpt, m in self.messages if to in rcpt]
                if len(theirs) >= count:
                    return theirs[count - 1]
                left = deadline - time.monotonic()
                assert left > 0, f"no mail #{count} to {to} in {timeout} s: {self.messages}"
                self.changed.wait(left)


def body_of(message: email.message.EmailMessage) -> str:
    """A message's plain text."""
    return message.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]


@contextmanager
def mail_server() -> Iterator[Mailbox]:
    """The mail server on SMTP_PORT while the block runs."""
    box = Mailbox()
    controller = Controller(box, hostname="127.0.0.1", port=SMTP_PORT)
    controller.start()
    try:
        yield box
    finally:
        controller.stop()
