from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from games.eventlog import load_state
from games.models import Game
from games.services.moves import game_command_submit
from games.services.tables import TableSettings, table_create, table_join, table_start
from harehra import GameState, legal_commands, view_for
from harehra.bots import get_bot
from tests.support.decks import seeded_decks


@pytest.fixture
def two(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user("ann"), make_user("bob")]


@dataclass
class Closed:
    """Replays some may not see, and who asks: a stranger (signed in) and the second player."""

    stranger: Any
    player: Any
    hidden: Game  # finished, public, hidden by a moderator
    private: Game  # running, at a private table
    players_only: Game  # finished, replays for its players only


@pytest.fixture
def closed(two: list[Any], make_user: Callable[..., Any]) -> Closed:
    from django.test import Client

    from tests.factories import finished_game, start_table

    stranger, player = Client(), Client()
    stranger.force_login(make_user("eve"))
    player.force_login(two[1])
    hidden = finished_game(two, seed=7, rated=False, replay_access="public")
    Game.objects.filter(pk=hidden.pk).update(replay_hidden=True)
    private = start_table(two, rated=False, replay_access="public", visibility="private")
    players_only = finished_game(two, seed=7, rated=False, replay_access="players")
    return Closed(stranger, player, hidden, private, players_only)


@dataclass
class Recorded:
    game: Game
    users: list[Any]  # by seat
    states: list[tuple[int, GameState]]  # (seq, the live game's state then), after every command


def play_game(users: list[Any], seed: int = 1, replay_access: str = "public", **settings: Any) -> Recorded:
    """A game played through the services: each awaited seat's person sends a legal command."""
    rng = random.Random(seed)

    with seeded_decks(rng):
        return _play(users, rng, replay_access, **settings)


def _play(users: list[Any], rng: random.Random, replay_access: str, **settings: Any) -> Recorded:
    host = users[0]
    table = table_create(
        host=host, settings=TableSettings(seats=len(users), replay_access=replay_access, **settings)
    )
    for u in users[1:]:
        table_join(table=table, user=u)
    game = table_start(table=table, user=host)
    bot = get_bot()
    states = [(game.last_seq, load_state(game))]
    for i in range(5000):
        game.refresh_from_db()
        state = load_state(game)
        if state.over:
            return Recorded(game, users, states)
        seat = state.awaiting.seat
        legal = legal_commands(state, seat)
        # Mostly random (long games, with reshuffles and discards), sometimes the bot's choice.
        command = bot.choose(view_for(state, seat), legal) if rng.random() < 0.3 else rng.choice(legal)
        game_command_submit(
            game=game,
            user=users[seat],
            command={k: v for k, v in command.items() if k != "seat"},
            client_cmd_id=f"r{i}",
        )
        game.refresh_from_db()
        states.append((game.last_seq, load_state(game)))
    raise AssertionError("the game did not end")


@pytest.fixture
def players(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(name) for name in ("ann", "bob", "cat")]


@pytest.fixture
def recorded(players: list[Any]) -> Recorded:
    return play_game(players, seed=7)
