"""Named steps a lower app announces and higher apps subscribe to, so imports run one way.

A lower app (accounts, games) declares a `Hook` and sends it where the step happens; a higher app
(ratings, games' live sockets) subscribes in its AppConfig.ready(). Subscribers run in the
sender's thread and transaction, in the order they subscribed; what they return comes back to the
sender. A subscriber that raises raises to the sender: a hook is a call, not a message queue.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Hook:
    def __init__(self, name: str) -> None:
        self.name = name
        self._subscribers: list[Callable[..., Any]] = []

    def subscribe(self, subscriber: Callable[..., Any]) -> Callable[..., Any]:
        if subscriber not in self._subscribers:
            self._subscribers.append(subscriber)
        return subscriber

    def send(self, *args: Any) -> list[Any]:
        return [subscriber(*args) for subscriber in self._subscribers]

    def __repr__(self) -> str:
        return f"<Hook {self.name}: {len(self._subscribers)} subscribers>"
