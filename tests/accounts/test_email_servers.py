"""An address confirmed by the link mailed to it, and a forgotten password reset by email: a real
server and worker (the mail is sent by the worker, after commit) talking SMTP to a real mail
server the test starts (aiosmtpd), which keeps every message it receives."""

from __future__ import annotations

import email
import re

import pytest
import requests

from tests.support.mail import SMTP_ENV, Mailbox
from tests.support.stack import Stack

pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(redis_db=2, servers=1, worker=True, **SMTP_ENV),
]
PASSWORD = "correct-horse-battery"


class Browser:
    def __init__(self, base: str) -> None:
        self.base, self.session = base, requests.Session()

    def page(self, path: str) -> requests.Response:
        return self.session.get(self.base + path, timeout=10)

    def form(self, path: str, data: dict[str, str], page: str | None = None) -> requests.Response:
        self.page(page or path)  # the CSRF cookie
        token = self.session.cookies["csrftoken"]
        return self.session.post(
            self.base + path,
            data={"csrfmiddlewaretoken": token, **data},
            headers={"Referer": self.base + (page or path)},
            timeout=10,
        )


def _link(message: email.message.EmailMessage) -> str:
    body = message.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    return re.search(r"https?://\S+", body).group(0)  # type: ignore[union-attr]


def _page(r: requests.Response) -> str:
    """The page's words, without what differs on every answer (the scripts' nonce, the masked
    CSRF token)."""
    return re.sub(r'(nonce|value)="[A-Za-z0-9+/=_-]{20,}"', "", r.text)


def test_an_address_is_confirmed_and_a_forgotten_password_reset(stack: Stack, mailbox: Mailbox) -> None:
    base = stack.url()
    dana = Browser(base)
    r = dana.form(
        "/accounts/register/",
        {"username": "dana", "email": "dana@example.org", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert r.url.endswith("/lobby/")
    # A reset asked for before the address is confirmed sends nothing, and says the same.
    stranger = Browser(base)
    same = stranger.form("/accounts/password/reset/", {"email": "dana@example.org"})
    assert same.url.endswith("/accounts/password/reset/sent/")

    mail = mailbox.wait_for("dana@example.org")
    assert "Confirm your email address" in mail["Subject"]
    assert "Harehra Online" in mail["From"]
    page = dana.page(_link(mail)[len(base) :]).text
    assert "dana@example.org is confirmed" in page
    assert 'data-verified="true"' in dana.page("/accounts/email/").text

    # Known and unknown addresses get the same answer; only the known one gets mail.
    unknown = stranger.form("/accounts/password/reset/", {"email": "nobody@example.org"})
    known = stranger.form("/accounts/password/reset/", {"email": "DANA@example.org"})
    assert (unknown.status_code, unknown.url, _page(unknown)) == (known.status_code, known.url, _page(known))
    reset = mailbox.wait_for("dana@example.org", count=2)
    assert "Reset your password" in reset["Subject"]
    assert not [m for rcpt, m in mailbox.messages if "nobody@example.org" in rcpt]
    assert len([1 for rcpt, _ in mailbox.messages if "dana@example.org" in rcpt]) == 2  # none before

    link = _link(reset)[len(base) :]
    form_page = stranger.page(link)  # Django moves the token into the session and redirects
    new = "a-brand-new-hare-42"
    done = stranger.form(form_page.url[len(base) :], {"new_password1": new, "new_password2": new})
    assert done.url.endswith("/accounts/password/reset/done/")
    # Dana's browser, signed in with the old password, is signed out; the new password works.
    assert dana.page("/accounts/email/").url.startswith(base + "/accounts/login/")
    again = Browser(base)
    r = again.form("/accounts/login/", {"username": "dana", "password": new})
    assert r.url.endswith("/lobby/")
    # The link is used up.
    assert "This link is not valid or has been used" in Browser(base).page(link).text
