"""Seating a tournament's round: players with scores and history in, tables out. Pure: no Django,
no clock, no randomness (the caller orders players and says how long each has waited).

Both formats work the same way (docs/TOURNAMENTS.md, "Seating"):

1. Decide the tables' sizes (how many people at each, how many bot seats) and who sits out.
2. Cut the players, in standings order, into consecutive blocks of those sizes: the seating that
   keeps everyone nearest their own score.
3. Improve it by swapping two players of different tables while a swap lowers the table's
   *conflicts* (Swiss: every earlier meeting of two players now at one table, counted as often as
   they met; arena: two players who sat at each other's last table), choosing the swap that moves
   players least far from their score (Swiss) or standing (arena). Stops when no swap lowers them.

The swaps only ever lower the conflicts, so the seating ends; it is a local search, not an
exhaustive one, and `tests/tournaments/test_seating.py` records what it reaches on known cases.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

MIN_SEATS = 2
MAX_SEATS = 6
# The second phase of the search tries at most this many sideways swaps, each with the swaps that
# may follow it: it bounds the time a hard case takes (a few tens of milliseconds).
SIDEWAYS_BUDGET = 60


@dataclass(frozen=True, eq=False)
class Player:
    """An entrant as the seating sees them. `id` is any number unique among the players."""

    id: int
    score: int = 0
    met: Mapping[int, int] = field(default_factory=dict)  # another player's id -> games together
    last: frozenset[int] = frozenset()  # who sat at this player's last table (arena)
    byes: int = 0  # rounds sat out so far (Swiss)
    waiting: float = 0.0  # seconds free and ready to play (arena)


@dataclass(frozen=True)
class SeatedTable:
    players: tuple[int, ...]  # ids, the best placed first
    bots: int = 0  # seats a bot plays, after the people's

    @property
    def seats(self) -> int:
        return len(self.players) + self.bots


@dataclass(frozen=True)
class Seating:
    tables: tuple[SeatedTable, ...]
    byes: tuple[int, ...] = ()  # Swiss: players who sit this round out
    waiting: tuple[int, ...] = ()  # arena: free players left for the next seating

    def seated(self) -> list[int]:
        return [p for t in self.tables for p in t.players]


def _check_sizes(size: int, min_size: int | None) -> int:
    if not MIN_SEATS <= size <= MAX_SEATS:
        raise ValueError(f"a table seats {MIN_SEATS} to {MAX_SEATS}")
    low = size if min_size is None else min_size
    if not MIN_SEATS <= low <= size:
        raise ValueError(f"the smallest table seats {MIN_SEATS} to {size}")
    return low


def _balanced(people: int, tables: int) -> list[int]:
    """`people` split over `tables` as evenly as possible, the larger parts first."""
    base, extra = divmod(people, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _by_score(players: Sequence[Player]) -> list[Player]:
    """Best score first; players of equal score keep the caller's order (their tie-breaks)."""
    return sorted(players, key=lambda p: -p.score)


def swiss_sizes(
    people: int, size: int, min_size: int | None = None, bots: bool = True
) -> tuple[list[int], int]:
    """How many people sit at each table of a Swiss round (the larger tables first) and how many sit
    out. As few tables as the size allows; then, if some table would hold fewer than `min_size`
    people, bots fill it to `min_size` (`bots`), or the players left over sit out (a bye)."""
    low = _check_sizes(size, min_size)
    if people == 0:
        return [], 0
    tables = -(-people // size)
    parts = _balanced(people, tables)
    if parts[-1] >= low or bots:
        return parts, 0
    full = people // size
    if full == 0:
        return [], people
    return [size] * full, people - full * size


def seat_swiss(
    players: Sequence[Player], size: int, min_size: int | None = None, bots: bool = True
) -> Seating:
    """One Swiss round. `players` in standings order (the caller's tie-breaks decide among equal
    scores; shuffle them for the first round). Score groups first, then as few repeat meetings as
    the swaps find. Bots fill a short table to `min_size` when `bots`; otherwise the lowest
    placed of those with the fewest byes sit out."""
    low = _check_sizes(size, min_size)
    parts, out = swiss_sizes(len(players), size, min_size, bots)
    order = _by_score(players)
    byes: list[Player] = []
    if out:
        # Who sits out: fewest byes so far, then the lowest placed.
        ranked = sorted(range(len(order)), key=lambda i: (order[i].byes, -i))
        chosen = set(ranked[:out])
        byes = [order[i] for i in sorted(chosen)]
        order = [p for i, p in enumerate(order) if i not in chosen]
    tables = _improve(order, parts, [float(p.score) for p in order], _met_conflicts(order))
    return Seating(
        tables=tuple(
            SeatedTable(tuple(order[i].id for i in t), bots=max(0, low - len(t)) if bots else 0)
            for t in tables
        ),
        byes=tuple(p.id for p in byes),
    )


def seat_arena(
    players: Sequence[Player],
    size: int,
    min_size: int | None = None,
    bots_after: float | None = None,
) -> Seating:
    """The arena's seating of the players free now (`players` in standings order, each with how
    long it has waited). As many tables of `size` as they fill, those who waited longest seated
    first, then a table of at least `min_size` from those left. The rest wait, unless bots may fill
    (`bots_after` seconds) and one of them has waited that long: then they sit with bots."""
    low = _check_sizes(size, min_size)
    n = len(players)
    full, rest = divmod(n, size)
    parts = [size] * full
    if rest and rest >= low:
        parts.append(rest)
        rest = 0
    by_wait = sorted(range(n), key=lambda i: (-players[i].waiting, i))
    left = set(by_wait[n - rest :]) if rest else set()
    bot_table = bots_after is not None and bool(left) and max(players[i].waiting for i in left) >= bots_after
    if bot_table:
        parts.append(rest)
        left = set()
    # Standings order among the seated: a player's place in the list the caller gave.
    order = [p for i, p in enumerate(players) if i not in left]
    tables = _improve(order, parts, [float(i) for i in range(len(order))], _last_conflicts(order))
    seated = tuple(
        SeatedTable(tuple(order[i].id for i in t), bots=size - len(t) if len(t) < low else 0) for t in tables
    )
    return Seating(tables=seated, waiting=tuple(players[i].id for i in sorted(left)))


# --- the search ------------------------------------------------------------------------------------

Conflicts = list[dict[int, int]]  # per player index: other index -> how much sitting together costs


def _met_conflicts(order: Sequence[Player]) -> Conflicts:
    """Earlier meetings, counted alike from both sides (whichever side's history says more)."""
    index = {p.id: i for i, p in enumerate(order)}
    out: Conflicts = [{} for _ in order]
    for i, p in enumerate(order):
        for q, n in p.met.items():
            j = index.get(q)
            if j is not None and j != i and n > 0:
                out[i][j] = out[j][i] = max(n, out[i].get(j, 0))
    return out


def _last_conflicts(order: Sequence[Player]) -> Conflicts:
    index = {p.id: i for i, p in enumerate(order)}
    out: Conflicts = [{} for _ in order]
    for i, p in enumerate(order):
        for q in p.last:
            j = index.get(q)
            if j is not None and j != i:
                out[i][j] = 1
                out[j][i] = 1
    return out


def _improve(
    order: Sequence[Player], parts: list[int], level: list[float], conflicts: Conflicts
) -> list[list[int]]:
    """Blocks of `parts` sizes over the indices of `order`, then swaps that lower the conflicts."""
    tables: list[list[int]] = []
    start = 0
    for n in parts:
        tables.append(list(range(start, start + n)))
        start += n
    if not any(conflicts):
        return tables

    def cost_at(i: int, members: list[int], skip: int) -> int:
        c = conflicts[i]
        return sum(c.get(j, 0) for j in members if j != i and j != skip)

    def spread_at(i: int, members: list[int], skip: int) -> float:
        v = level[i]
        return sum(abs(v - level[j]) for j in members if j != i and j != skip)

    def conflicted(t: int) -> bool:
        return any(cost_at(i, tables[t], -1) for i in tables[t])

    def swap(p: int, a: int, q: int, b: int) -> None:
        tables[a][tables[a].index(p)] = q
        tables[b][tables[b].index(q)] = p

    def descend(todo: list[int]) -> None:
        """Swaps that lower the conflicts, while there are any."""
        while todo:
            a = todo.pop()
            improved = True
            while improved:
                improved = False
                for p in list(tables[a]):
                    cp = cost_at(p, tables[a], -1)
                    if not cp:
                        continue
                    best = _best_swap(p, a, cp, tables, cost_at, spread_at)
                    if best is None:
                        continue
                    q, b = best
                    swap(p, a, q, b)
                    if b not in todo and conflicted(b):
                        todo.append(b)
                    improved = True
                    break

    tries = [0]  # sideways swaps tried: the second phase's budget

    def two_steps() -> bool:
        """A swap that leaves the conflicts as they are, followed by one that lowers them: what
        `descend` cannot see. Tables searched near the conflicted one (all of them in a small
        field)."""
        reach = len(tables) if len(tables) <= 32 else 3
        for a in [t for t in range(len(tables)) if conflicted(t)]:
            for p in list(tables[a]):
                cp = cost_at(p, tables[a], -1)
                if not cp:
                    continue
                for b in range(max(0, a - reach), min(len(tables), a + reach + 1)):
                    if b == a:
                        continue
                    for q in list(tables[b]):
                        cq = cost_at(q, tables[b], -1)
                        if cost_at(p, tables[b], q) + cost_at(q, tables[a], p) - cp - cq > 0:
                            continue
                        tries[0] += 1
                        if tries[0] > SIDEWAYS_BUDGET:
                            return False
                        swap(p, a, q, b)
                        for t in (a, b):
                            for x in list(tables[t]):
                                cx = cost_at(x, tables[t], -1)
                                if x in (p, q) or not cx:
                                    continue
                                follow = _best_swap(x, t, cx, tables, cost_at, spread_at)
                                if follow is not None:
                                    swap(x, t, follow[0], follow[1])
                                    return True
                        swap(q, a, p, b)
        return False

    descend([t for t in range(len(tables)) if conflicted(t)])
    for _ in range(len(order)):
        if not two_steps():
            break
        descend([t for t in range(len(tables)) if conflicted(t)])
    for members in tables:
        members.sort()
    return tables


def _best_swap(
    p: int,
    a: int,
    cp: int,
    tables: list[list[int]],
    cost_at: Callable[[int, list[int], int], int],
    spread_at: Callable[[int, list[int], int], float],
) -> tuple[int, int] | None:
    """The swap of `p` (at table `a`, with conflicts `cp` there) lowering the conflicts most and
    moving players least: searched in widening windows of tables around `a`."""
    members_a = tables[a]
    n = len(tables)
    window = 2
    while True:
        best: tuple[int, float, int, int] | None = None
        for b in range(max(0, a - window), min(n, a + window + 1)):
            if b == a:
                continue
            members_b = tables[b]
            for q in members_b:
                cq = cost_at(q, members_b, -1)
                # The conflicts before and after: p's and q's; the pair p-q itself is not at one
                # table before or after.
                delta = cost_at(p, members_b, q) + cost_at(q, members_a, p) - cp - cq
                if delta >= 0:
                    continue
                moved = (
                    spread_at(p, members_b, q)
                    + spread_at(q, members_a, p)
                    - spread_at(p, members_a, -1)
                    - spread_at(q, members_b, -1)
                )
                key = (delta, moved, b, q)
                if best is None or key < best:
                    best = key
        if best is not None:
            return best[3], best[2]
        if window >= n:
            return None
        window *= 4


def conflicts_of(seating: Seating, players: Sequence[Player], arena: bool = False) -> int:
    """The seating's conflicts as the search counts them: earlier meetings of players now at one
    table (Swiss), or pairs who sat at each other's last table (arena)."""
    by_id = {p.id: p for p in players}
    total = 0
    for t in seating.tables:
        for x, i in enumerate(t.players):
            for j in t.players[x + 1 :]:
                if arena:
                    total += int(j in by_id[i].last or i in by_id[j].last)
                else:
                    total += by_id[i].met.get(j, 0)
    return total
