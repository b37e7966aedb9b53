"""Placings from the event log: pure, on hand-written logs."""

from __future__ import annotations

from typing import Any

import pytest

from harehra.placings import outcome_from_log
from ratings.rating import START, bot_skill, display_rating, rate


def started(players: int) -> dict[str, Any]:
    return {"type": "GameStarted", "players": players}


def turn(seat: int) -> dict[str, Any]:
    return {"type": "TurnStarted", "seat": seat}


def out(seat: int) -> dict[str, Any]:
    return {"type": "PlayerEliminated", "seat": seat}


def won(winner: int) -> dict[str, Any]:
    return {"type": "GameEnded", "result": "win", "winner": winner, "survivors": [winner]}


def test_last_player_left_is_first_and_the_others_in_reverse_order_of_elimination() -> None:
    log = [started(4), turn(0), out(2), turn(1), out(0), turn(3), out(1), won(3)]
    assert outcome_from_log(log).places == [3, 2, 4, 1]


def test_two_players() -> None:
    assert outcome_from_log([started(2), turn(0), out(1), won(0)]).places == [1, 2]


def test_players_eliminated_by_the_same_move_share_a_place() -> None:
    log = [started(4), turn(0), out(1), out(2), turn(3), out(0), won(3)]
    assert outcome_from_log(log).places == [2, 3, 3, 1]


def test_a_turn_limit_draw_shares_first_place_among_the_players_left() -> None:
    log = [
        started(4),
        turn(0),
        out(1),
        turn(2),
        {"type": "GameEnded", "result": "draw", "winner": None, "survivors": [0, 2, 3]},
    ]
    outcome = outcome_from_log(log)
    assert outcome.result == "draw"
    assert outcome.places == [1, 4, 1, 1]


def test_a_seat_a_bot_holds_at_the_end_is_last_whatever_the_bot_reached() -> None:
    log = [
        started(3),
        turn(0),
        {"type": "SeatTakenByBot", "seat": 0, "reason": "left"},
        turn(1),
        out(2),
        won(0),  # the bot standing in for seat 0 won
    ]
    outcome = outcome_from_log(log)
    assert outcome.abandoned == {0}
    assert outcome.places == [3, 1, 2]


def test_a_seat_taken_back_before_the_end_keeps_its_place() -> None:
    log = [
        started(2),
        {"type": "SeatTakenByBot", "seat": 0, "reason": "away"},
        turn(0),
        {"type": "SeatReclaimed", "seat": 0},
        turn(1),
        out(1),
        won(0),
    ]
    assert outcome_from_log(log).places == [1, 2]


def test_a_seat_handed_to_a_bot_after_its_elimination_keeps_its_place() -> None:
    log = [
        started(3),
        turn(0),
        out(1),
        {"type": "SeatTakenByBot", "seat": 1, "reason": "left"},
        turn(2),
        out(0),
        won(2),
    ]
    outcome = outcome_from_log(log)
    assert outcome.abandoned == frozenset()
    assert outcome.places == [2, 3, 1]


def test_statistics_come_from_the_events() -> None:
    log = [
        started(2),
        turn(0),
        {"type": "VolleyPending", "attacker": 0, "target": 1, "count": 2},
        {"type": "ReactionPlayed", "seat": 1, "card": "taptap", "kind": "volley"},
        turn(1),
        {"type": "VolleyPending", "attacker": 1, "target": 0, "count": 3},
        {"type": "ReactionDeclined", "seat": 0, "kind": "volley"},
        {"type": "DamageTaken", "seat": 0, "amount": 3, "damage": 3},
        {"type": "ReactionPlayed", "seat": 1, "card": "strom", "kind": "skip"},
        turn(0),
        out(0),
        won(1),
    ]
    s = outcome_from_log(log).stats
    assert (s[0].cumi_given, s[0].cumi_taken, s[0].volleys_evaded, s[0].skips_forwarded) == (2, 3, 0, 0)
    assert (s[1].cumi_given, s[1].cumi_taken, s[1].volleys_evaded, s[1].skips_forwarded) == (3, 0, 1, 1)


def test_an_aborted_game_has_no_placings() -> None:
    with pytest.raises(ValueError):
        outcome_from_log([started(2), turn(0), {"type": "GameAborted"}])


def test_shared_places_move_equal_ratings_equally() -> None:
    a, b, c = rate([START, START, START], [1, 1, 3])
    assert a == b and a.mu > START.mu > c.mu


def test_the_display_rating_is_conservative_and_starts_at_1000() -> None:
    assert START.display == display_rating(START.mu, START.sigma) == 1000
    (winner, loser) = rate([START, START], [1, 2])
    assert winner.display > 1000 and loser.display < winner.display
    assert bot_skill(None) == bot_skill("normal") == bot_skill("no-such-level")


def _left(seat: int) -> dict[str, Any]:
    return {"type": "SeatTakenByBot", "seat": seat, "reason": "left"}


def test_two_people_leaving_a_two_seat_table_share_last_place_not_first() -> None:
    log = [started(2), _left(0), _left(1), turn(0), out(1), won(0)]
    outcome = outcome_from_log(log, decided={0, 1})
    assert outcome.abandoned == {0, 1}
    assert outcome.places == [2, 2]
    assert not outcome.contested_by([0, 1])  # every person left: not a game to rate


def test_abandoned_seats_share_the_tables_last_place() -> None:
    log = [started(4), turn(0), _left(1), _left(2), turn(3), out(0), won(3)]
    assert outcome_from_log(log, decided={0}).places == [2, 4, 4, 1]


def test_a_game_is_contested_only_by_a_person_who_decided_and_stayed() -> None:
    log = [started(3), turn(0), _left(1), turn(2), out(0), won(2)]
    people = [0, 1]  # seat 2 is a bot
    assert outcome_from_log(log, decided={0}).contested_by(people)
    assert not outcome_from_log(log, decided=set()).contested_by(people)  # the autopilot moved
    assert not outcome_from_log(log, decided={1}).contested_by(people)  # the one who decided left
    assert not outcome_from_log(log, decided={2}).contested_by(people)  # only the bot decided
