"""The bounds of an event's settings and of what a player may host (docs/TOURNAMENTS.md, "Who
creates events"), in one place for the services, the forms and the pages."""

from __future__ import annotations

from datetime import timedelta

# Every event starts within a year: later dates serve no one, and an arena's end is computed from
# its start (a start near 9999-12-31 made that end overflow and every list of events fail).
STARTS_WITHIN = timedelta(days=366)

# A player's own events (staff's are bounded by the model's rules alone).
PLAYER_STARTS_WITHIN = timedelta(days=7)  # announced at most a week ahead
PLAYER_STARTS_LATE = timedelta(minutes=1)  # "now" sent a moment ago is still now
PLAYER_ARENA_MINUTES = (10, 180)  # at least one game at any table size; at most an evening
PLAYER_ROUNDS = (1, 9)
# At once: events a player hosts that have not ended (scheduled or running). Why: a host keeps an
# eye on their event, the lists stay readable, and every running event costs the beat a step
# every 5 s. How often: events created in a day, cancelled ones included, so cancelling and
# creating again does not flood the lists.
PLAYER_EVENTS_AT_ONCE = 2
PLAYER_EVENTS_PER_DAY = 5
PER_DAY = timedelta(days=1)

# How long a game lasts at each table size, in minutes, half of games (p50) and nine in ten
# (p90): `python manage.py bench_game_length --games 300` (bench/game_length.py: decisions
# counted with bots through the engine, at a person's pace; docs/TOURNAMENTS.md).
GAME_MINUTES = {2: (3.5, 7.5), 3: (6, 9), 4: (7, 11), 5: (8.5, 12), 6: (10, 13)}
