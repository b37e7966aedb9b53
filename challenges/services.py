"""Challenges: one person asks named others to a new table (`challenge_create`), or the people of
a game just played to the table's next game (`rematch_offer`); each answers (`challenge_answer`);
the table starts once nobody's answer is awaited and someone accepted, or when the challenger
starts it (`challenge_start`) with bots in the seats nobody took; the challenger may call it off
(`challenge_cancel`); the beat ends those nobody started in time (`challenges_expire`).

The table and its games are the games app's: created, joined, filled with bots and started by
its own services (games/services/tables.py), in the same transaction as the challenge's row."""

from __future__ import annotations

import logging
from contextlib import suppress
from dataclasses import asdict, fields
from datetime import timedelta
from typing import Any

from django.conf import settings as site_settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts.access import AnyUser, access_signed_in
from accounts.models import ChallengesFrom, Preference
from games.access import access_slow_games_room
from games.models import Game, GameSeat, GameStatus, Pace, Seat, Table, TableStatus
from games.services.tables import (
    TableSettings,
    table_add_bot,
    table_create,
    table_join,
    table_next_game,
    table_seat_vacate,
    table_settings_check,
    table_start,
)
from harehra.bots import LEVELS
from notifications.models import Kind
from notifications.services import notification_send, notifications_answered
from plumbing.errors import ServiceError
from relations.selectors import blocks

from .access import access_challenge
from .models import AnswerStatus, Challenge, ChallengeAnswer, ChallengeStatus
from .publish import publish_challenge_changed, publish_challenge_offered, publish_challenge_started

log = logging.getLogger(__name__)


def _expiry() -> timedelta:
    return timedelta(seconds=site_settings.CHALLENGE_EXPIRY_SECONDS)


def _people(user: AnyUser, names: Any, seats: int) -> list[Any]:
    """The people named, each once, none of them `user`, all of them able to sit at the table."""
    if not isinstance(names, list | tuple) or not names or not all(isinstance(n, str) for n in names):
        raise ServiceError("bad_people", "name one or more players to challenge")
    wanted = list(dict.fromkeys(n.strip() for n in names if n.strip()))
    if not wanted:
        raise ServiceError("bad_people", "name one or more players to challenge")
    if len(wanted) > seats - 1:
        raise ServiceError(
            "too_many_people", f"a table of {seats} seats takes {seats - 1} others besides you"
        )
    found = {
        u.get_username(): u for u in get_user_model().objects.filter(username__in=wanted, is_active=True)
    }
    people = []
    for name in wanted:
        if name not in found:
            raise ServiceError("not_found", f"no such player: {name}", 404)
        if found[name].pk == user.pk:
            raise ServiceError("self_challenge", "you cannot challenge yourself")
        people.append(found[name])
    return people


def _offer(challenge: Challenge, user_id: int) -> None:
    """Tell a person challenged: a notification, and every open page of theirs at once."""
    table_settings = challenge.settings
    name = challenge.challenger.get_username()
    notification_send(user_id=user_id, kind=Kind.CHALLENGE, data={"name": name, "challenge": challenge.pk})
    publish_challenge_offered(
        user_id,
        {
            "challenge": challenge.pk,
            "from": name,
            "seats": table_settings.get("seats"),
            "rated": bool(table_settings.get("rated")),
            "rematch": challenge.rematch,
            "expires": challenge.expires_at.isoformat(),
        },
    )


def challenge_create(
    *, user: AnyUser, names: Any, settings: TableSettings, bot_level: str = "normal"
) -> Challenge:
    """`user` challenges the people named to a new table with `settings`; the seats none of them
    takes get bots of `bot_level`. Each must accept challenges from `user` (access_challenge)."""
    access_signed_in(user)
    table_settings_check(settings)
    if bot_level not in LEVELS:
        raise ServiceError("bad_level", "a bot's level is easy, normal or hard")
    people = _people(user, names, settings.seats)
    if getattr(settings, "pace", Pace.LIVE) == Pace.SLOW:
        access_slow_games_room(user)  # the challenger takes a seat at the table it makes
    for person in people:
        access_challenge(user.pk, person.pk)
    with transaction.atomic():
        challenge = Challenge.objects.create(
            challenger=user,
            settings={**asdict(settings), "packs": list(settings.packs)},
            bot_level=bot_level,
            expires_at=timezone.now() + _expiry(),
        )
        ChallengeAnswer.objects.bulk_create([ChallengeAnswer(challenge=challenge, user=p) for p in people])
        for person in people:
            _offer(challenge, person.pk)
    return challenge


def rematch_offer(*, user: AnyUser, game_id: int) -> Challenge:
    """After a game, one of its people offers the others the table's next game (the same series).
    Said again while one is pending, it is that one."""
    access_signed_in(user)
    with transaction.atomic():
        game = Game.objects.select_related("table").filter(pk=game_id).first()
        if game is None:
            raise ServiceError("not_found", "no such game", 404)
        table = Table.objects.select_for_update().get(pk=game.table_id)
        seats = list(GameSeat.objects.filter(game=game, user__isnull=False).values_list("user_id", flat=True))
        if user.pk not in seats:
            raise ServiceError("not_seated", "only the game's players may offer a rematch", 403)
        if game.status == GameStatus.RUNNING:
            raise ServiceError("game_running", "the game has not ended", 409)
        if table.status != TableStatus.BETWEEN or table.games.filter(number__gt=game.number).exists():
            raise ServiceError("next_game_started", "the table has gone on without this game", 409)
        pending = Challenge.objects.filter(table=table, rematch=True, status=ChallengeStatus.PENDING).first()
        if pending is not None:
            return pending
        others = [
            u
            for u in dict.fromkeys(seats)
            if u != user.pk and not blocks(u, user.pk) and not blocks(user.pk, u)
        ]
        if not others:
            raise ServiceError("nobody_to_ask", "nobody else played this game: start the next game", 409)
        challenge = Challenge.objects.create(
            challenger=user,
            settings={"seats": table.seats, "rated": table.rated},
            bot_level=table.away_bot_level,
            table=table,
            rematch=True,
            expires_at=timezone.now() + _expiry(),
        )
        ChallengeAnswer.objects.bulk_create([ChallengeAnswer(challenge=challenge, user_id=u) for u in others])
        for other in others:
            _offer(challenge, other)
    return challenge


def _locked(challenge_id: Any) -> Challenge:
    if not isinstance(challenge_id, int):
        raise ServiceError("not_found", "no such challenge", 404)
    challenge = (
        Challenge.objects.select_for_update().select_related("challenger").filter(pk=challenge_id).first()
    )
    if challenge is None:
        raise ServiceError("not_found", "no such challenge", 404)
    return challenge


def _pending(challenge: Challenge) -> None:
    if challenge.status != ChallengeStatus.PENDING:
        raise ServiceError("challenge_over", f"the challenge is {challenge.status}", 409)
    if challenge.expires_at <= timezone.now():
        raise ServiceError("challenge_over", "the challenge has expired", 409)


def _everyone(challenge: Challenge) -> list[int]:
    return [challenge.challenger_id, *challenge.answers.values_list("user_id", flat=True)]


def _end(challenge: Challenge, status: str) -> None:
    challenge.status = status
    challenge.ended_at = timezone.now()
    challenge.save(update_fields=["status", "ended_at"])
    for uid in _everyone(challenge):
        publish_challenge_changed(uid, challenge.pk, status)


def challenge_answer(*, user: AnyUser, challenge_id: Any, accept: bool) -> Challenge:
    """A person challenged accepts or declines; once nobody's answer is awaited the table starts
    (someone accepted) or the challenge ends declined (nobody did)."""
    access_signed_in(user)
    with transaction.atomic():
        challenge = _locked(challenge_id)
        answer = ChallengeAnswer.objects.filter(challenge=challenge, user_id=user.pk).first()
        if answer is None:
            raise ServiceError("not_found", "no such challenge", 404)
        _pending(challenge)
        if answer.status != AnswerStatus.PENDING:
            raise ServiceError("already_answered", "you have answered this challenge", 409)
        if accept and _takes_a_slow_seat(challenge, user.pk):
            access_slow_games_room(user)
        answer.status = AnswerStatus.ACCEPTED if accept else AnswerStatus.DECLINED
        answer.answered_at = timezone.now()
        answer.save(update_fields=["status", "answered_at"])
        notifications_answered(user_id=user.pk, kind=Kind.CHALLENGE, about={"challenge": challenge.pk})
        statuses = list(challenge.answers.values_list("status", flat=True))
        if AnswerStatus.PENDING in statuses:
            for uid in _everyone(challenge):
                publish_challenge_changed(uid, challenge.pk, challenge.status)
        elif AnswerStatus.ACCEPTED in statuses:
            _start(challenge)
        else:
            _end(challenge, ChallengeStatus.DECLINED)
    return challenge


def _takes_a_slow_seat(challenge: Challenge, user_id: int) -> bool:
    """Whether accepting seats the person at a slow table they do not sit at yet: a new table
    made slow, or a slow table's rematch they are not seated at."""
    if challenge.rematch:
        table = challenge.table
        return (
            table is not None
            and table.is_slow
            and not Seat.objects.filter(table_id=table.pk, user_id=user_id).exists()
        )
    return challenge.settings.get("pace") == Pace.SLOW


def challenge_cancel(*, user: AnyUser, challenge_id: Any) -> Challenge:
    access_signed_in(user)
    with transaction.atomic():
        challenge = _locked(challenge_id)
        if challenge.challenger_id != user.pk:
            raise ServiceError("not_challenger", "only the challenger may call it off", 403)
        _pending(challenge)
        _end(challenge, ChallengeStatus.CANCELLED)
    return challenge


def challenge_start(*, user: AnyUser, challenge_id: Any) -> Challenge:
    """The challenger starts now: those who accepted are seated, bots take the other seats."""
    access_signed_in(user)
    with transaction.atomic():
        challenge = _locked(challenge_id)
        if challenge.challenger_id != user.pk:
            raise ServiceError("not_challenger", "only the challenger may start it", 403)
        _pending(challenge)
        _start(challenge)
    return challenge


def _seat(table: Table, user_id: int) -> None:
    """Seat a person who accepted, unless the table refuses them now (they were blocked since,
    a seat is gone): their seat then gets a bot like any other empty one."""
    person = get_user_model().objects.get(pk=user_id)
    with suppress(ServiceError):
        table_join(table=table, user=person, invite_code=table.invite_code)


def _fill_with_bots(table: Table, level: str) -> None:
    table.refresh_from_db()
    host = get_user_model().objects.get(pk=table.host_id)
    for chair in table.seat_set.filter(user__isnull=True, is_bot=False).order_by("number"):
        table_add_bot(table=table, user=host, seat=chair.number, level=level)


def _start(challenge: Challenge) -> None:
    """The table, its people and bots, and its game (the challenge locked)."""
    accepted = list(challenge.answers.filter(status=AnswerStatus.ACCEPTED).values_list("user_id", flat=True))
    if challenge.rematch:
        if challenge.table is None:
            raise ServiceError("table_closed", "the table has closed", 409)
        table = Table.objects.select_for_update().get(pk=challenge.table_id)
        if table.status != TableStatus.BETWEEN:
            raise ServiceError("next_game_started", "the table has gone on without this rematch", 409)
        keep = {challenge.challenger_id, *accepted}
        for uid in table.seat_set.filter(user__isnull=False).values_list("user_id", flat=True):
            if uid not in keep:  # declined or did not answer: a bot plays the seat
                table_seat_vacate(table=table, user_id=uid)
        seated = set(table.seat_set.filter(user__isnull=False).values_list("user_id", flat=True))
        for uid in accepted:
            if uid not in seated:
                _seat(table, uid)
        _fill_with_bots(table, challenge.bot_level)
        table.refresh_from_db()
        game = table_next_game(table=table, user=challenge.challenger)
    else:
        names = {f.name for f in fields(TableSettings)}
        given = {k: v for k, v in challenge.settings.items() if k in names}
        given["packs"] = tuple(given.get("packs") or ())
        table = table_create(host=challenge.challenger, settings=TableSettings(**given))
        for uid in accepted:
            _seat(table, uid)
        _fill_with_bots(table, challenge.bot_level)
        table.refresh_from_db()
        game = table_start(table=table, user=challenge.challenger)
    challenge.status = ChallengeStatus.STARTED
    challenge.table = table
    challenge.game = game
    challenge.ended_at = timezone.now()
    challenge.save(update_fields=["status", "table", "game", "ended_at"])
    seated = set(table.seat_set.filter(user__isnull=False).values_list("user_id", flat=True))
    url = f"/games/{game.pk}/"
    for uid in _everyone(challenge):
        if uid in seated:
            publish_challenge_started(uid, challenge.pk, url)
        else:
            publish_challenge_changed(uid, challenge.pk, challenge.status)


def challenges_from_set(*, user: AnyUser, value: Any) -> str:
    """The person's "who may challenge me": friends (the default), anyone or nobody."""
    access_signed_in(user)
    if value not in ChallengesFrom.values:
        raise ServiceError("bad_setting", "who may challenge you is friends, anyone or nobody")
    Preference.objects.update_or_create(user_id=user.pk, defaults={"challenges_from": value})
    return str(value)


def challenges_expire() -> int:
    """The beat's: pending challenges past their time end expired; how many."""
    due = list(
        Challenge.objects.filter(status=ChallengeStatus.PENDING, expires_at__lte=timezone.now()).values_list(
            "pk", flat=True
        )[:500]
    )
    ended = 0
    for pk in due:
        try:  # one challenge's failure stops no other's expiry
            with transaction.atomic():
                challenge = (
                    Challenge.objects.select_for_update()
                    .filter(pk=pk, status=ChallengeStatus.PENDING)
                    .first()
                )
                if challenge is not None:
                    _end(challenge, ChallengeStatus.EXPIRED)
                    ended += 1
        except Exception:
            log.exception("could not expire challenge %s", pk)
    return ended
