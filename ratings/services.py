"""Rating a finished game: placings from its log, then OpenSkill, exactly once.

`ratings_record_game` runs in the transaction that ends the game (subscribed to games' "a game
ended", games/ended.py, which the write path calls after writing the last events), so a game is
rated if and only if it ended: a rolled-back end rates nothing, and a second call for the same
game (a retry, a race) finds its placings and does nothing. Only games at rated tables that a
person played, making decisions by their own commands and holding their seat to the end, change
ratings (`Outcome.contested_by`); every finished game gets its placings (profiles show casual and
unrated games too). Aborted games are neither placed nor rated.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import connection, transaction
from django.utils import timezone

from games import sql
from games.models import Game, GameEvent, GameSeat, GameStatus
from games.publish import publish_game_meta
from harehra.placings import COMMAND_DECISIONS, Outcome, outcome_from_log

from .models import Placing, Pool, RatedGame, Rating, RatingChange
from .rating import START, Skill, bot_skill, pool_of, rate


def _bot_level(seat: GameSeat) -> str | None:
    """A bot's level, when seats have one (bots without a level play as "normal")."""
    return getattr(seat, "bot_level", None) or None


def _is_person(seat: GameSeat) -> bool:
    return seat.user_id is not None and not seat.is_bot


def _decided_seats(seats_by_game: dict[int, list[GameSeat]]) -> dict[int, set[int]]:
    """Per game, the seats whose person made a decision by their own command: a decision event for
    the seat whose actor is that seat's user (the timer's autopilot and bots write none)."""
    person_of = {
        (s.game_id, s.seat): s.user_id for seats in seats_by_game.values() for s in seats if _is_person(s)
    }
    out: dict[int, set[int]] = {g: set() for g in seats_by_game}
    rows = (
        GameEvent.objects.filter(
            game_id__in=list(seats_by_game), type__in=COMMAND_DECISIONS, actor__isnull=False
        )
        .values_list("game_id", "payload__seat", "actor_id")
        .distinct()
    )
    for game_id, seat, actor in rows:
        if person_of.get((game_id, seat)) == actor:
            out[game_id].add(seat)
    return out


def game_outcome(game: Game, seats: list[GameSeat] | None = None) -> Outcome:
    """The game's placings, knowing which seats their persons decided for."""
    if seats is None:
        seats = list(GameSeat.objects.filter(game_id=game.pk).order_by("seat"))
    decided = _decided_seats({game.pk: seats})[game.pk]
    return outcome_from_log(sql.events_between(game.pk, 0, game.last_seq), decided=decided)


def _people(seats: list[GameSeat]) -> list[int]:
    return [s.seat for s in seats if _is_person(s)]


def ratings_game_ended(game_id: int) -> None:
    """Subscribed to games' "a game ended" (ratings/apps.py): placings and ratings, once, in the
    transaction that ends the game, never per move."""
    ratings_record_game(game_id=game_id)


def ratings_record_game(*, game_id: int) -> bool:
    """Place (and, at a rated table, rate) a finished game; False when there is nothing to do:
    the game is not finished, or it was placed already. Safe to call again or concurrently."""
    with transaction.atomic(savepoint=False):
        # The game's lock makes concurrent calls for one game take turns; the game's own writer
        # holds it already.
        game = Game.objects.select_for_update(of=("self",)).select_related("table").get(pk=game_id)
        if game.status != GameStatus.FINISHED:
            return False
        if Placing.objects.filter(game_id=game.pk).exists():
            return False
        seats = list(GameSeat.objects.filter(game_id=game.pk).order_by("seat"))
        outcome = game_outcome(game, seats)
        rated = game.table.rated and outcome.contested_by(_people(seats))
        Placing.objects.bulk_create(
            [
                Placing(
                    game_id=game.pk,
                    seat=s.seat,
                    user_id=s.user_id if _is_person(s) else None,
                    is_bot=not _is_person(s),
                    place=outcome.places[s.seat],
                    players=outcome.players,
                    abandoned=s.seat in outcome.abandoned,
                    rated=rated,
                    cumi_given=outcome.stats[s.seat].cumi_given,
                    cumi_taken=outcome.stats[s.seat].cumi_taken,
                    volleys_evaded=outcome.stats[s.seat].volleys_evaded,
                    skips_forwarded=outcome.stats[s.seat].skips_forwarded,
                )
                for s in seats
            ]
        )
        changes = _rate(game, seats, outcome) if rated else []
        _tell_the_game(game.pk, seats, changes)
    return True


def _tell_the_game(game_id: int, seats: list[GameSeat], changes: list[RatingChange]) -> None:
    """The game's sockets are told each person's overall rating before and after it (its end
    screen; ratings.selectors.game_rating_changes reads the same after a reload), once the game's
    end has committed."""
    seat_of = {s.user_id: s.seat for s in seats if _is_person(s)}
    shown = sorted(
        (
            {"seat": seat_of[c.user_id], "before": c.display_before, "after": c.display_after}
            for c in changes
            if c.pool == Pool.ALL
        ),
        key=lambda c: c["seat"],
    )
    data = {"state": "rated" if shown else "unrated", "changes": shown}
    publish_game_meta(game_id, "ratings", data)


def _rate(game: Game, seats: list[GameSeat], outcome: Outcome) -> list[RatingChange]:
    pools = sorted({Pool.ALL.value, pool_of(outcome.players)})
    users = sorted({s.user_id for s in seats if _is_person(s)})
    keys = [(u, p) for u in users for p in pools]
    # Rows first (a newcomer's), then locked, both in one order: games sharing players take turns.
    Rating.objects.bulk_create(
        [Rating(user_id=u, pool=p, mu=START.mu, sigma=START.sigma, display=START.display) for u, p in keys],
        ignore_conflicts=True,
    )
    rows = {
        (r.user_id, r.pool): r
        for r in Rating.objects.select_for_update()
        .filter(user_id__in=users, pool__in=pools)
        .order_by("user", "pool")
    }
    rated_game = RatedGame.objects.create(game=game, pool=pool_of(outcome.players))
    changes: list[RatingChange] = []
    for pool in pools:
        before = [
            Skill(rows[s.user_id, pool].mu, rows[s.user_id, pool].sigma)
            if _is_person(s)
            else bot_skill(_bot_level(s))
            for s in seats
        ]
        after = rate(before, outcome.places)
        for s in seats:
            if not _is_person(s):
                continue  # bots keep their level's rating
            row, old, new = rows[s.user_id, pool], before[s.seat], after[s.seat]
            changes.append(_change(rated_game, s.user_id, pool, outcome.places[s.seat], old, new))
            row.mu, row.sigma, row.display = new.mu, new.sigma, new.display
            row.games += 1
            row.wins += outcome.places[s.seat] == 1
    RatingChange.objects.bulk_create(changes)
    _save_ratings(list(rows.values()))
    return changes


def _save_ratings(rows: list[Rating]) -> None:
    """The new figures of `rows`, in one statement on PostgreSQL: bulk_update's CASE expressions
    cost several times more to build than to run (under
    a profiler, building them was most of the rating step)."""
    now = timezone.now()
    if connection.vendor != "postgresql":
        for r in rows:
            Rating.objects.filter(pk=r.pk).update(
                mu=r.mu, sigma=r.sigma, display=r.display, games=r.games, wins=r.wins, updated_at=now
            )
        return
    table = connection.ops.quote_name(Rating._meta.db_table)
    values = ", ".join(["(%s, %s::float8, %s::float8, %s, %s, %s)"] * len(rows))
    params: list[object] = [x for r in rows for x in (r.pk, r.mu, r.sigma, r.display, r.games, r.wins)]
    with connection.cursor() as cur:
        cur.execute(
            f"UPDATE {table} AS r SET mu = v.mu, sigma = v.sigma, display = v.display, games = v.games, "
            f"wins = v.wins, updated_at = %s FROM (VALUES {values}) "
            "AS v(id, mu, sigma, display, games, wins) WHERE r.id = v.id",
            [now, *params],
        )


def _change(
    rated_game: RatedGame, user_id: int, pool: str, place: int, old: Skill, new: Skill
) -> RatingChange:
    return RatingChange(
        rated_game=rated_game,
        user_id=user_id,
        pool=pool,
        place=place,
        mu_before=old.mu,
        sigma_before=old.sigma,
        mu_after=new.mu,
        sigma_after=new.sigma,
        display_before=old.display,
        display_after=new.display,
    )


# --- rebuilding the projection -----------------------------------------------------------------

PlacingFigures = tuple[int, bool, bool]  # place, abandoned, rated


@dataclass
class Refold:
    skills: dict[tuple[int, str], Skill] = field(default_factory=dict)
    games: dict[tuple[int, str], int] = field(default_factory=dict)
    wins: dict[tuple[int, str], int] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)  # game ids, in the order they were folded
    unrecorded: list[int] = field(default_factory=list)  # rated games with no RatedGame row
    # Games rated under an earlier rule that today's leaves unrated: their rating record is voided.
    dropped: list[int] = field(default_factory=list)
    # Per game read, per seat: the placing's figures as the log gives them today.
    placings: dict[int, dict[int, PlacingFigures]] = field(default_factory=dict)


def _games_to_refold() -> tuple[list[Game], set[int]]:
    """Every finished game at a rated table with a person in it, but those whose rating record is
    voided: the recorded ones in the order they were rated (RatedGame's id), then the others in the
    order they ended; and which of them are recorded."""
    records = list(RatedGame.objects.select_related("game").order_by("id"))
    recorded = [r.game for r in records if r.voided_at is None]
    seen = {r.game_id for r in records}
    rest = [
        g
        for g in Game.objects.filter(
            status=GameStatus.FINISHED,
            table__rated=True,
            game_seats__user__isnull=False,
            game_seats__is_bot=False,
        )
        .distinct()
        .order_by("finished_at", "id")
        if g.pk not in seen
    ]
    return recorded + rest, {g.pk for g in recorded}


def ratings_refold() -> Refold:
    """Every rated game folded again from its event log, from nothing, by today's rule of which
    games are rated and how seats place."""
    out = Refold()
    games, recorded = _games_to_refold()
    seats_by_game: dict[int, list[GameSeat]] = {g.pk: [] for g in games}
    for s in GameSeat.objects.filter(game_id__in=list(seats_by_game)).order_by("game_id", "seat"):
        seats_by_game[s.game_id].append(s)
    decided = _decided_seats(seats_by_game)
    for game in games:
        seats = seats_by_game[game.pk]
        outcome = outcome_from_log(sql.events_between(game.pk, 0, game.last_seq), decided=decided[game.pk])
        rated = outcome.contested_by(_people(seats))
        out.placings[game.pk] = {
            s.seat: (outcome.places[s.seat], s.seat in outcome.abandoned, rated) for s in seats
        }
        if not rated:
            if game.pk in recorded:
                out.dropped.append(game.pk)
            continue
        if game.pk not in recorded:
            out.unrecorded.append(game.pk)
        out.order.append(game.pk)
        for pool in sorted({Pool.ALL.value, pool_of(outcome.players)}):
            before = [
                out.skills.get((s.user_id, pool), START) if _is_person(s) else bot_skill(_bot_level(s))
                for s in seats
            ]
            after = rate(before, outcome.places)
            for s in seats:
                if _is_person(s):
                    key = (s.user_id, pool)
                    out.skills[key] = after[s.seat]
                    out.games[key] = out.games.get(key, 0) + 1
                    out.wins[key] = out.wins.get(key, 0) + (outcome.places[s.seat] == 1)
    return out


def _stale_placings(refold: Refold) -> list[tuple[Placing, PlacingFigures]]:
    """The stored placings of the refolded games that differ from the log, with their figures."""
    out = []
    for p in Placing.objects.filter(game_id__in=list(refold.placings)).order_by("game_id", "seat"):
        want = refold.placings[p.game_id].get(p.seat)
        if want is not None and (p.place, p.abandoned, p.rated) != want:
            out.append((p, want))
    return out


def ratings_differences(refold: Refold, stored: Iterable[Rating] | None = None) -> list[str]:
    """Where the stored ratings and placings differ from the refold (nothing: they are equal,
    float for float)."""
    rows = {(r.user_id, r.pool): r for r in (stored if stored is not None else Rating.objects.all())}
    lines = [f"game {g} is rated but has no rating record" for g in refold.unrecorded]
    lines += [
        f"game {g} is rated but no person played it to the end with a decision of their own: "
        "it is not rated now"
        for g in refold.dropped
    ]
    lines += [
        f"game {p.game_id} seat {p.seat}: placing stored (place, abandoned, rated) "
        f"{(p.place, p.abandoned, p.rated)}, refolded {want}"
        for p, want in _stale_placings(refold)
    ]
    for key in sorted(set(rows) | set(refold.skills), key=lambda k: (k[0], k[1])):
        row, skill = rows.get(key), refold.skills.get(key)
        if row is None or skill is None:
            if row is not None and row.games == 0 and skill is None:
                continue
            lines.append(
                f"user {key[0]} pool {key[1]}: stored {row is not None}, refolded {skill is not None}"
            )
            continue
        got = (row.mu, row.sigma, row.games, row.wins, row.display)
        want = (skill.mu, skill.sigma, refold.games[key], refold.wins[key], skill.display)
        if got != want:
            lines.append(f"user {key[0]} pool {key[1]}: stored {got}, refolded {want}")
    return lines


def ratings_write(refold: Refold) -> None:
    """Store the refold as the ratings and placings. The rating history is left as it was written:
    a dropped game's RatedGame is marked voided (its RatingChange rows stay, out of the history
    shown, as the record of what was once applied), not deleted."""
    with transaction.atomic():
        for game_id in refold.unrecorded:
            game = Game.objects.get(pk=game_id)
            RatedGame.objects.get_or_create(game=game, defaults={"pool": pool_of(game.players)})
        RatedGame.objects.filter(game_id__in=refold.dropped, voided_at__isnull=True).update(
            voided_at=timezone.now()
        )
        stale = _stale_placings(refold)
        for p, (place, abandoned, rated) in stale:
            p.place, p.abandoned, p.rated = place, abandoned, rated
        Placing.objects.bulk_update([p for p, _ in stale], ["place", "abandoned", "rated"])
        stored = {(r.user_id, r.pool): r for r in Rating.objects.select_for_update().order_by("user", "pool")}
        for key, skill in refold.skills.items():
            row = stored.pop(key, None) or Rating(user_id=key[0], pool=key[1])
            row.mu, row.sigma, row.display = skill.mu, skill.sigma, skill.display
            row.games, row.wins = refold.games[key], refold.wins[key]
            row.save()
        Rating.objects.filter(pk__in=[r.pk for r in stored.values()]).delete()
