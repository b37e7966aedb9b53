"""Ratings can't be farmed by leaving together: a game no person played to its end, making decisions
of their own, is placed but not rated, and the abandoned seats share the very last place."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.models import Game, GameSeat, GameStatus, Table
from games.services.moves import game_command_submit_for_seat
from games.services.tables import table_leave
from ratings.models import Placing, RatedGame, Rating, RatingChange
from ratings.rating import START, rate
from ratings.selectors import leaderboard, rating_history, user_placing_stats
from ratings.services import game_outcome, ratings_differences, ratings_refold
from tests.factories import play_out, start_table


def _figures() -> dict[tuple[int, str], tuple[float, float, int, int, int]]:
    return {(r.user_id, r.pool): (r.mu, r.sigma, r.games, r.wins, r.display) for r in Rating.objects.all()}


def _placings(game: Game) -> dict[int, tuple[int, bool, bool]]:
    return {p.seat: (p.place, p.abandoned, p.rated) for p in Placing.objects.filter(game=game)}


def _both_leave_and_bots_finish(people: list[Any], seed: int) -> Game:
    """The farm: two people start a rated two-seat table, both leave before any move, and the bots
    standing in for them play the game out."""
    game = start_table(people)
    table = Table.objects.get(pk=game.table_id)
    for user in people:
        table_leave(table=table, user=user)
    assert GameSeat.objects.filter(game=game, bot_playing=True).count() == 2
    game = play_out(game, random.Random(seed))
    assert game.status == GameStatus.FINISHED
    return game


@pytest.mark.django_db
def test_two_people_leaving_a_rated_table_together_farm_no_rating(make_user: Any, settings: Any) -> None:
    settings.RATINGS_LEADERBOARD_MIN_GAMES = 1
    alice, bob = make_user(), make_user()
    real = play_out(start_table([alice, bob]), random.Random(1))  # one game they really played
    before = _figures()
    assert len(before) == 4  # both players, overall and at two seats
    farmed = [_both_leave_and_bots_finish([alice, bob], seed) for seed in range(2, 6)]
    for game in farmed:
        # Placed (profiles show it) but not rated; both leavers share the last place, 2nd.
        assert _placings(game) == {0: (2, True, False), 1: (2, True, False)}
        assert not RatedGame.objects.filter(game=game).exists()
    assert _figures() == before
    assert RatedGame.objects.count() == 1
    # What the pages read: the farmed games count as games played, never as wins or rated games.
    real_winner = Placing.objects.get(game=real, place=1).user
    assert {r["name"]: r["wins"] for r in leaderboard()} == {alice.username: 0, bob.username: 0} | {
        real_winner.username: 1
    }
    for user in (alice, bob):
        stats = user_placing_stats(user)
        assert stats["rated_games"] == 1 and stats["games"] == 5 and stats["abandoned"] == 4
        assert stats["by_table_size"]["2"]["wins"] == (user == real_winner)
    assert ratings_differences(ratings_refold()) == []


@pytest.mark.django_db
def test_a_game_only_the_timer_and_bots_moved_in_is_not_rated(make_user: Any) -> None:
    """Nobody leaves, nobody decides: every move is the autopilot's (a command with no actor)."""
    alice, bob = make_user(), make_user()
    game = start_table([alice, bob])
    rng = random.Random(9)
    from games.eventlog import load_state
    from harehra import legal_commands

    while (game := Game.objects.get(pk=game.pk)).status == GameStatus.RUNNING:
        state = load_state(game)
        assert state.awaiting is not None
        seat = state.awaiting.seat
        command = {k: v for k, v in rng.choice(legal_commands(state, seat)).items() if k != "seat"}
        game_command_submit_for_seat(game=game, seat=seat, command=command, guard_seq=game.last_seq)
    assert not RatedGame.objects.exists() and not Rating.objects.exists()
    placings = _placings(game)
    assert sorted(p for p, _, _ in placings.values()) == [1, 2]  # placed by the log as usual
    assert not any(rated for _, _, rated in placings.values())


@pytest.mark.django_db
@pytest.mark.parametrize("leavers", [1, 2])
def test_leavers_place_below_everyone_who_played_and_the_game_is_rated(make_user: Any, leavers: int) -> None:
    """Three seats: one person plays to the end; one leaver beside a bot, or two leaving together.
    The leavers share the last place, 3rd, below the bot too, and the game is rated."""
    people = [make_user() for _ in range(1 + leavers)]
    game = start_table(people, bots=2 - leavers)
    table = Table.objects.get(pk=game.table_id)
    for user in people[1:]:
        table_leave(table=table, user=user)
    game = play_out(game, random.Random(30 + leavers))
    seats = {s.seat: s for s in GameSeat.objects.filter(game=game)}
    stayer = next(n for n, s in seats.items() if s.user_id == people[0].pk)
    left = {n for n, s in seats.items() if s.user_id in {u.pk for u in people[1:]}}
    placings = _placings(game)
    assert {n for n, (_, abandoned, _) in placings.items() if abandoned} == left
    for n in left:
        assert placings[n] == (3, True, True)
    others = set(seats) - left
    assert others and all(placings[n][0] < 3 for n in others)  # the stayer and any bot: above the leavers
    assert placings[stayer][2] is True
    assert RatedGame.objects.filter(game=game).exists()
    outcome = game_outcome(game)
    assert outcome.contested_by([stayer, *left]) and stayer in outcome.decided
    ratings = {r.user_id: r for r in Rating.objects.filter(pool="all")}
    assert set(ratings) == {u.pk for u in people}
    for user in people[1:]:
        assert ratings[user.pk].mu < START.mu and ratings[user.pk].wins == 0
    assert ratings[people[0].pk].mu > START.mu


def _rate_the_old_way(game: Game) -> None:
    """What the rule before this one stored for a two-seat game both people left: both 1st (last
    place shared, counted as in sport), rated, each a win, OpenSkill's figures for a tie."""
    seats = list(GameSeat.objects.filter(game=game).order_by("seat"))
    Placing.objects.filter(game=game).update(place=1, rated=True)
    rated_game, _ = RatedGame.objects.get_or_create(game=game, defaults={"pool": "2"})
    after = rate([START, START], [1, 1])
    for s in seats:
        for pool in ("all", "2"):
            Rating.objects.update_or_create(
                user_id=s.user_id,
                pool=pool,
                defaults={
                    "mu": after[s.seat].mu,
                    "sigma": after[s.seat].sigma,
                    "display": after[s.seat].display,
                    "games": 1,
                    "wins": 1,
                },
            )
            RatingChange.objects.get_or_create(
                rated_game=rated_game,
                user_id=s.user_id,
                pool=pool,
                defaults={
                    "place": 1,
                    "mu_before": START.mu,
                    "sigma_before": START.sigma,
                    "mu_after": after[s.seat].mu,
                    "sigma_after": after[s.seat].sigma,
                    "display_before": START.display,
                    "display_after": after[s.seat].display,
                },
            )


@pytest.mark.django_db
def test_rebuild_ratings_drops_a_game_rated_under_the_old_rule(make_user: Any) -> None:
    alice, bob = make_user(), make_user()
    farmed = _both_leave_and_bots_finish([alice, bob], seed=41)
    _rate_the_old_way(farmed)
    assert Rating.objects.get(user=alice, pool="all").display > START.display  # the farmed gain
    # A game they then really play is rated on top of the farmed figures.
    real = play_out(start_table([alice, bob]), random.Random(42))
    assert RatedGame.objects.get(game=real).pk > RatedGame.objects.get(game=farmed).pk

    lines = ratings_differences(ratings_refold())
    assert any(line.startswith(f"game {farmed.pk} is rated but no person played it") for line in lines)
    assert any(line.startswith(f"game {farmed.pk} seat 0: placing stored") for line in lines)
    assert sum(line.startswith(("user ",)) for line in lines) == 4  # two players, two pools
    with pytest.raises(CommandError):
        call_command("rebuild_ratings")

    call_command("rebuild_ratings", "--write")
    assert ratings_differences(ratings_refold()) == []
    call_command("rebuild_ratings")  # no difference left: exits 0
    # The figures are those of the real game alone, from the start.
    places = game_outcome(real).places
    seat_of = {s.user_id: s.seat for s in GameSeat.objects.filter(game=real)}
    expected = rate([START, START], places)
    for user in (alice, bob):
        seat = seat_of[user.pk]
        for pool in ("all", "2"):
            r = Rating.objects.get(user=user, pool=pool)
            assert (r.mu, r.sigma, r.games, r.wins) == (
                expected[seat].mu,
                expected[seat].sigma,
                1,
                int(places[seat] == 1),
            )
    # The farmed game's placings are corrected; its rating record is kept, marked voided, and the
    # history shown leaves it out.
    assert _placings(farmed) == {0: (2, True, False), 1: (2, True, False)}
    record = RatedGame.objects.get(game=farmed)
    assert record.voided_at is not None
    assert RatingChange.objects.filter(rated_game=record).count() == 4
    assert [h["game"] for h in rating_history(alice)] == [real.pk]
