"""A scripted websocket player for tests against real server processes."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

import websockets

_ids = itertools.count(1)


class LiveClient:
    def __init__(self, game_id: int, token: str | None, seat: int | None, play: bool = True) -> None:
        self.game_id, self.token, self.seat, self.play = game_id, token, seat, play
        self.events: list[tuple[int, dict[str, Any]]] = []
        self.messages: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.seq = 0
        self.over = asyncio.Event()
        self.ws: Any = None
        self.http = ""
        self.reader: asyncio.Task[None] | None = None
        self.acted_at = -1
        self.paused = False
        self.resuming = False
        self.duplicates = self.gaps = self.resyncs = 0

    async def connect(self, ws_base: str, http_base: str) -> None:
        """Connect naming the last seq seen: the server sends exactly the events after it."""
        # A spectator asks for replay frames with each push, as the watch page does.
        query = f"?batch=1&after={self.seq}" + (f"&token={self.token}" if self.token else "&frames=1")
        self.ws = await websockets.connect(
            f"{ws_base}/ws/games/{self.game_id}/{query}", origin="http://localhost"
        )
        self.http = http_base
        self.resuming = False
        self.reader = asyncio.create_task(self._read())

    def where(self) -> str:
        """Where this client stands, for a test that timed out: its seq, what it last got, and its
        connection's flow control (is it still reading, is anything queued either way)."""
        ws, transport = self.ws, getattr(self.ws, "transport", None)
        frames = getattr(getattr(ws, "recv_messages", None), "frames", None)
        last = [f"{m['type']}:{m.get('seq')}" for m in self.messages[-4:]]
        reading = transport.is_reading() if transport else None
        return (
            f"seat {self.seat}: seq {self.seq}, last {last}, "
            f"errors {self.errors[-3:]}, gaps {self.gaps}, resyncs {self.resyncs}, "
            f"reader done {self.reader.done() if self.reader else None}, "
            f"ws state {getattr(ws, 'state', None)!r}, reading {reading}, "
            f"queued in {len(frames) if frames is not None else None}, "
            f"queued out {transport.get_write_buffer_size() if transport else None}"
        )

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                data = json.loads(raw)  # batch=1: one push's messages come as one array
                for message in data if isinstance(data, list) else [data]:
                    self.messages.append(message)
                    await self._on(message)
        except websockets.ConnectionClosed:
            pass

    async def _on(self, m: dict[str, Any]) -> None:
        if m["type"] == "event":
            if m["seq"] <= self.seq:
                self.duplicates += 1
                return
            if m["seq"] > self.seq + 1:
                # A dropped push: ask for what is missing, once, and drop what overtook it.
                self.gaps += 1
                if not self.resuming:
                    self.resuming = True
                    await self.ws.send(json.dumps({"type": "resume", "after": self.seq}))
                return
            self.resuming = False
            self.seq = m["seq"]
            self.events.append((m["seq"], m["event"]))
            kind = m["event"]["type"]
            if kind in ("GameEnded", "GameAborted"):
                self.over.set()
        elif m["type"] == "view":
            # Everything the page needs comes with the move: it acts from this, never a GET.
            if m["seq"] == self.seq and m["legal"]:
                await self._act(m["legal"])
        elif m["type"] == "error":
            self.errors.append(m)
            if m.get("code") == "stale":
                await self.ws.send(json.dumps({"type": "sync"}))
        elif m["type"] == "state":
            self.resyncs += 1  # the events before it are not replayed: completeness checks will tell
            self.seq = m["seq"]
            if m["legal"]:
                await self._act(m["legal"])

    async def _act(self, legal: list[dict[str, Any]]) -> None:
        if not self.play or self.paused or self.acted_at == self.seq:
            return
        self.acted_at = self.seq
        command = {k: v for k, v in legal[-1].items() if k != "seat"}
        await self.ws.send(
            json.dumps({"type": "command", "cmd_id": f"t{next(_ids)}", "expected_seq": self.seq, **command})
        )
