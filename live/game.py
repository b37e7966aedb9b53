"""The live game socket: parse a message, call a service or selector, send what this viewer may see."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth.models import AnonymousUser

from accounts.publish import user_group
from games.access import access_game_socket
from games.invites import scope_invite
from games.models import Game
from games.publish import game_group, viewer_group
from games.push import SEAT_CONTROL_EVENTS, SPECTATOR, WATCH, frame_text, view_message, viewer_key
from games.selectors import game_catch_up, game_read_now, game_view, presence_of, seats_presence
from games.services.moves import game_command_submit
from games.services.presence import (
    game_mark_watched,
    presence_count,
    presence_disconnect,
    presence_leave_for_restart,
)
from games.services.seats import seat_reclaim, seat_set_standing_answers
from live.dispatch import DirectDispatch
from live.sockets import (
    CLOSE_REFUSED,
    CLOSE_RESTART,
    CLOSE_TOO_MANY,
    LimitedSocket,
    Notified,
    SocketFeatures,
    push_delivered,
    rejoin_when_back,
    socket_register,
    socket_unregister,
    valid_cmd_id,
)
from live.ws_auth import signed_out_by
from plumbing import jsontext, metrics
from plumbing.channellayer import ShardDown
from plumbing.dbthreads import db
from plumbing.errors import ServiceError
from plumbing.health import is_draining
from plumbing.logs import command_observed
from plumbing.params import is_count
from plumbing.publish import sends_held, sends_made

COMMAND_KEYS = ("play", "target", "react", "discard", "burn")


RESUME_AS_STATE_AFTER = 300  # a longer gap is sent as one fresh state instead of event by event


def _open(game_id: int, user: Any, scope: dict[str, Any], frames: bool, after: int | None) -> dict[str, Any]:
    """Once the socket is in the game's groups, in one trip to the database thread: read the game,
    its table, its seats and the user's standing (one statement, sql.game_read); decide whether
    the socket may open and whose view it gets (the seat; the table's invite it came with: a
    private table's game, `?invite=` or the one the session remembers, games/invites.py); count
    the seat's presence (or mark a watch page's game watched); and make what the page needs first:
    the whole state, or (a reconnecting page naming its last seq) what it missed and the view; and
    the seats' presence, unless counting this socket told the game's sockets (this one among them).
    ServiceError when it may not open."""
    try:
        read = game_read_now(game_id, user)
    except Game.DoesNotExist:
        raise ServiceError("not_found", "no such game", 404) from None
    game = read.game
    invite = scope_invite(scope, game.table_id)
    seat = access_game_socket(game, user, invite, read.seats, read.sanctioned)
    told = presence_count(read=read, seat=seat) if seat is not None else False
    if seat is None and frames:
        game_mark_watched(game_id=game.pk)
    return {
        "game": game,
        "seat": seat,
        "invite": invite,
        "state": game_view(game, user, invite, read) if after is None else None,
        "caught": game_catch_up(game, user, after, invite, read) if after is not None else None,
        "presence": None if told else seats_presence(read.seats),
    }


class GameConsumer(Notified, LimitedSocket, SocketFeatures, DirectDispatch, AsyncWebsocketConsumer):
    game: Game
    seat: int | None
    last_seq: int
    socket_kind = "game"

    def session_fields(self) -> dict[str, Any]:
        game = getattr(self, "game", None)
        return {**super().session_fields(), "game": game.pk if game else None, "seat": self.seat}

    async def connect(self) -> None:
        self.user = self.scope.get("user") or AnonymousUser()
        self.seat = None
        self.invite: str | None = None
        self.last_seq = 0
        self.joined: list[str] = []
        # With ?batch=1 the messages one push (or one resume) makes go out as one frame, a JSON
        # array: a move makes several events and a deadline, and each frame costs both ends.
        self.batch = _flag_from(self.scope, "batch")
        # With ?frames=1 a spectator's pushes also carry the replay frames of the new events (the
        # watch page draws them); the game page needs only the view.
        self.frames = _flag_from(self.scope, "frames")
        self.view_seq = 0  # the seq of the last view this socket was sent
        self._outbox: list[dict[str, Any]] = []
        self._holding = 0
        self.presence_seat: int | None = None  # the seat this socket keeps present (live/sockets.py)
        game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        if not socket_register(self, self.user.pk if self.user.is_authenticated else None, game_id):
            await self.refuse(CLOSE_TOO_MANY)  # this user has enough sockets at this game
            return
        # The game's group (what is said to all its sockets) and the spectators' frames, which tell
        # every socket of a move until it knows its seat (below).
        groups = [game_group(game_id), viewer_group(game_id, SPECTATOR)]
        if self.user.is_authenticated:
            groups.append(user_group(self.user.pk))
        added: list[str] = []
        try:
            for group in groups:
                await self.channel_layer.group_add(group, self.channel_name)
                added.append(group)
        except ShardDown:  # turned away with CLOSE_LATER (LimitedSocket): the page tries again
            for group in added:
                await self.channel_layer.group_discard(group, self.channel_name)
            raise
        # Read after joining the groups, so no move falls between the read and the first push;
        # the read also decides whether the socket may open at all (one trip to the database
        # thread for both: a restarted server's pages all open at once).
        after = _after_from(self.scope)
        try:
            joined = await db(_open)(game_id, self.user, self.scope, self.frames, after)
        except ServiceError:
            for group in groups:
                await self.channel_layer.group_discard(group, self.channel_name)
            await self.refuse(CLOSE_REFUSED)
            return
        self.game, self.seat, self.invite = joined["game"], joined["seat"], joined["invite"]
        self.viewer = viewer_key(self.seat, frames=self.frames)
        if self.viewer != SPECTATOR:
            # The viewer's own frames come on a group of their own (games/publish.py), known only
            # now. A move pushed before Redis confirms this subscription was told by its
            # spectators' frame, which is in this socket's queue by then (one connection to the
            # game's Redis, in order): game_push reads the move from the log. A seat's socket then
            # hears the spectators' frames no more; a watch page keeps them (they stand in for its
            # own while the game is not marked watched).
            mine = viewer_group(game_id, self.viewer)
            try:
                await self.channel_layer.group_add(mine, self.channel_name)
            except ShardDown:  # its game group's shard: lost just now
                for group in groups:
                    await self.channel_layer.group_discard(group, self.channel_name)
                if self.seat is not None:
                    await db(presence_disconnect)(game_id=game_id, seat=self.seat)
                raise
            groups.append(mine)
            if self.viewer != WATCH:
                spectators = viewer_group(game_id, SPECTATOR)
                await self.channel_layer.group_discard(spectators, self.channel_name)
                groups.remove(spectators)
        self.joined = groups
        # Counted before accept, so a disconnect can never be handled before its connect.
        self.presence_seat = self.seat
        await self.accept()
        if joined["state"] is not None:
            self.last_seq = self.view_seq = joined["state"]["seq"]
            await self.send_json({"type": "state", **joined["state"]})
        else:
            await self.resume(after, joined["caught"])  # a reconnecting page: what it missed
        if joined["presence"] is not None:
            await self.send_json({"type": "presence", "seats": joined["presence"]})
        if self.user.is_authenticated:  # said online by the heartbeat: no statement here
            await self.person_online(self.user.pk, later=True)

    async def layer_lost(self, message: dict[str, Any]) -> None:
        """A group of this socket was lost with its channel-layer shard (plumbing/channellayer.py).
        The game's: its pushes are gone, so the socket closes with 1012 and the page reconnects
        and resumes from the log, as after a server's restart. The user's: joined again once the
        shard answers (a notification or sign-out said meanwhile is missed; the bell's count comes
        with the next). A feature's (the table chat): the feature's own."""
        group = message["group"]
        if group == game_group(self.game.pk):
            await self.close(code=CLOSE_RESTART)
        elif group.startswith(f"{game_group(self.game.pk)}-"):
            pass  # a viewer group lives on its game group's shard: that group's loss closes the socket
        elif group in self.joined:
            rejoin_when_back(self, group)
        else:
            await self.group_lost_more(group)

    async def disconnect(self, code: int) -> None:
        socket_unregister(self)
        await self.leave_more()
        if is_draining():
            # The server restarts, closing its sockets a few hundred a second: leaving the groups is
            # left to the process's end, and the seat's count is one statement
            # (presence_leave_for_restart says why).
            if self.joined and self.seat is not None:
                await db(presence_leave_for_restart)(game_id=self.game.pk, seat=self.seat)
            return
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.joined and self.seat is not None:
            await db(presence_disconnect)(game_id=self.game.pk, seat=self.seat)

    async def send_json(self, data: dict[str, Any]) -> None:
        if self._holding and self.batch:
            self._outbox.append(data)
            return
        await self.send(text_data=jsontext.dumps(data))

    def _hold(self) -> None:
        self._holding += 1

    async def _release(self) -> None:
        self._holding -= 1
        if self._holding or not self._outbox:
            return
        out, self._outbox = self._outbox, []
        await self.send(text_data=jsontext.dumps(out if len(out) > 1 else out[0]))

    # --- client to server -----------------------------------------------------------------

    async def receive_message(self, message: Any) -> None:
        if not isinstance(message, dict):
            await self.send_json({"type": "error", "code": "bad_message", "detail": "messages are objects"})
            return
        kind = message.get("type")
        if kind == "command":
            await self.on_command(message)
        elif kind == "resume":
            after = message.get("after")
            if isinstance(after, bool) or not isinstance(after, int) or after < 0:
                await self.send_json({"type": "error", "code": "bad_message", "detail": "after is a seq"})
                return
            await self.resume(after)
        elif kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind == "reclaim":
            await self.on_reclaim()
        elif kind == "standing":
            await self.on_standing(message)
        elif kind == "sync":
            await self.send_view()
        elif await self.receive_more(message):
            pass  # a feature's (the table chat, the spectator count: live/routes.py)
        else:
            await self.send_json({"type": "error", "code": "bad_message", "detail": "unknown message type"})

    async def on_command(self, message: dict[str, Any]) -> None:
        cmd_id = message.get("cmd_id")
        if not valid_cmd_id(cmd_id):  # never echoed back: it may be anything
            await self.send_json({"type": "error", "code": "bad_message", "detail": "cmd_id is a short id"})
            return
        started = time.perf_counter()
        origin = metrics.move_origin_set("socket", started)  # the push after commit reads it
        try:
            with sends_held() as held:
                try:
                    outcome = await db(game_command_submit)(
                        game=self.game,
                        user=self.user,
                        command={k: message[k] for k in COMMAND_KEYS if k in message},
                        client_cmd_id=cmd_id,
                        expected_seq=message.get("expected_seq"),
                    )
                finally:
                    # The move's push goes out before its answer (publish.sends_held).
                    await sends_made(held)
        except ServiceError as e:
            command_observed(self.game.pk, self.user, cmd_id, None, e.code, started, "socket")
            await self.send_json({"type": "error", "cmd_id": cmd_id, "code": e.code, "detail": e.detail})
            return
        except BaseException:
            command_observed(self.game.pk, self.user, cmd_id, None, "error", started, "socket")
            raise
        finally:
            metrics.move_origin_reset(origin)
        code = "duplicate" if outcome.duplicate else "ok"
        command_observed(self.game.pk, self.user, cmd_id, outcome.last_seq, code, started, "socket")
        await self.send_json(
            {"type": "ack", "cmd_id": cmd_id, "seq": outcome.last_seq, "duplicate": outcome.duplicate}
        )

    async def on_reclaim(self) -> None:
        try:
            await db(seat_reclaim)(game=self.game, user=self.user)
        except ServiceError as e:
            await self.send_json({"type": "error", "code": e.code, "detail": e.detail})

    async def on_standing(self, message: dict[str, Any]) -> None:
        """The seat's person sets its standing answers; the answer goes to this socket alone (the
        person's other pages read it when they load): no other viewer may learn of them."""
        try:
            answers = await db(seat_set_standing_answers)(
                game=self.game, user=self.user, volley=message.get("volley"), skip=message.get("skip")
            )
        except ServiceError as e:
            await self.send_json({"type": "error", "code": e.code, "detail": e.detail})
            return
        await self.send_json({"type": "standing", **answers.as_dict()})

    # --- server to client -----------------------------------------------------------------

    async def send_view(self) -> None:
        """The viewer's view and legal commands as they are now, read from the database: after a
        resume or on request, when no push carries them."""
        await self._send_view_of(await db(game_view)(self.game, self.user, self.invite))

    async def _send_view_of(self, data: dict[str, Any]) -> None:
        """The "view" message of what game_view (or game_catch_up) read."""
        self.view_seq = data["seq"]
        keys = ("seq", "status", "deadline", "view", "legal", "places", "away_warning")
        await self.send_json(view_message(**{k: data[k] for k in keys}))

    async def resume(self, after: int, caught: dict[str, Any] | None = None) -> None:
        """Exactly the events after `after`, in order, then the view they lead to; or one fresh
        state when that is simpler. `caught`: game_catch_up's answer, when the caller read it."""
        if caught is None:
            caught = await db(game_catch_up)(self.game, self.user, after, self.invite)
        events, data = caught["events"], caught["view"]
        if len(events) > RESUME_AS_STATE_AFTER:
            self.last_seq = self.view_seq = data["seq"]
            await self.send_json({"type": "state", **data})
            return
        self.last_seq = after
        self._hold()
        try:
            for item in events:
                await self.deliver(item["seq"], item["event"])
            if any(item["event"]["type"] in SEAT_CONTROL_EVENTS for item in events):
                await self.send_json({"type": "presence", "seats": await db(presence_of)(self.game.pk)})
            await self._send_view_of(data)
        finally:
            await self._release()

    async def deliver(self, seq: int, event: dict[str, Any]) -> None:
        """An event read back from the log (already filtered for this viewer); the `view` after
        the resume tells the deadline."""
        await self.send_json({"type": "event", "seq": seq, "event": event})
        self.last_seq = seq

    async def game_push(self, message: dict[str, Any]) -> None:
        """One move: the frame made for this socket's viewer when the move was written (its events,
        then everything the page needs to render and act), sent as it is. A watch page's socket
        also hears the spectators' frame, after its own (games/publish.py), and so does a seat's
        while it opens."""
        first, last = message["first"], message["last"]
        if last <= self.last_seq:
            return  # already sent (its own frame came first), or a resume overtook the push
        if "frames" in message:  # a push made by a server of the code before (a deploy's overlap)
            frames = message["frames"]
            text = frames.get(self.viewer) or frames[SPECTATOR]
        elif message["viewer"] == self.viewer or (self.viewer == WATCH and message["viewer"] == SPECTATOR):
            # A watch page's frame exists only while the game is marked watched; else the spectators'.
            text = frame_text(message["frame"])
        else:
            # The spectators' frame of a move whose frame for this seat never came: pushed before
            # the seat's group held (the socket was opening). From the log.
            await self._catch_up()
            return
        if first != self.last_seq + 1:
            # The layer dropped a push, or a resume sent part of this one: read the rest from the log.
            await self._catch_up()
            return
        push_delivered(self.game.pk, last)
        self.last_seq = self.view_seq = last
        if self.batch:
            await self.send(text_data=text)  # a JSON array of the push's messages
        else:
            for one in jsontext.loads(text):
                await self.send_json(one)

    async def game_head(self, message: dict[str, Any]) -> None:
        """The game has reached `seq` (a resent command found its move applied): a socket that has
        not seen that far missed the move's push and reads what it missed from the log."""
        if message["seq"] > self.last_seq:
            await self._catch_up()

    async def _catch_up(self) -> None:
        """This socket missed a push (counted for the operators): what it missed, from the log."""
        metrics.push_gap()
        self._hold()
        try:
            await self.resume(self.last_seq)
        finally:
            await self._release()

    async def game_meta(self, message: dict[str, Any]) -> None:
        if message["kind"] == "presence":
            await self.send_json({"type": "presence", **message["data"]})
        else:
            await self.send_json({"type": message["kind"], **message["data"]})

    async def user_signed_out(self, message: dict[str, Any]) -> None:
        if signed_out_by(self.scope, message):  # a password change keeps what made it
            await self.close(code=CLOSE_REFUSED)

    async def user_sanctioned(self, message: dict[str, Any]) -> None:
        await self.close_sanctioned(message)


def _flag_from(scope: dict[str, Any], name: str) -> bool:
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get(name)
    return bool(values) and values[0] in ("1", "true")


def _after_from(scope: dict[str, Any]) -> int | None:
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("after")
    if not values or not is_count(values[0]):
        return None
    return int(values[0])
