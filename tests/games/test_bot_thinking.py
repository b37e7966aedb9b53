"""A hard bot thinks in a child process (games/bot_thinking.py): the task's thread, which in the
embedded server shares its process with the event loop, does not do the search's work."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from games.bot_thinking import think
from harehra import legal_commands, make_ruleset, replay, start_game, step, view_for
from harehra.bots import get_bot
from harehra.simulation import rng_shuffle


def _decisions(count: int, seed: int) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Views and legal lists of a game's decisions where there is something to choose."""
    shuffle = rng_shuffle(random.Random(seed))
    state = replay(start_game(make_ruleset(), 4, 0, shuffle))
    normal, out = get_bot("normal"), []
    while not state.over and len(out) < count:
        seat = state.awaiting.seat
        view, legal = view_for(state, seat), legal_commands(state, seat)
        if len(legal) > 1 and view["awaiting"]["kind"] in ("turn", "volley"):
            out.append((view, legal))
        _, state = step(state, normal.choose(view, legal), shuffle)
    return out


def _cpu_here(call: Any) -> tuple[Any, float]:
    started = time.thread_time()  # this thread's CPU alone: not a timing of the machine
    got = call()
    return got, time.thread_time() - started


def test_a_hard_bot_searches_in_a_child_process_and_chooses_as_it_would_here(settings: Any) -> None:
    settings.BOT_THINK_PROCESSES = 1
    decisions = _decisions(6, seed=3)
    assert len(decisions) == 6
    think("hard", *decisions[0])  # the child starts: not counted
    here = there = 0.0
    for view, legal in decisions:
        chosen_here, cpu = _cpu_here(lambda v=view, lg=legal: get_bot("hard").choose(v, lg))
        here += cpu
        chosen_there, cpu = _cpu_here(lambda v=view, lg=legal: think("hard", v, lg))
        there += cpu
        assert chosen_there == chosen_here  # its randomness is seeded from the view alone
    # The searches cost this thread next to nothing when a child makes them.
    assert there < here / 10, (here, there)


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_the_other_levels_think_on_the_tasks_thread(settings: Any, level: str) -> None:
    settings.BOT_THINK_PROCESSES = 1
    for view, legal in _decisions(3, seed=4):
        assert think(level, view, legal) == get_bot(level).choose(view, legal)


def test_with_no_thinking_processes_a_hard_bot_searches_on_the_tasks_thread(settings: Any) -> None:
    settings.BOT_THINK_PROCESSES = 0
    view, legal = _decisions(1, seed=5)[0]
    chosen, cpu = _cpu_here(lambda: think("hard", view, legal))
    assert chosen == get_bot("hard").choose(view, legal)
    assert cpu > 0.002  # a search is milliseconds of CPU (the compiled playouts), a reply next to none
