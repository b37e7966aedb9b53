"""Points, streaks and tie-breaks of a tournament. Pure: no Django (docs/TOURNAMENTS.md, "Scoring").

Points by place out of 12 at every table size, spread evenly from first (12) to last (0), so that
the average seat is worth 6 whatever the table's size: a Swiss round with tables of 3 and 4, or an
arena where tables of different sizes run side by side, favours no table. Places p and n+1-p add up
to 12 at a table of n (the 6-seat table's 9.6 / 7.2 / 4.8 / 2.4 are rounded to 10 / 7 / 5 / 2 for
that reason).

Seats that share a place (eliminated by one move, survivors of a turn-limit draw) split the points
of the places they cover, rounded down. People who left and whom a bot played to the end are
placed last together (harehra/placings.py) and score the last place's 0: leaving never pays.
A bot's seat scores for nobody; the people at its table are placed among all seats, bots included.
A Swiss bye scores 6, the average seat: no better than an even game.

Arena streak: after two sole first places in a row, each result counts double until a game that is
not a sole first place breaks the streak.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

POINTS: dict[int, tuple[int, ...]] = {
    2: (12, 0),
    3: (12, 6, 0),
    4: (12, 8, 4, 0),
    5: (12, 9, 6, 3, 0),
    6: (12, 10, 7, 5, 2, 0),
}
BYE_POINTS = 6
STREAK_FROM = 2  # sole wins in a row after which results count double (arena)


def table_points(places: Sequence[int]) -> list[int]:
    """Each seat's points from the seats' places (1 = first; shared places repeat, as placings
    give them). Seats sharing a place split the points of the places they cover, rounded down;
    the last place, shared or not, scores the last place's points."""
    n = len(places)
    scale = POINTS[n]
    out = []
    for place in places:
        if place == n:
            out.append(scale[-1])  # last, alone or with others who left
            continue
        m = sum(1 for p in places if p == place)
        covered = scale[place - 1 : place - 1 + m]
        out.append(sum(covered) // m)
    return out


def sole_winners(places: Sequence[int]) -> list[bool]:
    firsts = sum(1 for p in places if p == 1)
    return [p == 1 and firsts == 1 for p in places]


@dataclass
class Tally:
    """An entrant's running figures: what the Entry row stores."""

    score: int = 0
    games: int = 0
    wins: int = 0  # sole first places
    streak: int = 0  # sole first places in a row (arena)
    byes: int = 0


def tally_game(tally: Tally, points: int, won: bool, arena: bool) -> int:
    """Add one game's result to `tally` (in the order the entrant played them); the points it counts."""
    counted = points * 2 if arena and tally.streak >= STREAK_FROM else points
    tally.score += counted
    tally.games += 1
    tally.wins += won
    tally.streak = tally.streak + 1 if won else 0
    return counted


def tally_bye(tally: Tally) -> int:
    tally.score += BYE_POINTS
    tally.byes += 1
    return BYE_POINTS


@dataclass
class Line:
    """One entrant for the standings: figures, and the people they sat with at each game."""

    entry: int
    score: int
    wins: int
    games: int
    tables: Sequence[Sequence[int]] = field(default_factory=list)  # per game, the other entrants
    removed: bool = False  # by a moderator: listed after everyone still in


@dataclass
class Standing:
    entry: int
    rank: int
    score: int
    opposition: float  # Swiss: the mean final score of the people met, summed over games
    wins: int
    games: int
    removed: bool = False


def standings(lines: Sequence[Line], swiss: bool) -> list[Standing]:
    """The standings, best first, by the written tie-breaks:

    Swiss: points; then opposition (over the entrant's games, the average final score of the
    other people at the table, added up: beating strong tables counts); then sole first places;
    then the entry (the earlier entrant).
    Arena: points; then sole first places; then fewer games (the same points in fewer games);
    then the entry.
    Equal on every figure but the entry, entrants share a rank. Entrants a moderator removed
    come after all the others (by the same order among themselves): they take no place above
    anyone still in, and so no podium.
    """
    score: Mapping[int, int] = {line.entry: line.score for line in lines}
    rows = []
    for line in lines:
        opposition = 0.0
        if swiss:
            for others in line.tables:
                known = [score[o] for o in others if o in score]
                opposition += sum(known) / len(known) if known else 0.0
        rows.append(
            Standing(line.entry, 0, line.score, round(opposition, 3), line.wins, line.games, line.removed)
        )

    def key(s: Standing) -> tuple[float, ...]:
        if swiss:
            return (s.removed, -s.score, -s.opposition, -s.wins)
        return (s.removed, -s.score, -s.wins, s.games)

    rows.sort(key=lambda s: (key(s), s.entry))
    for i, row in enumerate(rows):
        row.rank = rows[i - 1].rank if i and key(rows[i - 1]) == key(row) else i + 1
    return rows


def pause_wait(pauses: int) -> int:
    """Seconds an arena entrant waits before being seated again after coming back from their
    `pauses`-th pause: nothing the first time, then 15 s more per pause, at most 2 minutes."""
    return min(120, 15 * max(0, pauses - 1))
