"""Telling the event pages what changed, after the transaction commits (as games' pushes do).

Two messages, both computed once per change in the process that made it and forwarded to every
socket as the same text: the event's `standings` (its state, standings and podium: the same for
every viewer) to the event's group, and a player's own `me` (their entry, and the table and game
they play at now) to that player's group alone. docs/PROTOCOL.md, "Tournament sockets".
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable

from django.db import transaction

from plumbing import jsontext, metrics
from plumbing.publish import send_on_commit

from .models import Tournament
from .selectors import tournament_games, tournament_live, tournament_me_many

log = logging.getLogger(__name__)


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def tournament_user_group(tournament_id: int, user_id: int) -> str:
    return f"tournament.{tournament_id}.user.{user_id}"


def tournament_changed(
    tournament_id: int, *, standings: bool = True, users: Iterable[int] = (), games_of: Iterable[int] = ()
) -> None:
    """Once the current transaction commits (at once outside one): the event's standings to its
    pages (`standings`), with the whole game lists of the entries `games_of` (given a result by
    the change), and each of `users` their own entry. What is sent is read then, so it is what
    committed, and a message that is lost is made good by the next (each is whole; a page whose
    lists fell behind the standings' counts asks for them: `tournament_games_text`)."""
    user_ids = sorted(set(users))
    entries = sorted(set(games_of))
    transaction.on_commit(
        lambda: tournament_publish(tournament_id, standings=standings, users=user_ids, games_of=entries)
    )


def tournament_publish(
    tournament_id: int, *, standings: bool, users: list[int], games_of: list[int] | None = None
) -> None:
    """Read and send now. A commit hook: what fails is logged, never raised to whoever committed
    (a move that ended a game, the beat's seating)."""
    try:
        t = Tournament.objects.get(pk=tournament_id)
        if standings:
            started = time.perf_counter()
            text = jsontext.dumps(tournament_live(t, games_of or ()))
            metrics.tournament_pushed("standings", time.perf_counter() - started)
            send_on_commit(tournament_group(t.pk), {"type": "tournament.standings", "text": text})
        for user_id, me in tournament_me_many(t, users).items() if users else ():
            text = jsontext.dumps({"type": "me", "tournament": t.pk, "me": me})
            metrics.tournament_pushed("me")
            send_on_commit(tournament_user_group(t.pk, user_id), {"type": "tournament.me", "text": text})
    except Exception:
        log.exception("could not publish tournament %s", tournament_id)


def tournament_hello(tournament_id: int, user_id: int | None) -> list[str] | None:
    """What a socket gets first, on every (re)connect: the standings, and the viewer's own entry
    when signed in. None: no such event."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return None
    out = [jsontext.dumps(tournament_live(t))]
    if user_id is not None:
        me = tournament_me_many(t, [user_id])[user_id]
        out.append(jsontext.dumps({"type": "me", "tournament": t.pk, "me": me}))
    return out


# A page asks for at most this many entrants' lists at once (it asks again for the rest).
GAMES_ASKED_AT_MOST = 50


def tournament_games_text(tournament_id: int, entries: list[int]) -> str:
    """The answer to a page's `games` request: those entrants' whole lists of games (those of
    another event left out)."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    games = tournament_games(t, entries) if t is not None else {}
    return jsontext.dumps({"type": "games", "tournament": tournament_id, "games": games})
