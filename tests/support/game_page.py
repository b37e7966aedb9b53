"""A player's game page over a real socket, for the tests that break the channel layer under
live games (a lost shard, a lost replica): it reconnects and resumes as the page scripts do and
plays whatever the view offers. And which of two channel-layer shards a game's groups live on."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

import websockets
from channels_redis.utils import _consistent_hash

PACE_S = 0.25  # a page answers a decision this long after it is shown


def shard_of(game_id: int) -> int:
    """The shard (of two) holding `game_id`'s groups: channels_redis hashes a group's name."""
    return _consistent_hash(f"asgi__group__game.{game_id}", 2)


@dataclass
class Page:
    """A player's game page: one socket, reconnecting with ?after= its last seq (as
    core/gamesocket.js does), resending a command it had no answer to with the same cmd_id, and
    playing its last legal command whenever the view offers one."""

    ws_base: str
    game_id: int
    token: str
    name: str
    last_seq: int | None = None
    seqs: list[int] = field(default_factory=list)  # every event's seq, in the order told
    types: dict[int, str] = field(default_factory=dict)
    closes: list[tuple[float, int]] = field(default_factory=list)
    refused: int = 0  # connections turned away (1013) while the shard was down
    acks: dict[str, int] = field(default_factory=dict)
    events_at: list[float] = field(default_factory=list)
    pending: dict[str, Any] | None = None
    sent: int = 0
    playing: bool = True
    stop: bool = False

    async def run(self) -> None:
        while not self.stop:
            after = f"&after={self.last_seq}" if self.last_seq is not None else ""
            try:
                ws = await websockets.connect(
                    f"{self.ws_base}/ws/games/{self.game_id}/?token={self.token}{after}",
                    origin="http://localhost",
                )
            except (OSError, websockets.InvalidHandshake):
                await asyncio.sleep(0.5)
                continue
            try:
                if self.pending is not None:  # unanswered when the socket closed: the same command again
                    await ws.send(json.dumps(self.pending))
                await self._read(ws)
            except websockets.ConnectionClosed as e:
                code = e.rcvd.code if e.rcvd is not None else 1006
                if code == 1013:
                    self.refused += 1
                else:
                    self.closes.append((time.monotonic(), code))
                await asyncio.sleep(0.25 + 0.5 * (code != 1012))
            finally:
                await ws.close()

    async def _read(self, ws: Any) -> None:
        while not self.stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            message = json.loads(raw)
            for one in message if isinstance(message, list) else [message]:
                await self._handle(ws, one)

    async def _handle(self, ws: Any, m: dict[str, Any]) -> None:
        kind = m["type"]
        if kind == "state":
            self.last_seq = m["seq"]
            await self._decide(ws, m)
        elif kind == "event":
            self.seqs.append(m["seq"])
            self.types[m["seq"]] = m["event"]["type"]
            self.events_at.append(time.monotonic())
            self.last_seq = m["seq"]
        elif kind == "view":
            await self._decide(ws, m)
        elif kind == "ack":
            self.acks[m["cmd_id"]] = m["seq"]
            if self.pending is not None and self.pending["cmd_id"] == m["cmd_id"]:
                self.pending = None
        elif kind == "error" and self.pending is not None and m.get("cmd_id") == self.pending["cmd_id"]:
            self.pending = None  # stale (the other seat moved first): the next view decides again

    async def _decide(self, ws: Any, m: dict[str, Any]) -> None:
        if not self.playing or self.pending is not None or not m.get("legal") or m.get("status") != "running":
            return
        await asyncio.sleep(PACE_S)
        if not self.playing:
            return
        command = {k: v for k, v in m["legal"][-1].items() if k != "seat"}
        self.sent += 1
        self.pending = {
            "type": "command",
            "cmd_id": f"{self.name}-{self.sent}",
            "expected_seq": m["seq"],
            **command,
        }
        await ws.send(json.dumps(self.pending))
