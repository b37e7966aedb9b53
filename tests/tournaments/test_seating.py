"""Seating, the pure function: cases as data, properties by hypothesis, and known fields."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.seating import swiss_rounds
from tests.engine.test_purity import FORBIDDEN_MODULES, impurities
from tournaments.seating import (
    Player,
    SeatedTable,
    Seating,
    conflicts_of,
    seat_arena,
    seat_swiss,
    swiss_sizes,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("module", ["seating.py", "scoring.py"])
def test_seating_and_scoring_are_pure(module: str) -> None:
    source = (ROOT / "tournaments" / module).read_text()
    assert impurities(source, FORBIDDEN_MODULES | {"tournaments.models", "accounts"}) == []
    imported = {n.module for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom)}
    assert imported <= {"__future__", "collections.abc", "dataclasses"}


# (people, size, min_size, bots) -> (people per table, sitting out)
SIZES = [
    (0, 4, None, True, [], 0),
    (8, 4, None, True, [4, 4], 0),
    (9, 4, None, True, [3, 3, 3], 0),  # three tables of 3, bots fill each to 4
    (9, 4, 3, True, [3, 3, 3], 0),  # tables of 3 allowed: no bots
    (10, 4, 3, False, [4, 3, 3], 0),
    (10, 4, None, False, [4, 4], 2),  # two byes
    (3, 4, None, False, [], 3),
    (7, 6, None, True, [4, 3], 0),
    (13, 6, 4, False, [5, 4, 4], 0),
    (9, 6, 5, False, [6], 3),
    (14, 6, 4, False, [5, 5, 4], 0),
    (2, 2, None, True, [2], 0),
]


@pytest.mark.parametrize(("people", "size", "low", "bots", "parts", "out"), SIZES)
def test_swiss_table_sizes(
    people: int, size: int, low: int | None, bots: bool, parts: list[int], out: int
) -> None:
    assert swiss_sizes(people, size, low, bots) == (parts, out)


def field(
    n: int, scores: list[int] | None = None, met: dict[int, dict[int, int]] | None = None
) -> list[Player]:
    scores = scores or [0] * n
    return [Player(i, scores[i], (met or {}).get(i, {})) for i in range(n)]


def met_at(*tables: tuple[int, ...]) -> dict[int, dict[int, int]]:
    out: dict[int, dict[int, int]] = {}
    for t in tables:
        for p in t:
            for q in t:
                if p != q:
                    out.setdefault(p, {})[q] = out.get(p, {}).get(q, 0) + 1
    return out


def test_the_first_round_seats_neighbours_in_the_standings() -> None:
    s = seat_swiss(field(8, [9, 8, 7, 6, 5, 4, 3, 2]), 4)
    assert s == Seating((SeatedTable((0, 1, 2, 3)), SeatedTable((4, 5, 6, 7))))


def test_bots_fill_the_lowest_tables_and_byes_go_to_the_lowest_placed_without_one() -> None:
    s = seat_swiss(field(9, list(range(9, 0, -1))), 4)
    assert [t.bots for t in s.tables] == [1, 1, 1] and sorted(s.seated()) == list(range(9))
    players = field(10, list(range(10, 0, -1)))
    players[9] = Player(9, 1, byes=1)  # the last had a bye already: the two above them sit out
    s = seat_swiss(players, 4, bots=False)
    assert s.byes == (7, 8) and all(t.bots == 0 for t in s.tables)


def test_two_tables_of_four_meeting_again_share_as_few_pairs_as_possible() -> None:
    # After round 1's tables {0..3} and {4..7}, each new table holds two of each: 4 repeats at least.
    players = field(8, met=met_at((0, 1, 2, 3), (4, 5, 6, 7)))
    s = seat_swiss(players, 4)
    assert conflicts_of(s, players) == 4


def test_twenty_four_at_tables_of_six_reach_the_least_repeats_in_round_two() -> None:
    # 6 players of each old table over 4 new tables: at least 2 pairs meet again per old table.
    assert swiss_rounds(24, 6, 2)[1].conflicts == 8


@pytest.mark.parametrize(
    ("players", "size", "rounds"), [(16, 4, 3), (36, 3, 7), (9, 3, 4), (500, 4, 7), (120, 6, 5)]
)
def test_known_fields_seat_rounds_with_no_repeat_meeting(players: int, size: int, rounds: int) -> None:
    assert [r.conflicts for r in swiss_rounds(players, size, rounds)] == [0] * rounds


def test_a_swap_keeps_players_near_their_score() -> None:
    # 0 and 1 met; the swap that parts them takes 1's neighbour in score, not the last player.
    players = field(8, [10, 9, 8, 7, 6, 5, 4, 3], met_at((0, 1)))
    s = seat_swiss(players, 4)
    assert conflicts_of(s, players) == 0
    assert s.tables[0].players in ((0, 2, 3, 4), (1, 2, 3, 4))


def test_arena_seats_those_waiting_longest_and_avoids_the_last_table() -> None:
    last = frozenset({0, 1, 2, 3})
    players = [
        Player(i, 10 - i, last=last - {i} if i < 4 else frozenset(), waiting=float(i)) for i in range(9)
    ]
    s = seat_arena(players, 4)
    assert s.waiting == (0,)  # freed last, waits
    # 1, 2 and 3 sat together last; over two tables two of them must meet again, no more.
    assert conflicts_of(s, players, arena=True) == 1
    assert sorted(s.seated()) == list(range(1, 9))
    players[4] = Player(4, 6, waiting=10.0)  # now 0 waited longest and 1 least
    players[0] = Player(0, 10, last=frozenset({1, 2, 3}), waiting=20.0)
    s = seat_arena(players, 4)
    assert s.waiting == (1,)  # (1 waited least)
    assert conflicts_of(s, players, arena=True) == 1  # 0, 2, 3 over two tables


def test_arena_fills_with_bots_once_someone_waited_long_enough() -> None:
    players = [Player(i, 0, waiting=w) for i, w in enumerate([30.0, 5.0])]
    assert seat_arena(players, 4, bots_after=60).waiting == (0, 1)
    s = seat_arena(players, 4, bots_after=20)
    assert s.tables == (SeatedTable((0, 1), bots=2),) and s.waiting == ()


def test_arena_makes_a_smaller_table_when_the_event_allows() -> None:
    s = seat_arena([Player(i) for i in range(7)], 4, min_size=3)
    assert [len(t.players) for t in s.tables] == [4, 3] and all(t.bots == 0 for t in s.tables)


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(ValueError):
        seat_swiss(field(4), 7)
    with pytest.raises(ValueError):
        seat_arena(field(4), 4, min_size=5)


@st.composite
def fields(draw: st.DrawFn) -> tuple[list[Player], int, int, bool]:
    n = draw(st.integers(0, 40))
    size = draw(st.integers(2, 6))
    low = draw(st.integers(2, size))
    bots = draw(st.booleans())
    scores = draw(st.lists(st.integers(0, 30), min_size=n, max_size=n))
    pairs = draw(
        st.lists(st.tuples(st.integers(0, max(n - 1, 0)), st.integers(0, max(n - 1, 0))), max_size=3 * n)
    )
    met: dict[int, dict[int, int]] = {}
    for a, b in pairs:
        if a != b:
            met.setdefault(a, {})[b] = met.get(a, {}).get(b, 0) + 1
            met.setdefault(b, {})[a] = met[a][b]
    waits = draw(st.lists(st.floats(0, 100), min_size=n, max_size=n))
    players = [
        Player(i, scores[i], met.get(i, {}), frozenset(met.get(i, {})), draw(st.integers(0, 2)), waits[i])
        for i in range(n)
    ]
    return players, size, low, bots


def _blocks(players: list[Player], seating: Seating) -> Seating:
    """The seating before the search: the same tables' sizes over the standings order."""
    order = [
        p.id
        for p in sorted(players, key=lambda p: -p.score)
        if p.id not in seating.byes and p.id not in seating.waiting
    ]
    out, i = [], 0
    for t in seating.tables:
        out.append(SeatedTable(tuple(order[i : i + len(t.players)]), t.bots))
        i += len(t.players)
    return Seating(tuple(out))


@settings(max_examples=300, deadline=None)
@given(fields())
def test_swiss_properties(case: tuple[list[Player], int, int, bool]) -> None:
    players, size, low, bots = case
    s = seat_swiss(players, size, low, bots)
    seated = s.seated()
    assert len(seated) == len(set(seated)), "everyone seated at most once"
    assert sorted(seated + list(s.byes)) == sorted(p.id for p in players), "seated or sitting out"
    assert all(low <= t.seats <= size for t in s.tables), "table sizes within bounds"
    assert all(t.players for t in s.tables), "no table of bots alone"
    if bots:
        assert s.byes == ()
    else:
        assert all(t.bots == 0 for t in s.tables)
        assert len(s.byes) < size or not s.tables
    assert conflicts_of(s, players) <= conflicts_of(_blocks(players, s), players), (
        "the search never adds repeats"
    )


@settings(max_examples=300, deadline=None)
@given(fields(), st.one_of(st.none(), st.floats(0, 100)))
def test_arena_properties(case: tuple[list[Player], int, int, bool], bots_after: float | None) -> None:
    players, size, low, _ = case
    s = seat_arena(players, size, low, bots_after)
    seated = s.seated()
    assert len(seated) == len(set(seated))
    assert sorted(seated + list(s.waiting)) == sorted(p.id for p in players)
    assert all(low <= t.seats <= size for t in s.tables)
    assert len(s.waiting) < low, "whoever waits is too few for a table"
    waited = {p.id: p.waiting for p in players}
    if s.waiting and seated:
        assert max(waited[i] for i in s.waiting) <= min(waited[i] for i in seated) or any(
            t.bots for t in s.tables
        )
    assert conflicts_of(s, players, arena=True) <= conflicts_of(_blocks(players, s), players, arena=True)
