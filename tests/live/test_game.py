"""The websocket protocol through Channels' communicator, on the full ASGI application."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from accounts.services import user_register, user_token
from games.eventlog import events_with_seq, load_state
from games.models import Game, GameEvent, GameSeat
from harehra import event_for, legal_commands
from harehra_site.asgi import application
from plumbing import metrics
from tests.factories import end_with_seat_1_abandoned, seat_1_to_the_brink, seated_game
from tests.support.waits import until

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://localhost")


def _setup(n: int = 2, **settings: Any) -> tuple[int, list[Any], dict[int, str]]:
    from rest_framework.test import APIClient

    users = [
        user_register(username=f"ws{n}{i}{id(settings)}", password="correct-horse-battery") for i in range(n)
    ]
    clients = []
    for u in users:
        c = APIClient()
        c.credentials(HTTP_AUTHORIZATION=f"Token {user_token(user=u)}")
        clients.append(c)
    game_id = seated_game(clients, **settings)
    game = Game.objects.get(pk=game_id)
    tokens = {gs.seat: user_token(user=gs.user) for gs in game.game_seats.all()}
    return game_id, users, tokens


def _connect(
    game_id: int, token: str | None = None, origin: bytes = b"http://localhost"
) -> WebsocketCommunicator:
    path = f"/ws/games/{game_id}/" + (f"?token={token}" if token else "")
    return WebsocketCommunicator(application, path, headers=[(b"origin", origin)])


async def _refused_code(comm: WebsocketCommunicator) -> int:
    """A refused socket is accepted, then closed before anything is sent: the close code says why."""
    assert (await comm.connect())[0]
    out = await comm.receive_output(timeout=5)
    assert out["type"] == "websocket.close", out
    return int(out["code"])


async def _until(comm: WebsocketCommunicator, kind: str, timeout: float = 5) -> dict[str, Any]:
    while True:
        message = await comm.receive_json_from(timeout=timeout)
        if message["type"] == kind:
            return message


async def _drain(comm: WebsocketCommunicator) -> list[dict[str, Any]]:
    out = []
    while not await comm.receive_nothing(timeout=0.3):
        out.append(await comm.receive_json_from())
    return out


def test_player_gets_own_hand_spectator_none_and_commands_flow_to_both():
    game_id, _users, tokens = _setup()

    async def run() -> None:
        game = await database_sync_to_async(Game.objects.get)(pk=game_id)
        awaited = game.awaiting_seat
        player = _connect(game_id, tokens[awaited])
        spectator = _connect(game_id)
        assert (await player.connect())[0] and (await spectator.connect())[0]
        state = await _until(player, "state")
        assert state["view"]["seat"] == awaited and len(state["view"]["hand"]) == 5
        engine_state = await database_sync_to_async(load_state)(game)
        assert state["seq"] == game.last_seq
        assert state["legal"] == legal_commands(engine_state, awaited) != []
        spec_state = await _until(spectator, "state")
        assert spec_state["view"]["hand"] is None and spec_state["legal"] == []
        command = {k: v for k, v in state["legal"][0].items() if k != "seat"}
        await player.send_json_to({"type": "command", "cmd_id": "one", **command})
        got = await _drain(player)
        acks = [m for m in got if m["type"] == "ack"]
        assert [a["cmd_id"] for a in acks] == ["one"]
        seqs = [m["seq"] for m in got if m["type"] == "event"]
        assert seqs == list(range(state["seq"] + 1, acks[0]["seq"] + 1))
        spec_seqs = [m["seq"] for m in await _drain(spectator) if m["type"] == "event"]
        assert spec_seqs == seqs
        # The same cmd_id again: the first outcome, nothing new written.
        await player.send_json_to({"type": "command", "cmd_id": "one", **command})
        again = await _until(player, "ack")
        assert again["duplicate"] is True and again["seq"] == acks[0]["seq"]
        await player.disconnect()
        await spectator.disconnect()

    asyncio.run(run())
    assert Game.objects.get(pk=game_id).last_seq == GameEvent.objects.filter(game_id=game_id).count()


def test_errors_come_back_with_codes_and_bad_messages_do_not_close_the_socket():
    game_id, _users, tokens = _setup()

    async def run() -> None:
        game = await database_sync_to_async(Game.objects.get)(pk=game_id)
        other = next(s for s in tokens if s != game.awaiting_seat)
        comm = _connect(game_id, tokens[other])
        await comm.connect()
        await _until(comm, "state")
        await comm.send_json_to({"type": "command", "cmd_id": "x", "play": ["house"]})
        error = await _until(comm, "error")
        assert error["code"] == "not_your_turn" and error["cmd_id"] == "x"
        await comm.send_to(text_data="{not json")
        assert (await _until(comm, "error"))["code"] == "bad_message"
        await comm.send_json_to({"type": "fly"})
        assert (await _until(comm, "error"))["code"] == "bad_message"
        await comm.send_json_to({"type": "resume", "after": "x"})
        assert (await _until(comm, "error"))["code"] == "bad_message"
        await comm.send_json_to({"type": "command", "cmd_id": None, "react": "none"})
        assert (await _until(comm, "error"))["code"] == "bad_command"
        await comm.send_json_to({"type": "ping"})
        assert (await _until(comm, "pong"))["type"] == "pong"
        await comm.disconnect()

    asyncio.run(run())


def test_a_missed_turn_warns_its_seat_over_the_socket_and_a_move_of_its_own_ends_it():
    from datetime import timedelta

    from django.utils import timezone

    from games.services.autoplay import game_deadline_expire

    game_id, _users, tokens = _setup()

    def expire() -> None:
        game = Game.objects.get(pk=game_id)
        Game.objects.filter(pk=game_id).update(deadline_at=timezone.now() - timedelta(seconds=1))
        game_deadline_expire(game_id=game_id, guard_seq=game.last_seq)

    async def run() -> None:
        game = await database_sync_to_async(Game.objects.get)(pk=game_id)
        seat = game.awaiting_seat
        late, other = _connect(game_id, tokens[seat]), _connect(game_id, tokens[1 - seat])
        for comm in (late, other):
            await comm.connect()
            assert (await _until(comm, "state"))["away_warning"] is False
        await database_sync_to_async(expire)()  # the autopilot plays the seat's turn
        mine = await _until(late, "view")
        assert mine["away_warning"] is True
        view = await _until(other, "view")
        assert view["away_warning"] is False
        # A socket opened now is told at once; the resume's view and a sync's say it too.
        again = _connect(game_id, tokens[seat])
        await again.connect()
        assert (await _until(again, "state"))["away_warning"] is True
        await again.send_json_to({"type": "sync"})
        assert (await _until(again, "view"))["away_warning"] is True
        await again.disconnect()
        while not (view["awaiting"] and view["awaiting"]["seat"] == seat):
            # The other seat answers whatever it is asked, until the late seat must decide.
            if view["legal"]:
                command = {k: v for k, v in view["legal"][0].items() if k != "seat"}
                await other.send_json_to({"type": "command", "cmd_id": f"o{view['seq']}", **command})
            view = await _until(other, "view")
        # The late seat's socket catches up to the other's view (none came if the autopilot's
        # move already left the decision with the late seat: the deal decides).
        while mine["seq"] < view["seq"]:
            mine = await _until(late, "view")
        assert mine["away_warning"] is True
        command = {k: v for k, v in mine["legal"][0].items() if k != "seat"}
        await late.send_json_to({"type": "command", "cmd_id": "mine", **command})
        assert (await _until(late, "view"))["away_warning"] is False
        await late.disconnect()
        await other.disconnect()

    asyncio.run(run())


def _dealt_hands(game_id: int) -> list[list[str]]:
    (_, started), *_ = events_with_seq(Game.objects.get(pk=game_id), after=0, upto=1)
    return [list(h) for h in started["hands"]]


def test_resume_sends_exactly_the_missed_events_in_order():
    game_id, _users, tokens = _setup()

    async def run() -> None:
        comm = _connect(game_id, tokens[0])
        await comm.connect()
        state = await _until(comm, "state")
        await comm.send_json_to({"type": "resume", "after": 0})
        got = [m for m in await _drain(comm) if m["type"] == "event"]
        assert [m["seq"] for m in got] == list(range(1, state["seq"] + 1))
        assert got[0]["event"]["type"] == "GameStarted" and "hands" not in got[0]["event"]
        dealt = await database_sync_to_async(_dealt_hands)(game_id)
        assert got[0]["event"]["hand"] == dealt[0]  # its own dealt hand, and no other seat's
        assert got[0]["event"]["hand_sizes"] == [len(h) for h in dealt]
        await comm.disconnect()

    asyncio.run(run())


async def _move(comm: WebsocketCommunicator, game_id: int, cmd_id: str) -> int:
    """The awaited seat's socket makes its first legal move; the log's last seq after it."""
    await comm.send_json_to({"type": "sync"})
    view = await _until(comm, "view")
    command = {k: v for k, v in view["legal"][0].items() if k != "seat"}
    await comm.send_json_to({"type": "command", "cmd_id": cmd_id, **command})
    return int((await _until(comm, "ack"))["seq"])


def _mover_and_watcher(
    game_id: int, tokens: dict[int, str]
) -> tuple[WebsocketCommunicator, WebsocketCommunicator]:
    """A two-seat game's players: one socket for whoever moves next, and a spectator's."""
    game = Game.objects.get(pk=game_id)
    return _connect(game_id, tokens[game.awaiting_seat]), _connect(game_id)


def test_a_resume_sends_the_moves_made_since_the_socket_opened():
    """The socket's game row is the one it read when it opened: a resume reads the log to its end now."""
    game_id, _users, tokens = _setup(2, turn_timer=600, reaction_timer=600, discard_timer=600)
    mover, watcher = _mover_and_watcher(game_id, tokens)

    async def run() -> None:
        assert (await mover.connect())[0] and (await watcher.connect())[0]
        opened = (await _until(watcher, "state"))["seq"]
        await _until(mover, "state")
        last = await _move(mover, game_id, "m1")
        await _drain(watcher)
        await watcher.send_json_to({"type": "resume", "after": opened})
        got = [m["seq"] for m in await _drain(watcher) if m["type"] == "event"]
        assert got == list(range(opened + 1, last + 1))
        await mover.disconnect()
        await watcher.disconnect()

    asyncio.run(run())


def test_a_push_the_channel_layer_lost_is_read_from_the_log_when_the_next_one_arrives():
    """The layer delivers at most once: a socket that missed a push sees the next one start past
    its seq and reads what it missed from the log, however long ago it opened."""
    from channels.layers import get_channel_layer

    from games.publish import viewer_group
    from games.push import SPECTATOR

    game_id, _users, tokens = _setup(2, turn_timer=600, reaction_timer=600, discard_timer=600)
    watcher = _connect(game_id)

    async def run() -> None:
        layer = get_channel_layer()
        assert (await watcher.connect())[0]
        opened = (await _until(watcher, "state"))["seq"]
        spectators = viewer_group(game_id, SPECTATOR)  # where a spectator's pushes come
        (watcher_channel,) = layer.groups[spectators]  # the only socket at the game so far
        mover = _connect(
            game_id, tokens[(await database_sync_to_async(Game.objects.get)(pk=game_id)).awaiting_seat]
        )
        assert (await mover.connect())[0]
        await _until(mover, "state")
        await layer.group_discard(spectators, watcher_channel)  # the next push is lost to it
        lost = await _move(mover, game_id, "m1")
        await layer.group_add(spectators, watcher_channel)
        await mover.disconnect()  # the other seat moves next
        game = await database_sync_to_async(Game.objects.get)(pk=game_id)
        mover = _connect(game_id, tokens[game.awaiting_seat])
        assert (await mover.connect())[0]
        await _until(mover, "state")
        last = await _move(mover, game_id, "m2")
        assert last > lost > opened
        got = [m["seq"] for m in await _drain(watcher) if m["type"] == "event"]
        assert got == list(range(opened + 1, last + 1))
        assert metrics.PUSH_GAPS._value.get() == gaps_before + 1  # counted for the operators
        await mover.disconnect()
        await watcher.disconnect()

    gaps_before = metrics.PUSH_GAPS._value.get()
    asyncio.run(run())


def test_a_command_is_answered_only_once_its_moves_push_is_out():
    """A server killed after it answered a move but before its push went out would leave a mover
    who never sends the command again and tables that never hear of the move: the push first."""
    from channels.layers import get_channel_layer

    from games.publish import game_group

    game_id, _users, tokens = _setup(2, turn_timer=600, reaction_timer=600, discard_timer=600)

    async def run() -> dict[str, float]:
        layer = get_channel_layer()
        send = layer.group_send
        times: dict[str, float] = {}

        async def slow(group: str, message: dict[str, Any]) -> None:
            if group.startswith(game_group(game_id)) and message["type"] == "game.push":
                await asyncio.sleep(0.4)  # a busy Redis, a loaded loop
                await send(group, message)
                times["push out"] = time.monotonic()
            else:
                await send(group, message)

        mover = _connect(
            game_id, tokens[(await database_sync_to_async(Game.objects.get)(pk=game_id)).awaiting_seat]
        )
        assert (await mover.connect())[0]
        await _until(mover, "state")
        layer.group_send = slow
        try:
            await _move(mover, game_id, "pushed-first")
            times["ack"] = time.monotonic()
        finally:
            layer.group_send = send
        await mover.disconnect()
        return times

    times = asyncio.run(run())
    assert "push out" in times and times["push out"] <= times["ack"]


def test_with_batch_one_push_arrives_as_one_frame_holding_its_messages_in_order():
    game_id, _users, tokens = _setup()

    async def run() -> None:
        game = await database_sync_to_async(Game.objects.get)(pk=game_id)
        mover = WebsocketCommunicator(
            application, f"/ws/games/{game_id}/?batch=1&token={tokens[game.awaiting_seat]}", headers=[ORIGIN]
        )
        watcher = WebsocketCommunicator(application, f"/ws/games/{game_id}/?batch=1", headers=[ORIGIN])
        assert (await mover.connect())[0] and (await watcher.connect())[0]
        state = await _until(mover, "state")  # one message: a frame holding a single object
        await _drain(watcher)
        command = {k: v for k, v in state["legal"][0].items() if k != "seat"}
        await mover.send_json_to({"type": "command", "cmd_id": "b", **command})
        frames = await _drain(watcher)
        pushed = [f for f in frames if isinstance(f, list)]
        assert len(pushed) == 1, frames  # the move's events and its deadline: one frame
        messages = pushed[0]
        seqs = [m["seq"] for m in messages if m["type"] == "event"]
        last = await database_sync_to_async(lambda: Game.objects.get(pk=game_id).last_seq)()
        assert seqs == list(range(state["seq"] + 1, last + 1)) and len(seqs) >= 2
        assert [m["type"] for m in messages][-2:] == ["deadline", "view"]
        assert messages[-1]["seq"] == last and messages[-1]["view"]["hand"] is None  # a spectator's view
        assert "frames" not in messages[-1]  # asked for by watch pages only
        assert messages and all("hand" not in m.get("event", {}) for m in messages)
        await mover.disconnect()
        await watcher.disconnect()

    asyncio.run(run())


def test_each_socket_gets_its_own_view_and_legal_commands_with_the_move():
    """What a push carries for a seat is exactly what its page would read from the REST API after
    the move, and a spectator's frames are the replay's; nobody gets another seat's hand."""
    from rest_framework.test import APIClient

    game_id, _users, tokens = _setup(3)

    async def run() -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
        game = await database_sync_to_async(Game.objects.get)(pk=game_id)
        players = {
            seat: WebsocketCommunicator(
                application, f"/ws/games/{game_id}/?batch=1&token={token}", headers=[ORIGIN]
            )
            for seat, token in tokens.items()
        }
        watcher = WebsocketCommunicator(
            application, f"/ws/games/{game_id}/?batch=1&frames=1", headers=[ORIGIN]
        )
        for comm in [*players.values(), watcher]:
            assert (await comm.connect())[0]
            await _drain(comm)
        mover = players[game.awaiting_seat]
        await mover.send_json_to({"type": "sync"})
        synced = next(m for m in await _drain(mover) if isinstance(m, dict) and m["type"] == "view")
        state = await database_sync_to_async(load_state)(game)
        assert synced["seq"] == game.last_seq
        assert synced["legal"] == legal_commands(state, game.awaiting_seat) != []
        command = {k: v for k, v in synced["legal"][0].items() if k != "seat"}
        await mover.send_json_to({"type": "command", "cmd_id": "v1", **command})
        views = {}
        for seat, comm in players.items():
            got = [m for frame in await _drain(comm) for m in (frame if isinstance(frame, list) else [frame])]
            views[seat] = [m for m in got if m["type"] == "view"][-1]
        spectator = [
            m for frame in await _drain(watcher) for m in (frame if isinstance(frame, list) else [frame])
        ]
        for comm in [*players.values(), watcher]:
            await comm.disconnect()
        return views, [m for m in spectator if m["type"] == "view"][-1]

    views, spectated = asyncio.run(run())
    game = Game.objects.get(pk=game_id)
    for seat, pushed in views.items():
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {tokens[seat]}")
        fetched = client.get(f"/api/games/{game_id}/").json()
        assert pushed["seq"] == fetched["seq"] == game.last_seq
        assert pushed["view"] == fetched["view"] and pushed["legal"] == fetched["legal"]
        assert pushed["deadline"] == fetched["deadline"]
        assert (pushed["legal"] != []) == (seat == game.awaiting_seat)
        assert pushed["awaiting"] == {"seat": game.awaiting_seat, "kind": game.awaiting_kind}
    assert spectated["view"]["hand"] is None and spectated["legal"] == []
    first = spectated["frames"][0]["step"]
    replay = APIClient().get(f"/api/replays/{game_id}/frames/?perspective=spectator&from={first}").json()
    assert spectated["frames"] == replay["frames"]


def test_foreign_origin_banned_user_and_private_stranger_are_refused():
    game_id, users, tokens = _setup(visibility="private")

    async def run() -> None:
        foreign = _connect(game_id, tokens[0], origin=b"http://evil.example")
        assert (await foreign.connect())[0] is False  # refused at the handshake, as a browser's CSRF
        stranger = _connect(game_id)
        assert await _refused_code(stranger) == 4403
        await database_sync_to_async(get_user_model().objects.filter(pk=users[0].pk).update)(is_active=False)
        banned = _connect(game_id, tokens[0])
        assert await _refused_code(banned) == 4403
        ok = _connect(game_id, tokens[1])
        assert (await ok.connect())[0] is True
        await ok.disconnect()

    asyncio.run(run())


def test_signing_out_closes_the_users_open_sockets():
    game_id, users, tokens = _setup()

    async def run() -> None:
        comm = _connect(game_id, tokens[0])
        await comm.connect()
        await _until(comm, "state")

        def sign_out() -> None:
            from django.test import Client

            client = Client()
            client.force_login(users[0])
            client.post("/api/accounts/logout/")

        # Whoever holds seat 0 is one of the two users; sign out that one.
        game = await database_sync_to_async(Game.objects.get)(pk=game_id)
        seat0_user = await database_sync_to_async(lambda: game.game_seats.get(seat=0).user_id)()
        if seat0_user != users[0].pk:
            users.reverse()
        await database_sync_to_async(sign_out)()
        closed = await comm.receive_output(timeout=5)
        while closed["type"] != "websocket.close":
            closed = await comm.receive_output(timeout=5)
        assert closed["code"] == 4403

    asyncio.run(run())


def test_a_watch_page_counts_itself_over_its_socket_and_its_socket_ending_says_goodbye():
    from replays.services import watcher_count

    game_id, _users, tokens = _setup()
    # Two people (one signed out, one signed in): two pages of one person would count once.
    spectator = user_token(user=user_register(username=f"spec{game_id}", password="horse-battery-staple"))

    async def run() -> list[int]:
        counts = []
        first, second = _connect(game_id), _connect(game_id, spectator)
        seated = _connect(game_id, tokens[0])
        for comm in (first, second, seated):
            assert (await comm.connect())[0]
        for comm, client_id in ((first, "watch-page-one"), (second, "watch-page-two")):
            await comm.send_json_to({"type": "watching", "client_id": client_id})
            counts.append((await _until(comm, "watchers"))["count"])
        await seated.send_json_to({"type": "watching", "client_id": "a-seated-player"})
        assert (await _until(seated, "error"))["code"] == "bad_message"
        await first.send_json_to({"type": "watching", "client_id": "x"})
        assert (await _until(first, "error"))["code"] == "bad_client_id"
        await first.disconnect()
        read_count = database_sync_to_async(lambda: watcher_count(Game.objects.get(pk=game_id)))

        async def changed() -> tuple[int] | None:
            n = await read_count()
            return (n,) if n != counts[-1] else None

        (after,) = await until(changed, f"the count stayed {counts[-1]} after a watch page's socket ended")
        counts.append(after)
        await second.disconnect()
        await seated.disconnect()
        return counts

    assert asyncio.run(run()) == [1, 2, 1]
    assert Game.objects.get(pk=game_id).watched_until is not None  # its pushes carry replay frames


def test_a_watch_page_gets_the_spectators_view_when_the_game_is_no_longer_marked_watched():
    game_id, _users, tokens = _setup()

    async def run() -> dict[str, Any]:
        game = await database_sync_to_async(Game.objects.get)(pk=game_id)
        mover = _connect(game_id, tokens[game.awaiting_seat])
        watcher = WebsocketCommunicator(
            application, f"/ws/games/{game_id}/?batch=1&frames=1", headers=[ORIGIN]
        )
        assert (await mover.connect())[0] and (await watcher.connect())[0]
        state = await _until(mover, "state")
        await _drain(watcher)
        # The mark ran out (no heartbeat for a while): pushes carry no watch page's frame.
        await database_sync_to_async(lambda: Game.objects.filter(pk=game_id).update(watched_until=None))()
        command = {k: v for k, v in state["legal"][0].items() if k != "seat"}
        await mover.send_json_to({"type": "command", "cmd_id": "w1", **command})
        pushed = [m for f in await _drain(watcher) for m in (f if isinstance(f, list) else [f])]
        await watcher.send_json_to({"type": "ping"})
        pong = await _until(watcher, "pong")
        await mover.disconnect()
        await watcher.disconnect()
        return {"view": [m for m in pushed if m["type"] == "view"][-1], "pong": pong}

    got = asyncio.run(run())
    assert "frames" not in got["view"] and got["view"]["view"]["hand"] is None
    assert got["pong"] == {"type": "pong"}  # the socket is still open


def test_the_end_of_a_game_sends_the_places_by_the_one_placing_rule():
    """The push of the move that ends a game, a later state, a synced view and the API all carry
    each seat's place, by the rule the ratings follow (an abandoned seat last), not by survival."""
    from rest_framework.test import APIClient

    from harehra.placings import outcome_from_log
    from ratings.models import Placing

    game_id, _users, tokens = _setup(3)
    # Played by the three people's commands until seat 2 is out and seat 1 must take a volley
    # from seat 0 that puts it out; then, watched: seat 1's person leaves and its bot takes it.
    seat_1_to_the_brink(game_id)

    async def run() -> dict[str, Any]:
        player = _connect(game_id, tokens[0])
        assert (await player.connect())[0]
        running = await _until(player, "state")
        await _drain(player)
        await database_sync_to_async(end_with_seat_1_abandoned)(game_id)
        pushed = [m for m in await _drain(player) if m["type"] == "view"]
        await player.send_json_to({"type": "sync"})
        synced = await _until(player, "view")
        await player.disconnect()
        late = _connect(game_id, tokens[2])
        assert (await late.connect())[0]
        state = await _until(late, "state")
        await late.disconnect()
        return {"running": running, "pushed": pushed, "synced": synced, "state": state}

    got = asyncio.run(run())
    assert got["running"]["places"] is None  # no places while the game runs
    assert [v["places"] for v in got["pushed"]] == [None, [1, 3, 2]]  # the hand-over, then the bot's move
    assert got["pushed"][-1]["view"]["over"] and got["pushed"][-1]["status"] == "finished"
    assert got["synced"]["places"] == got["state"]["places"] == [1, 3, 2]
    assert got["synced"] == got["pushed"][-1]  # one builder: the socket's own view is the push's
    game = Game.objects.get(pk=game_id)
    logged = [e for _, e in events_with_seq(game)]
    assert outcome_from_log(logged).places == [1, 3, 2]
    assert {p.seat: p.place for p in Placing.objects.filter(game=game)} == {0: 1, 1: 3, 2: 2}
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {tokens[1]}")
    assert client.get(f"/api/games/{game_id}/").json()["places"] == [1, 3, 2]


def _messages(frames: list[Any]) -> list[dict[str, Any]]:
    return [m for frame in frames for m in (frame if isinstance(frame, list) else [frame])]


def test_a_page_reconnecting_with_its_last_seq_gets_only_what_it_missed_then_the_view():
    """A page back after its server restarted names the last seq it saw: it gets the events after
    it (as its seat sees them), then the view they lead to, and no whole state; one that missed
    nothing gets the view alone."""
    game_id, _users, tokens = _setup(2, turn_timer=600, reaction_timer=600, discard_timer=600)
    game = Game.objects.get(pk=game_id)
    mover_seat = game.awaiting_seat
    other_seat = next(s for s in tokens if s != mover_seat)

    def reconnecting(seat: int, after: int) -> WebsocketCommunicator:
        path = f"/ws/games/{game_id}/?batch=1&token={tokens[seat]}&after={after}"
        return WebsocketCommunicator(application, path, headers=[ORIGIN])

    async def run() -> tuple[int, int, list[dict[str, Any]], list[dict[str, Any]]]:
        page = _connect(game_id, tokens[other_seat])
        assert (await page.connect())[0]
        seen = (await _until(page, "state"))["seq"]
        await page.disconnect()  # its server went away
        mover = _connect(game_id, tokens[mover_seat])
        assert (await mover.connect())[0]
        await _until(mover, "state")
        last = await _move(mover, game_id, "r1")
        await mover.disconnect()
        back = reconnecting(other_seat, seen)
        assert (await back.connect())[0]
        missed = _messages(await _drain(back))
        await back.disconnect()
        again = reconnecting(other_seat, last)
        assert (await again.connect())[0]
        nothing = _messages(await _drain(again))
        await again.disconnect()
        return seen, last, missed, nothing

    seen, last, missed, nothing = asyncio.run(run())
    assert last > seen
    kinds = [m["type"] for m in missed if m["type"] != "presence"]
    assert kinds == ["event"] * (last - seen) + ["view"], kinds
    assert [m["seq"] for m in missed if m["type"] == "event"] == list(range(seen + 1, last + 1))
    game = Game.objects.get(pk=game_id)
    expected = [
        event_for(e, other_seat) for _, e in events_with_seq(game, after=seen, upto=last)
    ]  # as its seat sees them: no other seat's hidden cards
    assert [m["event"] for m in missed if m["type"] == "event"] == expected
    assert next(m for m in missed if m["type"] == "view")["seq"] == last
    assert [m["type"] for m in nothing if m["type"] != "presence"] == ["view"]


def test_a_second_socket_on_a_seat_is_told_the_presence_and_the_game_is_not_told_again():
    """Presence is announced to the game's sockets when a seat goes from no socket to one; a
    seat's second socket (another tab) changes nobody's presence, so only it is told."""
    game_id, _users, tokens = _setup()

    async def run() -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
        first = _connect(game_id, tokens[0])
        assert (await first.connect())[0]
        opened = _messages(await _drain(first))
        second = _connect(game_id, tokens[0])
        assert (await second.connect())[0]
        told = _messages(await _drain(second))
        heard = _messages(await _drain(first))
        await first.disconnect()
        await second.disconnect()
        return opened, told, heard

    opened, told, heard = asyncio.run(run())
    connected = [
        s["seat"] for m in opened if m["type"] == "presence" for s in m["seats"] if s["status"] == "connected"
    ]
    assert connected == [0]  # the first socket heard its seat arrive
    presence = [m for m in told if m["type"] == "presence"]
    assert len(presence) == 1 and presence[0]["seats"][0]["status"] == "connected"
    assert [m for m in heard if m["type"] == "presence"] == []


def test_a_socket_opens_in_three_statements_in_two_thread_hops():
    """Signing in (one hop), then in one hop the read that both checks access and makes what the
    page needs, and the seat's count: one statement each, by token or by session; a spectator's
    is the read alone."""
    from django.test import Client

    from tests.support.statements import statements_sent

    game_id, users, tokens = _setup(2)
    browser = Client()
    browser.force_login(users[0])
    session = browser.cookies["sessionid"].value

    def all_gone() -> bool:
        return not GameSeat.objects.filter(game_id=game_id, connections__gt=0).exists()

    async def opened(comm: WebsocketCommunicator) -> list[str]:
        with statements_sent() as sent:
            assert (await comm.connect(timeout=5))[0]
            await _until(comm, "state")
            await comm.receive_nothing(timeout=0.3)
        await comm.disconnect(timeout=5)
        # Its goodbye (the seat's count) is done before the next socket's statements are counted.
        await until(database_sync_to_async(all_gone), "the socket's seat counted no socket")
        return list(sent)

    async def run() -> dict[str, list[str]]:
        await opened(_connect(game_id, tokens[0]))  # the game's state now in the process's memory
        by_cookie = WebsocketCommunicator(
            application,
            f"/ws/games/{game_id}/",
            headers=[ORIGIN, (b"cookie", f"sessionid={session}".encode())],
        )
        return {
            "token": await opened(_connect(game_id, tokens[1])),
            "session": await opened(by_cookie),
            "spectator": await opened(_connect(game_id)),
        }

    sent = asyncio.run(run())
    assert len(sent["token"]) == 3, sent["token"]
    assert len(sent["session"]) == 3, sent["session"]
    assert len(sent["spectator"]) == 1 and sent["spectator"][0].startswith("SELECT g."), sent["spectator"]
    for how in ("token", "session"):
        assert sent[how][1].startswith("SELECT g.") and sent[how][2].startswith("UPDATE"), sent[how]
