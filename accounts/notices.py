"""Telling a person why they were signed out by a ban or suspension: the pages they have open
at once (their sockets get `sanction_notice` before they close: static/js/core/sanction.js says
it in the same words), and the next page their browser loads.

Moderation ends the person's sessions with a note of whose they were (accounts/sessions.py); the
middleware here reads the note once, looks up the sanction in force now (one lifted meanwhile says
nothing) and leaves its reason and end as a message for the page (templates/base.html)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from plumbing.templatetags.times import when

from .models import Sanction, SanctionKind
from .sessions import SIGNED_OUT_USER
from .standing import user_id_active_sanction


def sanction_words(sanction: Sanction) -> SafeString:
    """Why the account cannot sign in, and until when, in the reader's language, as HTML: the end
    is a <time> the page shows in the reader's zone (plumbing/templatetags/times.py)."""
    if sanction.kind == SanctionKind.BAN or sanction.until is None:
        return escape(_("This account is banned. Reason: %(reason)s") % {"reason": sanction.reason})
    words = escape(_("This account is suspended until %(until)s. Reason: %(reason)s")) % {
        "until": when(sanction.until),
        "reason": escape(sanction.reason),
    }
    return mark_safe(words)  # the words and the reason escaped, the end a <time>


def sanction_notice(kind: str, until: datetime | None, reason: str) -> dict[str, str | None]:
    """What the pages open when a sanction is placed are told (the socket message `sanctioned`):
    its kind (`ban` or `suspend`), its end (ISO 8601, UTC; None for a ban) and reason. The page
    words it as `sanction_words` does, in its own language."""
    banned = kind == SanctionKind.BAN or until is None
    return {
        "kind": SanctionKind.BAN.value if banned else SanctionKind.SUSPEND.value,
        "until": None if until is None or banned else until.isoformat(),
        "reason": reason,
    }


class SignedOutNoticeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # Only a browser that has a session can have been signed out: no query for the others.
        if settings.SESSION_COOKIE_NAME in request.COOKIES and SIGNED_OUT_USER in request.session:
            sanction = user_id_active_sanction(request.session.pop(SIGNED_OUT_USER))
            if sanction is not None:
                words = escape(_("You have been signed out. %(why)s")) % {"why": sanction_words(sanction)}
                messages.warning(request, mark_safe(words))  # escaped: see sanction_words
        return self.get_response(request)
