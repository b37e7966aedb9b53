"""What rating costs where it runs, inside the transaction of a game's last move: games of 2, 3 and
4 people, each command and each game's placing-and-rating step timed apart."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import games.services.moves as append
from accounts.services import user_register
from bench.kit.command import BenchCommand
from bench.kit.stats import percentile
from games.eventlog import load_state
from games.models import Game, GameSeat, GameStatus
from games.services.moves import game_command_submit
from games.services.tables import TableSettings, table_create, table_join, table_start
from harehra import legal_commands
from ratings.services import ratings_record_game


class Command(BenchCommand):
    help = "Time the rating step at a game's end against an ordinary command."

    options = (("--games", 30, None), ("--seed", 1, None))

    def handle(self, *args: Any, **options: Any) -> None:
        rng = random.Random(options["seed"])
        rating_ms: list[float] = []
        move_ms: list[float] = []

        def timed(*, game_id: int) -> bool:
            t = time.perf_counter()
            try:
                return ratings_record_game(game_id=game_id)
            finally:
                rating_ms.append((time.perf_counter() - t) * 1000)

        tag = f"br{int(time.time())}"
        users = [user_register(username=f"{tag}u{i}", password="correct-horse-battery") for i in range(8)]
        setattr(append, "ratings_record_game", timed)  # noqa: B010 (the one place it is timed)
        lengths = []
        try:
            for n in range(options["games"]):
                people = rng.sample(users, 2 + n % 3)
                table = table_create(host=people[0], settings=TableSettings(seats=len(people), rated=True))
                for user in people[1:]:
                    table_join(table=table, user=user)
                game = table_start(table=table, user=people[0])
                by_seat = {s.seat: s.user for s in GameSeat.objects.filter(game=game).select_related("user")}
                while game.status == GameStatus.RUNNING:
                    state = load_state(game)
                    assert state.awaiting is not None
                    seat = state.awaiting.seat
                    legal = rng.choice(legal_commands(state, seat))
                    command = {k: v for k, v in legal.items() if k != "seat"}
                    t = time.perf_counter()
                    game_command_submit(
                        game=game, user=by_seat[seat], command=command, client_cmd_id=f"{game.last_seq}"
                    )
                    move_ms.append((time.perf_counter() - t) * 1000)
                    game = Game.objects.get(pk=game.pk)
                lengths.append(game.last_seq)
        finally:
            setattr(append, "ratings_record_game", ratings_record_game)  # noqa: B010
        self.stdout.write(f"games {len(rating_ms)}; events per game: median {statistics.median(lengths):.0f}")
        self.stdout.write(
            f"rating step at a game's end: median {statistics.median(rating_ms):.1f} ms, "
            f"p95 {percentile(rating_ms, 95):.1f} ms"
        )
        self.stdout.write(
            f"a command (the whole service call, the last ones included): median "
            f"{statistics.median(move_ms):.1f} ms, p95 {percentile(move_ms, 95):.1f} ms "
            f"({len(move_ms)} commands)"
        )
