"""The replay analysis (harehra.analysis) on small constructed games and bot games: few playouts."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from harehra import Command, legal_commands, replay, step, view_for
from harehra.analysis import NotFinished, analyse, analysis_json, calibrated, label
from harehra.bots import get_bot
from harehra.bots.heuristic import heuristic_move
from harehra.commands import Play
from harehra.decide import setup_event, start_events, start_game
from harehra.events import StoredEvent
from harehra.legal import legal_moves
from harehra.ruleset import make_ruleset
from harehra.simulation import rng_shuffle

PLAYOUTS = 12


def _finish(events: list[Any], rng: random.Random) -> list[Any]:
    """Play the log on to its end with the normal bot for every seat."""
    state = replay(events)
    shuffle = rng_shuffle(rng)
    while state.result is None:
        assert state.awaiting is not None
        seat = state.awaiting.seat
        move = heuristic_move(state.awaiting.kind.value, state.damage, seat, legal_moves(state, seat))
        new, state = step(state, move, shuffle)
        events += new
    return events


def _bot_game(seed: int, players: int = 3) -> list[StoredEvent]:
    rng = random.Random(seed)
    shuffle = rng_shuffle(rng)
    events: list[Any] = start_game(make_ruleset(()), players, players - 1, shuffle)
    state = replay(events)
    bots = [get_bot("easy" if s % 2 else "normal") for s in range(players)]
    while state.result is None:
        assert state.awaiting is not None
        seat = state.awaiting.seat
        new, state = step(
            state, bots[seat].choose(view_for(state, seat), legal_commands(state, seat)), shuffle
        )
        events += new
    return events


def _the_kill(first: Command) -> list[StoredEvent]:
    """Two players at 4 damage of 5, every Taptap face up on the discard pile, seat 0 to play with
    a Hare Cumi: the volley at seat 1 wins at once, anything else lets seat 1 have a turn. Seat 0
    plays `first`, then both play on as the normal bot does."""
    ruleset = make_ruleset(())
    hands = [["cumi", "left", "right"], ["house"]]
    pool = Counter(dict(ruleset.deck))
    discard = ["taptap"] * pool["taptap"]
    pool.subtract(discard)
    for hand in hands:
        pool.subtract(hand)
    draw = sorted(pool.elements())
    random.Random(5).shuffle(draw)
    first_event = setup_event(
        ruleset,
        players=2,
        shuffler=1,
        hands=hands,
        draw_pile=draw,
        discard_pile=discard,
        damage=[4, 4],
        turn=0,
    )
    events: list[Any] = start_events(first_event)
    state = replay(events)
    new, state = step(state, first)
    return _finish(events + new, random.Random(1))


def _decision_at(analysis: dict[str, Any], step_index: int) -> dict[str, Any]:
    return next(d for d in analysis["decisions"] if d["step"] == step_index)


def test_the_winning_volley_is_labelled_best_and_no_fault() -> None:
    events = _the_kill(Play(0, ("cumi",), 1))
    analysis = analyse(events, playouts=PLAYOUTS, salt="kill")
    judged = _decision_at(analysis, 2)  # the deal, the first turn, then seat 0's play
    chosen = judged["options"][judged["chosen"]]
    assert chosen["command"] == {"seat": 0, "play": ["cumi"], "target": 1}
    assert chosen["win"] == 1.0
    assert judged["best"] == judged["chosen"]
    assert judged["drop"] == 0.0 and judged["label"] is None
    assert analysis["accuracy"][0] == 100.0
    assert analysis["chances"][-1] == [1.0, 0.0]  # the last step is the result itself


def test_passing_up_the_winning_volley_is_a_blunder_with_the_better_option_named() -> None:
    events = _the_kill(Play(0, ("left",)))
    analysis = analyse(events, playouts=PLAYOUTS, salt="kill")
    judged = _decision_at(analysis, 2)
    best = judged["options"][judged["best"]]
    assert judged["options"][judged["chosen"]]["command"] == {"seat": 0, "play": ["left"]}
    assert best["command"] == {"seat": 0, "play": ["cumi"], "target": 1}
    assert best["win"] == 1.0
    assert judged["drop"] >= 0.15 and judged["drop"] > 2 * judged["se"]
    assert judged["label"] == "blunder"
    assert analysis["accuracy"][0] < 100.0


def test_a_label_is_the_band_of_the_drop_less_twice_its_standard_error() -> None:
    assert label(0.04, 0.001) is None
    assert label(0.05, 0.0) == "inaccuracy"
    assert label(0.12, 0.01) == "mistake"  # at least 10 points
    assert label(0.30, 0.01) == "blunder"
    assert label(0.30, 0.16) is None  # within noise: never a blunder
    assert label(0.20, 0.02) == "blunder"  # at least 16 points
    assert label(0.20, 0.03) == "mistake"  # at least 14: the weaker label, whichever run
    assert label(0.20, 0.09) is None  # at least 2


def test_the_calibration_map_is_monotone_keeps_the_sum_and_is_bolder_where_the_shares_are_timid() -> None:
    shares = [0.45, 0.35, 0.15, 0.05]
    chances = calibrated(shares, 4)
    assert sum(chances) == pytest.approx(sum(shares))
    assert chances == sorted(chances, reverse=True)  # the order of the shares kept
    assert chances[1] < 0.35  # a share of 20-50% won less often than it said
    assert calibrated([0.85, 0.05, 0.05, 0.05], 4)[0] > 0.85  # one of 60-90% more often
    assert calibrated([0.6, 0.3, 0.0], 3)[2] == 0.0  # a seat that won no world gets 0
    assert calibrated([1.0, 0.0, 0.0], 3) == [1.0, 0.0, 0.0]
    assert calibrated([0.25] * 4, 4) == pytest.approx([0.25] * 4)  # even seats stay even
    assert sum(calibrated([0.45, 0.35, 0.1], 3)) == pytest.approx(0.9)  # drawn worlds stay drawn
    mine = [calibrated([x / 100, 0.2, 0.1], 3)[0] for x in range(1, 71)]
    assert mine == sorted(mine) and len(set(mine)) == len(mine)  # a larger share, a larger chance
    # Two seats in (whatever the table's size), the shares are calibrated as they are.
    assert calibrated([0.65, 0.35], 2) == [0.65, 0.35]
    assert calibrated([0.0, 0.7, 0.0, 0.3], 2) == [0.0, 0.7, 0.0, 0.3]


def test_a_bot_game_has_a_chance_per_step_and_judges_only_real_choices() -> None:
    events = _bot_game(3)
    analysis = analyse(events, playouts=PLAYOUTS, salt="g3")
    assert len(analysis["chances"]) == len(events)
    for chances in analysis["chances"]:
        assert (
            len(chances) == 3 and all(0.0 <= c <= 1.0 for c in chances) and sum(chances) <= 1.0 + 3 * 0.00005
        )
    winner = events[-1]["winner"]
    assert analysis["chances"][-1] == [1.0 if s == winner else 0.0 for s in range(3)]
    assert analysis["decisions"]
    for d in analysis["decisions"]:
        assert len(d["options"]) >= 2
        assert events[d["step"]]["seat"] == d["seat"]
        assert d["options"][d["best"]]["win"] >= d["options"][d["chosen"]]["win"]


def test_a_decision_is_judged_from_the_seat_s_view_alone() -> None:
    """The other hands and the draw order of the log are replaced: the same public history and
    the same hand of the deciding seat give the same judgement."""
    events = _the_kill(Play(0, ("left",)))
    other = [dict(e) for e in events[:2]]
    first = other[0]
    hidden = [*first["hands"][1], *first["draw_pile"]]
    random.Random(99).shuffle(hidden)
    first["hands"] = [first["hands"][0], hidden[:1]]
    first["draw_pile"] = hidden[1:]
    state = replay(other)
    new, state = step(state, Play(0, ("left",)))
    swapped = _finish(other + new, random.Random(1))
    a = _decision_at(analyse(events, playouts=PLAYOUTS, salt="kill"), 2)
    b = _decision_at(analyse(swapped, playouts=PLAYOUTS, salt="kill"), 2)
    assert a == b


def test_the_same_log_gives_the_same_bytes_and_another_salt_other_samples() -> None:
    events = _bot_game(3)
    one = analysis_json(analyse(events, playouts=4, salt="game 3"))
    two = analysis_json(analyse(events, playouts=4, salt="game 3"))
    other = analysis_json(analyse(events, playouts=4, salt="game 4"))
    assert one == two
    assert one != other


def test_a_running_game_is_not_analysed() -> None:
    events = _bot_game(5)
    with pytest.raises(NotFinished):
        analyse(events[:-3], playouts=PLAYOUTS)
    with pytest.raises(NotFinished):
        analyse([], playouts=PLAYOUTS)
