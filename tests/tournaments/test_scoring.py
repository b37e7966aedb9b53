"""Scoring, the pure function: points by place, shared places, streaks, tie-breaks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.scoring import (
    POINTS,
    Line,
    Tally,
    pause_wait,
    sole_winners,
    standings,
    table_points,
    tally_bye,
    tally_game,
)


@pytest.mark.parametrize(
    ("places", "points"),
    [
        ([1, 2], [12, 0]),
        ([2, 1, 3], [6, 12, 0]),
        ([3, 2, 4, 1], [4, 8, 0, 12]),
        ([1, 2, 3, 4, 5], [12, 9, 6, 3, 0]),
        ([1, 2, 3, 4, 5, 6], [12, 10, 7, 5, 2, 0]),
        ([2, 3, 3, 1], [8, 2, 2, 12]),  # eliminated by one move: 3rd and 4th split 4 + 0
        ([1, 1, 3, 4], [10, 10, 4, 0]),  # a draw between two survivors
        ([1, 2, 4, 4], [12, 8, 0, 0]),  # two left and were placed last together: last's points
        ([1, 2, 2, 2, 5], [12, 6, 6, 6, 0]),
        ([2, 2], [0, 0]),  # both left a two-seat table: both last
    ],
)
def test_points_by_place(places: list[int], points: list[int]) -> None:
    assert table_points(places) == points


def test_the_average_seat_is_worth_six_at_every_size() -> None:
    for n, scale in POINTS.items():
        assert sum(scale) == 6 * n and all(scale[i] + scale[n - 1 - i] == 12 for i in range(n))


def _sport(keys: list[int]) -> list[int]:
    """Places as placings count them: 1 + the seats ranked strictly better."""
    return [1 + sum(1 for k in keys if k < mine) for mine in keys]


@given(st.integers(2, 6).flatmap(lambda n: st.lists(st.integers(0, n), min_size=n, max_size=n)))
def test_shared_places_never_score_more_than_the_table_holds(keys: list[int]) -> None:
    places = _sport(keys)
    pts = table_points(places)
    assert all(0 <= p <= 12 for p in pts)
    assert sum(pts) <= 6 * len(places)


def test_sole_winners() -> None:
    assert sole_winners([2, 1, 3]) == [False, True, False]
    assert sole_winners([1, 1, 3]) == [False, False, False]


def test_an_arena_streak_doubles_from_the_third_sole_win_until_broken() -> None:
    t = Tally()
    counted = [
        tally_game(t, p, w, arena=True)
        for p, w in [(12, True), (12, True), (12, True), (8, False), (12, True)]
    ]
    assert counted == [12, 12, 24, 16, 12]
    assert (t.score, t.games, t.wins, t.streak) == (76, 5, 4, 1)
    swiss = Tally()
    assert [tally_game(swiss, 12, True, arena=False) for _ in range(3)] == [12, 12, 12]
    assert tally_bye(swiss) == 6 and (swiss.score, swiss.byes, swiss.games) == (42, 1, 3)


def test_swiss_tie_breaks_opposition_then_wins_then_entry() -> None:
    lines = [
        Line(1, 20, 1, 2, [[3], [4]]),  # met 3 (30) and 4 (2): opposition 32
        Line(2, 20, 1, 2, [[3], [3]]),  # met 3 twice: 60
        Line(3, 30, 2, 2, [[1], [2]]),
        Line(4, 2, 0, 2, [[1], [5]]),
        Line(5, 2, 0, 2, [[4], [4]]),
    ]
    rows = standings(lines, swiss=True)
    assert [(r.entry, r.rank) for r in rows] == [(3, 1), (2, 2), (1, 3), (4, 4), (5, 5)]
    assert rows[1].opposition == 60


def test_arena_tie_breaks_wins_then_fewer_games_and_shared_ranks() -> None:
    lines = [Line(1, 24, 1, 4), Line(2, 24, 2, 5), Line(3, 24, 2, 3), Line(4, 24, 2, 3)]
    rows = standings(lines, swiss=False)
    assert [(r.entry, r.rank) for r in rows] == [(3, 1), (4, 1), (2, 3), (1, 4)]


def test_removed_entrants_come_after_everyone_still_in() -> None:
    lines = [
        Line(1, 40, 3, 4, removed=True),
        Line(2, 12, 1, 4),
        Line(3, 8, 0, 4),
        Line(4, 30, 2, 4, removed=True),
    ]
    for swiss in (True, False):
        rows = standings(lines, swiss=swiss)
        assert [(r.entry, r.rank, r.removed) for r in rows] == [
            (2, 1, False), (3, 2, False), (1, 3, True), (4, 4, True)
        ]  # fmt: skip
        assert rows[2].opposition == 0  # their own figures are kept (no games met anyone here)


def test_pause_wait_grows_with_pauses() -> None:
    assert [pause_wait(n) for n in (0, 1, 2, 3, 9, 20)] == [0, 0, 15, 30, 120, 120]
