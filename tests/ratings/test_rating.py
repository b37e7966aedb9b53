"""Rating finished games in the transaction that ends them, exactly once, and refolding them."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from games.eventlog import events_with_seq
from games.models import Game, GameSeat, GameStatus
from games.services.moves import game_abort
from games.services.seats import seat_hand_to_bot
from harehra.placings import outcome_from_log
from ratings.models import Placing, RatedGame, Rating, RatingChange
from ratings.rating import START, bot_skill, rate
from ratings.services import game_outcome, ratings_differences, ratings_record_game, ratings_refold
from tests.factories import next_game, play_out, start_table


def _ratings(pool: str = "all") -> dict[int, Rating]:
    return {r.user_id: r for r in Rating.objects.filter(pool=pool)}


@pytest.mark.django_db
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_finished_rated_game_rates_its_players_by_their_placings(make_user: Any, players: int) -> None:
    people = [make_user() for _ in range(players)]
    game = play_out(start_table(people), random.Random(players))
    assert game.status == GameStatus.FINISHED
    outcome = game_outcome(game)
    seat_of = {s.user_id: s.seat for s in GameSeat.objects.filter(game=game)}
    # What OpenSkill makes of these places from the starting ratings, float for float.
    expected = rate([START] * players, outcome.places)
    for pool in ("all", str(players)):
        ratings = _ratings(pool)
        assert set(ratings) == {u.pk for u in people}
        for user in people:
            seat = seat_of[user.pk]
            r = ratings[user.pk]
            assert (r.mu, r.sigma, r.games) == (expected[seat].mu, expected[seat].sigma, 1)
            assert r.wins == (outcome.places[seat] == 1)
            assert r.display == expected[seat].display
    winner = next(s for s, p in enumerate(outcome.places) if p == 1)
    last = max(range(players), key=lambda s: outcome.places[s])
    assert expected[winner].mu > START.mu > expected[last].mu
    placings = {p.seat: p.place for p in Placing.objects.filter(game=game)}
    assert placings == dict(enumerate(outcome.places))
    assert RatingChange.objects.filter(rated_game__game=game).count() == 2 * players


@pytest.mark.django_db
def test_a_casual_game_is_placed_but_not_rated(make_user: Any) -> None:
    people = [make_user(), make_user()]
    game = play_out(start_table(people, rated=False), random.Random(1))
    assert Placing.objects.filter(game=game, rated=False).count() == 2
    assert not RatedGame.objects.exists() and not Rating.objects.exists()


@pytest.mark.django_db
def test_an_aborted_game_is_not_rated(make_user: Any) -> None:
    people = [make_user(), make_user()]
    game = start_table(people)
    game_abort(game=game, actor_id=None)
    assert Game.objects.get(pk=game.pk).status == GameStatus.ABORTED
    assert ratings_record_game(game_id=game.pk) is False
    assert not Placing.objects.exists() and not Rating.objects.exists()


@pytest.mark.django_db
def test_bots_have_a_fixed_rating_and_a_seat_handed_to_a_bot_is_rated_last(make_user: Any) -> None:
    alice, bob = make_user(), make_user()
    game = start_table([alice, bob], bots=1)
    bob_seat = GameSeat.objects.get(game=game, user=bob).seat
    seat_hand_to_bot(game=game, seat=bob_seat, reason="left")  # bob leaves; a bot plays on for him
    game = play_out(game, random.Random(7))
    outcome = game_outcome(game)
    assert outcome.abandoned == {bob_seat}
    assert outcome.places[bob_seat] == 3  # last, whatever the bot reached
    seats = list(GameSeat.objects.filter(game=game).order_by("seat"))
    before = [bot_skill("normal") if s.is_bot else START for s in seats]
    expected = rate(before, outcome.places)
    ratings = _ratings()
    assert set(ratings) == {alice.pk, bob.pk}  # the bot has no rating row: it is never updated
    for s in seats:
        if s.user_id:
            assert (ratings[s.user_id].mu, ratings[s.user_id].sigma) == (
                expected[s.seat].mu,
                expected[s.seat].sigma,
            )
    assert Placing.objects.get(game=game, seat=bob_seat).abandoned


@pytest.mark.django_db
def test_rating_again_changes_nothing(make_user: Any) -> None:
    people = [make_user(), make_user(), make_user()]
    game = play_out(start_table(people), random.Random(3))
    before = [(r.user_id, r.pool, r.mu, r.sigma, r.games) for r in Rating.objects.order_by("user", "pool")]
    assert ratings_record_game(game_id=game.pk) is False  # a retry, a second follow-up: nothing
    after = [(r.user_id, r.pool, r.mu, r.sigma, r.games) for r in Rating.objects.order_by("user", "pool")]
    assert after == before
    assert RatedGame.objects.count() == 1 and Placing.objects.count() == 3


@pytest.mark.django_db(transaction=True)
def test_two_racing_calls_rate_a_game_once(make_user: Any) -> None:
    people = [make_user(), make_user()]
    game = play_out(start_table(people), random.Random(5))
    # Undo what the game's end wrote, as if the rating had not happened yet (a follow-up's view).
    RatingChange.objects.all().delete()
    RatedGame.objects.all().delete()
    Rating.objects.all().delete()
    Placing.objects.all().delete()
    barrier = threading.Barrier(4)
    results: list[bool] = []

    def rate_it() -> None:
        try:
            barrier.wait()
            results.append(ratings_record_game(game_id=game.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=rate_it) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False, False, False, True]
    assert RatedGame.objects.count() == 1
    assert all(r.games == 1 for r in Rating.objects.all()) and Rating.objects.count() == 4


@pytest.mark.django_db(transaction=True)
def test_games_ending_at_once_with_a_shared_player_are_refolded_exactly(make_user: Any) -> None:
    """Two tables share a player and end their games at the same time, each on its own thread:
    whichever rates first, the refold in rating order gives the stored figures."""
    shared = make_user()
    tables = [[shared, make_user()], [shared, make_user()]]
    games = [start_table(p) for p in tables]
    # Play each game to its very last move, then make both last moves at once.
    barrier = threading.Barrier(2)

    def finish(game: Game, seed: int) -> None:
        try:
            barrier.wait()
            play_out(game, random.Random(seed))
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=(g, i)) for i, g in enumerate(games)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert RatedGame.objects.count() == 2
    assert ratings_differences(ratings_refold()) == []
    assert Rating.objects.get(user=shared, pool="all").games == 2


@pytest.mark.django_db
def test_rebuild_ratings_reproduces_the_stored_ratings_after_many_random_games(make_user: Any) -> None:
    rng = random.Random(2026)
    users = [make_user() for _ in range(7)]
    for _ in range(14):
        players = rng.choice([2, 2, 3, 4, 5])
        people = rng.sample(users, min(players, 4))
        bots = players - len(people)
        game = play_out(start_table(people, bots=bots, rated=rng.random() < 0.85), rng)
        if rng.random() < 0.4:
            play_out(next_game(game), rng)  # a series: the table's next game
    assert RatedGame.objects.count() >= 10
    refold = ratings_refold()
    assert ratings_differences(refold) == []
    call_command("rebuild_ratings")  # exits 1 on any difference
    # A tampered rating is found.
    row = Rating.objects.filter(pool="all").first()
    assert row is not None
    Rating.objects.filter(pk=row.pk).update(mu=row.mu + 1e-9)
    assert len(ratings_differences(ratings_refold())) == 1
    call_command("rebuild_ratings", "--write")
    assert ratings_differences(ratings_refold()) == []


def test_outcome_of_a_real_log_matches_the_engine(db: Any, make_user: Any) -> None:
    people = [make_user(), make_user(), make_user(), make_user()]
    game = play_out(start_table(people), random.Random(11))
    outcome = outcome_from_log(e for _, e in events_with_seq(game))
    assert sorted(outcome.places)[0] == 1
    assert outcome.places[game.winner_seat] == 1


@pytest.mark.django_db
def test_a_turn_limit_draw_shares_first_place_among_the_players_left(make_user: Any) -> None:
    """The end of a turn-limit draw, appended through the one append path as the engine writes it
    (R14): one player out earlier, two left sharing first."""
    from django.db import transaction

    from games.eventlog import load_state
    from games.services.moves import game_append, game_lock
    from harehra import apply

    people = [make_user(), make_user(), make_user()]
    game = start_table(people)
    _first_move_by_its_person(game)  # a game nobody played themselves is not rated
    with transaction.atomic():
        game = game_lock(game.pk)
        state = load_state(game)
        out = {"type": "PlayerEliminated", "version": 1, "seat": 2, "cards": list(state.hands[2])}
        draw = {"type": "GameEnded", "version": 1, "result": "draw", "winner": None, "survivors": [0, 1]}
        after = apply(apply(state, out), draw)
        assert after.over
        game_append(game, [out, draw], before=state, after=after, actor_id=None)
    game = Game.objects.get(pk=game.pk)
    assert game.status == GameStatus.FINISHED and game.result == "draw"
    assert {p.seat: p.place for p in Placing.objects.filter(game=game)} == {0: 1, 1: 1, 2: 3}
    seats = {s.seat: s.user_id for s in GameSeat.objects.filter(game=game)}
    ratings = _ratings()
    first, second, last = (ratings[seats[s]] for s in (0, 1, 2))
    assert (first.mu, first.sigma) == (second.mu, second.sigma) and first.mu > last.mu
    assert first.wins == second.wins == 1 and last.wins == 0


def _first_move_by_its_person(game: Game) -> int:
    """The awaited seat's person makes a legal move by their own command; their seat."""
    from games.eventlog import load_state
    from games.services.moves import game_command_submit
    from harehra import legal_commands

    state = load_state(Game.objects.get(pk=game.pk))
    assert state.awaiting is not None
    seat = state.awaiting.seat
    user = GameSeat.objects.get(game=game, seat=seat).user
    command = {k: v for k, v in legal_commands(state, seat)[0].items() if k != "seat"}
    game_command_submit(game=game, user=user, command=command, client_cmd_id=f"first-{game.pk}")
    return seat
