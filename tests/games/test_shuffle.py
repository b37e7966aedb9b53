"""The services shuffle through one seam (settings.GAME_SHUFFLE): a test deals the decks it needs."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import replay
from games.eventlog import events_with_seq
from games.services.shuffle import deck_shuffle
from games.services.tables import TableSettings, table_create, table_join, table_start
from tests.support.decks import seeded_decks


def _dealt(make_user: Any, seed: int) -> list[list[str]]:
    users = [make_user() for _ in range(3)]
    with seeded_decks(random.Random(seed)):
        table = table_create(host=users[0], settings=TableSettings(seats=3))
        for u in users[1:]:
            table_join(table=table, user=u)
        game = table_start(table=table, user=users[0])
    state = replay([e for _, e in events_with_seq(game, after=0)])
    return [list(hand) for hand in state.hands]


@pytest.mark.django_db
def test_the_same_seed_deals_the_same_hands_and_another_seed_other_hands(make_user: Any) -> None:
    assert _dealt(make_user, 7) == _dealt(make_user, 7)
    assert _dealt(make_user, 7) != _dealt(make_user, 8)


def test_by_default_decks_come_from_the_system_shuffle() -> None:
    cards = [str(i) for i in range(40)]
    orders = {tuple(deck_shuffle(cards)) for _ in range(5)}
    assert len(orders) > 1 and all(sorted(o) == sorted(cards) for o in orders)
