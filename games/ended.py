""" "A game ended": the one step other apps subscribe to, so games never imports them.

The write path calls `game_ended` in the transaction that ends a game, after its last events and
row are written: a subscriber's writes commit with the game's end or not at all (ratings are
recorded if and only if the game ended). Apps subscribe in their AppConfig.ready(); a subscriber
that raises aborts the move, as any failure inside the move's transaction does.
"""

from __future__ import annotations

from collections.abc import Callable

GameEndedSubscriber = Callable[[int], object]  # called with the game's id
_subscribers: list[GameEndedSubscriber] = []


def on_game_ended(subscriber: GameEndedSubscriber) -> GameEndedSubscriber:
    if subscriber not in _subscribers:
        _subscribers.append(subscriber)
    return subscriber


def game_ended(game_id: int) -> None:
    for subscriber in _subscribers:
        subscriber(game_id)
