"""The tournament socket through Channels' communicator on the full ASGI application and the site's
channel layer: the standings on (re)connect and after every change, pushed after commit; each
player's own entry to them alone (seated at a new table: its game); nothing of anyone's to others."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.publish import publish_user_signed_out
from accounts.services import user_token
from games.models import Game
from harehra_site.asgi import application
from tests.factories import play_out
from tests.tournaments.test_services import event
from tournaments.models import EventTable
from tournaments.services import (
    tournament_cancel,
    tournament_join,
    tournament_pause,
    tournament_seat_round,
    tournament_start,
)

# The socket's database threads keep connections the test database's teardown must end.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("end_lingering_connections")]
HEADERS = [(b"origin", b"http://localhost")]
ROW_KEYS = {
    "rank", "player", "points", "games", "wins", "opposition", "byes", "streak", "paused", "withdrawn",
    "removed", "entry",
}  # fmt: skip


def call(func: Any) -> Any:
    """A service call from the test's loop, in a thread as a server makes it (its commit hooks
    publish through the running loop)."""
    return database_sync_to_async(func)


def _socket(tournament_id: int, token: str | None = None) -> WebsocketCommunicator:
    query = f"?token={token}" if token else ""
    return WebsocketCommunicator(application, f"/ws/tournaments/{tournament_id}/{query}", headers=HEADERS)


async def _next(comm: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    message = await comm.receive_json_from(timeout=5)
    assert message["type"] == kind, message
    return message


def _players(standings: dict[str, Any]) -> list[str]:
    return [r["player"] for r in standings["standings"]]


def test_standings_and_each_players_own_entry_are_pushed_after_every_change(
    staff: Any, make_user: Any
) -> None:
    t = event(staff, format="arena", table_size=2, min_table_size=2, bots_fill=False, rated=False)
    ana, bo = make_user("ana"), make_user("bo")
    tokens = {u.username: user_token(user=u) for u in (ana, bo)}

    async def run() -> None:
        watcher = _socket(t.pk)  # anyone may watch, signed out too
        assert (await watcher.connect())[0]
        first = await _next(watcher, "standings")
        assert (first["tournament"], first["status"], first["entrants"], first["standings"]) == (
            t.pk, "scheduled", 0, []
        )  # fmt: skip
        mine = _socket(t.pk, tokens["ana"])
        assert (await mine.connect())[0]
        await _next(mine, "standings")
        me = (await _next(mine, "me"))["me"]
        assert me == {"entered": False, "paused": False, "withdrawn": False, "removed": False, "pauses": 0,
                      "table": None, "game": None}  # fmt: skip

        await call(tournament_join)(tournament=t, user=ana)
        for comm in (watcher, mine):
            assert _players(await _next(comm, "standings")) == ["ana"]
        assert (await _next(mine, "me"))["me"]["entered"] is True
        await call(tournament_join)(tournament=t, user=bo)  # bo's entry is told to bo alone
        for comm in (watcher, mine):
            assert sorted(_players(await _next(comm, "standings"))) == ["ana", "bo"]
        assert await mine.receive_nothing(timeout=0.2) and await watcher.receive_nothing(timeout=0.2)

        await call(tournament_start)(tournament=t, user=staff)
        table = await call(lambda: EventTable.objects.get(tournament=t))()
        started = await _next(watcher, "standings")
        assert started["status"] == "running" and started["ends_at"] is not None
        assert (await _next(mine, "standings"))["status"] == "running"
        me = (await _next(mine, "me"))["me"]
        assert (me["table"], me["game"]) == (table.table_id, table.game_id)  # the page goes there

        game = await call(Game.objects.get)(pk=table.game_id)
        await call(play_out)(game, random.Random(7))
        ended = await _next(watcher, "standings")
        assert [r["games"] for r in ended["standings"]] == [1, 1]
        assert sum(r["points"] for r in ended["standings"]) == 12
        assert set(ended["standings"][0]) == ROW_KEYS  # the rows hold nobody's table or game
        await _next(mine, "standings")
        assert (await _next(mine, "me"))["me"]["game"] is None  # free again

        made = await call(tournament_seat_round)(tournament=t)  # the beat's next seating
        assert len(made) == 1
        me = (await _next(mine, "me"))["me"]
        assert me["game"] == made[0].game_id and me["game"] != table.game_id
        assert await watcher.receive_nothing(timeout=0.2)  # an arena seating changes no standings

        await call(tournament_pause)(tournament=t, user=ana)
        paused = await _next(watcher, "standings")
        assert next(r for r in paused["standings"] if r["player"] == "ana")["paused"] is True
        await _next(mine, "standings")
        assert (await _next(mine, "me"))["me"]["paused"] is True

        await call(tournament_cancel)(tournament=t, user=staff)
        for comm in (watcher, mine):
            cancelled = await _next(comm, "standings")
            assert cancelled["status"] == "cancelled" and cancelled["podium"] == []
        assert await mine.receive_nothing(timeout=0.2) and await watcher.receive_nothing(timeout=0.2)
        await watcher.disconnect()
        await mine.disconnect()

    asyncio.run(run())


def test_a_reconnecting_page_gets_the_whole_state_and_a_swiss_round_is_pushed(
    staff: Any, make_user: Any
) -> None:
    t = event(staff, rounds=2, rated=False)  # Swiss, tables of 3
    people = [make_user() for _ in range(3)]
    for u in people:
        tournament_join(tournament=t, user=u)
    token = user_token(user=people[0])

    async def run() -> None:
        page = _socket(t.pk, token)
        assert (await page.connect())[0]
        assert len((await _next(page, "standings"))["standings"]) == 3
        assert (await _next(page, "me"))["me"]["game"] is None
        await page.disconnect()  # gone while the round is seated...
        await call(tournament_start)(tournament=t, user=staff)
        page = _socket(t.pk, token)  # ...and back: the first messages say all of it
        assert (await page.connect())[0]
        state = await _next(page, "standings")
        assert (state["status"], state["current_round"], state["rounds"]) == ("running", 1, 2)
        game = (await _next(page, "me"))["me"]["game"]
        assert game is not None
        await call(play_out)(await call(Game.objects.get)(pk=game), random.Random(3))
        assert [r["games"] for r in (await _next(page, "standings"))["standings"]] == [1, 1, 1]
        await _next(page, "me")
        await call(tournament_seat_round)(tournament=t)
        second = await _next(page, "standings")
        assert second["current_round"] == 2
        assert (await _next(page, "me"))["me"]["game"] not in (None, game)
        await page.disconnect()

    asyncio.run(run())


def test_each_players_games_come_with_the_results_and_a_page_behind_asks_for_them(
    staff: Any, make_user: Any
) -> None:
    t = event(staff, format="arena", table_size=2, min_table_size=2, bots_fill=False, rated=False)
    ana, bo = make_user("ana"), make_user("bo")
    entries = [tournament_join(tournament=t, user=u).pk for u in (ana, bo)]
    other = event(staff, name="Other")
    stranger = tournament_join(tournament=other, user=make_user()).pk

    async def run() -> None:
        watcher = _socket(t.pk)
        assert (await watcher.connect())[0]
        assert (await _next(watcher, "standings"))["games"] == {}  # a page asks for what it lacks
        await call(tournament_start)(tournament=t, user=staff)
        assert (await _next(watcher, "standings"))["games"] == {}  # started: no result yet
        table = await call(lambda: EventTable.objects.get(tournament=t))()
        await call(play_out)(await call(Game.objects.get)(pk=table.game_id), random.Random(5))
        ended = await _next(watcher, "standings")
        games = ended["games"]
        assert sorted(games) == sorted(str(e) for e in entries)  # the whole lists of the game's players
        by_entry = {r["entry"]: r for r in ended["standings"]}
        for e in entries:
            (row,) = games[str(e)]
            assert (row["game"], row["replay"], row["bye"], row["players"]) == (
                table.game_id, f"/replays/{table.game_id}/", False, 2
            )  # fmt: skip
            assert row["points"] == by_entry[e]["points"] and row["won"] == (by_entry[e]["wins"] == 1)

        # A page whose lists fell behind asks: those entrants' whole lists (another event's left out).
        await watcher.send_json_to({"type": "games", "entries": [entries[0], stranger]})
        answer = await _next(watcher, "games")
        first = str(entries[0])
        assert answer == {"type": "games", "tournament": t.pk, "games": {first: games[first]}}
        for entries_asked in (None, [], ["1"], list(range(51)), [True]):
            bad = {"type": "games"} if entries_asked is None else {"type": "games", "entries": entries_asked}
            await watcher.send_json_to(bad)
            error = await watcher.receive_json_from(timeout=3)
            assert error["type"] == "error" and error["code"] == "bad_message", bad
        await watcher.disconnect()

    asyncio.run(run())


def test_a_swiss_bye_is_in_its_players_list_of_games(staff: Any, make_user: Any) -> None:
    t = event(staff, table_size=2, min_table_size=2, bots_fill=False, rounds=1, rated=False)
    for _ in range(3):
        tournament_join(tournament=t, user=make_user())

    async def run() -> None:
        watcher = _socket(t.pk)
        assert (await watcher.connect())[0]
        await _next(watcher, "standings")
        await call(tournament_start)(tournament=t, user=staff)
        games = (await _next(watcher, "standings"))["games"]
        (bye,) = games.values()  # three players at tables of 2: one sits the round out
        assert bye == [{"game": None, "round": 1, "bye": True, "place": None, "players": None, "points": 6,
                        "won": False, "bot_played": False, "replay": None}]  # fmt: skip
        await watcher.disconnect()

    asyncio.run(run())


def test_an_unknown_event_is_refused_bad_messages_answered_and_signing_out_closes(
    staff: Any, make_user: Any
) -> None:
    t = event(staff)
    ana = make_user()
    token = user_token(user=ana)

    async def run() -> None:
        gone = _socket(999999)
        await gone.connect()
        assert await gone.receive_output(timeout=3) == {"type": "websocket.close", "code": 4403}
        comm = _socket(t.pk, token)
        assert (await comm.connect())[0]
        await _next(comm, "standings")
        await _next(comm, "me")
        for bad in ("{not json", '{"type": "join"}', "null"):
            await comm.send_to(text_data=bad)
            error = await comm.receive_json_from(timeout=3)
            assert error["type"] == "error" and error["code"] == "bad_message"
        await comm.send_json_to({"type": "ping"})
        assert await comm.receive_json_from(timeout=3) == {"type": "pong"}
        await call(publish_user_signed_out)(ana.pk)
        assert await comm.receive_output(timeout=3) == {"type": "websocket.close", "code": 4403}

    asyncio.run(run())
