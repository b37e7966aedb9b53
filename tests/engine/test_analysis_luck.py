"""Expected placings per step and luck against skill per seat (harehra.analysis): few playouts."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from harehra import replay, step
from harehra.analysis import analyse, analysis_json, draw_luck
from harehra.commands import Play
from harehra.decide import setup_event, start_events, start_game
from harehra.events import EventType, StoredEvent
from harehra.placings import outcome_from_log
from harehra.ruleset import make_ruleset
from harehra.simulation import rng_shuffle
from harehra.state import GameState
from tests.engine.test_analysis import _bot_game, _finish, _the_kill

PLAYOUTS = 12


def _normal_game(seed: int, players: int = 3) -> list[StoredEvent]:
    """A game the normal bot plays for every seat."""
    rng = random.Random(seed)
    events: list[Any] = start_game(make_ruleset(()), players, players - 1, rng_shuffle(rng))
    return _finish(events, rng)


def _result(events: list[StoredEvent], players: int) -> list[float]:
    winner = events[-1].get("winner") if events[-1]["result"] == "win" else None
    return [1.0 if s == winner else 0.0 for s in range(players)]


def test_a_placing_per_step_and_seat_the_last_the_result_s_and_an_eliminated_seat_s_fixed() -> None:
    events = _bot_game(3)
    analysis = analyse(events, playouts=PLAYOUTS, salt="g3")
    placings = analysis["placings"]
    assert len(placings) == len(analysis["chances"]) == len(events)
    for row in placings:
        assert len(row) == 3 and all(1.0 <= p <= 3.0 for p in row)
        assert sum(row) <= 6.0 + 3 * 0.00005  # places 1 + 2 + 3, less when some share one
    assert placings[-1] == [float(p) for p in outcome_from_log(events).places]
    # The first seat out is last for certain from the step after it went out.
    first_out = next(i for i, e in enumerate(events) if e["type"] == EventType.PLAYER_ELIMINATED)
    seat = events[first_out]["seat"]
    assert all(row[seat] == 3.0 for row in placings[first_out:])
    assert any(row[seat] < 3.0 for row in placings[:first_out])


def test_the_luck_parts_add_up_to_the_result_less_the_start() -> None:
    games = ((_bot_game(3), 3), (_bot_game(4, players=4), 4), (_the_kill(Play(0, ("left",))), 2))
    for events, players in games:
        analysis = analyse(events, playouts=PLAYOUTS, salt="sum")
        assert len(analysis["luck"]) == players
        for seat, (part, result) in enumerate(zip(analysis["luck"], _result(events, players), strict=True)):
            assert set(part) == {"decisions", "draws", "others"}
            total = 1 / players + part["decisions"] + part["draws"] + part["others"]
            assert abs(total - result) < 0.0001, (seat, part, result)
            se = analysis["luck_se"][seat]
            assert se["others"] >= max(se["decisions"], se["draws"]) >= 0  # others carries both


def test_a_seat_that_plays_as_the_normal_bot_gains_and_loses_nothing_by_its_decisions() -> None:
    """The playouts play every seat as the normal bot: its choice is the seat's chance before it
    chose, so a decision the normal bot would make moves nothing."""
    analysis = analyse(_normal_game(7), playouts=PLAYOUTS, salt="normal")
    assert analysis["decisions"]  # there were real choices
    assert [part["decisions"] for part in analysis["luck"]] == [0.0, 0.0, 0.0]
    assert any(part["draws"] != 0.0 for part in analysis["luck"])


def test_passing_up_the_winning_volley_costs_the_seat_through_its_own_decision() -> None:
    analysis = analyse(_the_kill(Play(0, ("left",))), playouts=PLAYOUTS, salt="kill")
    assert analysis["luck"][0]["decisions"] <= -0.15
    taken = analyse(_the_kill(Play(0, ("cumi",), 1)), playouts=PLAYOUTS, salt="kill")
    assert taken["luck"][0]["decisions"] == 0.0  # the normal bot takes the kill too
    assert taken["luck"][1]["others"] < 0  # seat 1 lost it by seat 0's decision


def _drew(card: str) -> GameState:
    """Two players at 4 damage of 5, every Taptap face up: seat 0 plays its House (seat 1 is
    skipped and protected) and draws `card`, then has the next turn too."""
    ruleset = make_ruleset(())
    hands = [["house"], ["left"]]
    pool = Counter(dict(ruleset.deck))
    discard = ["taptap"] * pool["taptap"]
    pool.subtract(discard)
    for cards in [*hands, [card]]:
        pool.subtract(cards)
    rest = sorted(pool.elements())
    random.Random(5).shuffle(rest)
    first = setup_event(
        ruleset,
        players=2,
        shuffler=1,
        hands=hands,
        draw_pile=[card, *rest],
        discard_pile=discard,
        damage=[4, 4],
        turn=0,
    )
    _, state = step(replay(start_events(first)), Play(0, ("house",)))
    assert state.hands[0] == (card,)
    return state


def test_drawing_a_heal_is_good_luck_and_a_volley_at_a_protected_table_bad_luck() -> None:
    """A Zada heals seat 0 out of reach of seat 1's next volley; a Hare Cumi with the only target
    protected must be burned."""
    heal = draw_luck(_drew("zada"), 0, ["zada"], 100, salt="draw", step=4)
    volley = draw_luck(_drew("cumi"), 0, ["cumi"], 100, salt="draw", step=4)
    assert heal > 0.25
    assert volley < -0.1
    assert draw_luck(_drew("zada"), 0, ["zada"], 100, salt="draw", step=4) == heal  # seeded


def test_the_new_parts_are_in_the_bytes_and_the_bytes_repeat() -> None:
    events = _bot_game(3)
    one = analysis_json(analyse(events, playouts=4, salt="game 3"))
    assert '"placings":' in one and '"luck":' in one and '"luck_se":' in one
    assert analysis_json(analyse(events, playouts=4, salt="game 3")) == one
