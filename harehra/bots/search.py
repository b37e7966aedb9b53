"""The hard bot: determinized Monte-Carlo search over the worlds its seat cannot tell apart.

From the view alone it knows its hand, the face-up discard pile, the deck (the ruleset), every
hand's size and the public state. The cards it cannot see are the deck less its hand and the
discard pile; a *world* deals them at random to the other hands (by their sizes) and the draw
pile. For each world, every candidate move is played on a private draft (`advance`: the engine's
own rules, no events) and the game is played on for a few turns with the normal bot's policy for
every seat (harehra/bots/playout.py `play_moves`: the moves `heuristic_move` would pick from
`legal_moves`, played as `advance` plays them, by the compiled core where it is built), then scored
(a win, an elimination, or the lead on damage); the move with the best total is chosen. Turns and
volley answers are searched; skips and discards are answered as the normal bot does. The worlds
of one decision are dealt from one RNG seeded from the view, and each world's playouts draw from a
`SplitMix64` seeded from it, so the same view gives the same choice.

The work per decision is a fixed number of playouts (never a clock, which would make the choice
depend on the machine's speed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from ..commands import Command, Play, parse_command
from ..decide import advance
from ..events import direction_value
from ..ruleset import Ruleset
from ..state import Awaiting, Decision, Draft, GameState, Volley, private_draft
from .base import seeded_rng
from .heuristic import heuristic_move
from .playout import Runner, SplitMix64, play_moves

PLAYOUTS = 4000  # per decision, shared among the candidate moves (about 50 ms of a core, compiled)
MIN_PER_MOVE = 16
HORIZON = 40  # decisions a playout looks ahead before the position is scored
SEARCHED = ("turn", "volley", "skip", "discard")


def world(view: dict[str, Any], rng: SplitMix64) -> Draft | None:
    """A draft consistent with `view`: the hidden cards dealt at random. None if the view does
    not add up (it always should). A spectator's view (seat None) has every hand dealt: the
    table as public information alone allows it (what the replay analysis samples)."""
    return dealer(view)(rng)


Dealer = Callable[[SplitMix64], Draft | None]


def dealer(view: dict[str, Any]) -> Dealer:
    """`world` for many worlds of one view: what every world of the view shares (the ruleset, the
    hidden cards before shuffling, the public table) is read once; each call deals one world
    from `rng`, as `world` would (the same draws, the same draft)."""
    ruleset = Ruleset.from_dict(view["ruleset"])
    me = view["seat"]
    hand = list(view["hand"] or ())
    pool = Counter(dict(ruleset.deck))
    pool.subtract(hand)
    pool.subtract(view["discard_pile"])
    players = view["players"]
    if any(n < 0 for n in pool.values()):
        return _no_world
    unseen = list(pool.elements())
    if len(unseen) != sum(p["hand_size"] for p in players if p["seat"] != me) + view["draw_pile_size"]:
        return _no_world
    awaiting = view["awaiting"]
    volley = view["volley"]
    table = private_draft(
        GameState(
            ruleset=ruleset,
            players=len(players),
            shuffler=view["shuffler"],
            hands=(),
            draw_pile=(),
            discard_pile=tuple(view["discard_pile"]),
            damage=tuple(p["damage"] for p in players),
            protected=frozenset(p["seat"] for p in players if p["protected"]),
            direction=direction_value(view["direction"]),
            turn_seat=view["turn"],
            turn_number=view["turn_number"],
            awaiting=Awaiting(awaiting["seat"], Decision(awaiting["kind"])) if awaiting else None,
            volley=Volley(volley["attacker"], volley["target"], volley["count"]) if volley else None,
            skip_from=view["skip_from"],
            skipped=view["skipped"],
            discard_count=view["discard_count"],
            drawn_since_volley_taken=tuple(_counted(p["drawn_since_taken"]["volley"]) for p in players),
            drawn_since_skip_taken=tuple(_counted(p["drawn_since_taken"]["skip"]) for p in players),
        )
    )
    # Per seat: None for the seat's own hand (seen), else its size and what the log tells of it.
    seats = [None if p["seat"] == me else (p["hand_size"], p["drawn_since_taken"]) for p in players]

    def deal(rng: SplitMix64) -> Draft:
        hidden = rng.shuffle(unseen)
        hands: list[list[str] | tuple[str, ...]] = []
        for known in seats:
            hands.append(hand[:] if known is None else deal_hand(hidden, known[0], known[1]))
        d = private_draft(table)
        d.hands = hands
        d.draw_pile = hidden
        return d

    return deal


def _no_world(rng: SplitMix64) -> None:
    return None


def _counted(drawn: int | None) -> int:
    return -1 if drawn is None else drawn


def deal_hand(pool: list[str], size: int, drawn_since_taken: dict[str, int | None]) -> list[str]:
    """`size` cards from the end of the shuffled `pool` for a hand whose owner let a volley land
    or took a skip, the oldest first: a player who could answer does, so the cards it held then
    (all but those drawn since) hold no Taptap, resp. Strom. A view that does not add up under
    that reading (someone kept a card on purpose) is dealt as well as it can be."""
    volley, skip = drawn_since_taken["volley"], drawn_since_taken["skip"]
    no_taptap = size - volley if volley is not None else 0
    no_strom = size - skip if skip is not None else 0
    hand: list[str] = []
    for i in range(size):
        j = len(pool) - 1
        if i < no_taptap or i < no_strom:
            while j >= 0 and (
                (i < no_taptap and pool[j] == "taptap") or (i < no_strom and pool[j] == "strom")
            ):
                j -= 1
            if j < 0:
                j = len(pool) - 1
        hand.append(pool.pop(j))
    return hand


def playout(d: Draft, me: int, rng: SplitMix64, runner: Runner = play_moves) -> float:
    """Play `d` on for HORIZON decisions with the normal policy for every seat and score it for
    `me`: 1 for a win, 0 once eliminated, else how far ahead on damage it stands. `runner` plays
    the moves (`play_moves`; `pure_moves`, `reference_moves`: the same moves in Python)."""
    runner(d, rng, HORIZON)
    return score(d, me)


def score(d: Draft, me: int) -> float:
    if d.result is not None:
        return 1.0 if d.winner == me else 0.0
    limit = d.ruleset.max_damage
    mine = d.damage[me]
    if mine >= limit:
        return 0.0
    others = [x for s, x in enumerate(d.damage) if s != me and x < limit]
    if not others:
        return 1.0
    # Ahead on damage against the players left, and fewer of them: both bring a win nearer.
    lead = (sum(others) / len(others) - mine) / limit  # -1 .. 1
    alive = len(others) / (d.players - 1)  # 0 .. 1
    return max(0.0, min(1.0, 0.5 + 0.4 * lead - 0.1 * alive + 0.1 * (1 - alive)))


def candidates(moves: list[Command]) -> list[int]:
    """Indexes of the moves worth searching: every volley size up to 3 at each target, and the
    whole volley; every other move."""
    out = []
    for i, m in enumerate(moves):
        if isinstance(m, Play) and m.cards[0] == "cumi":
            most = max(len(o.cards) for o in moves if isinstance(o, Play) and o.target == m.target)
            if len(m.cards) > 3 and len(m.cards) != most:
                continue
        out.append(i)
    return out


class SearchBot:
    level = "hard"

    def __init__(self, playouts: int = PLAYOUTS) -> None:
        self.playouts = playouts

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        if len(legal) == 1:
            return legal[0]
        me = view["seat"]
        kind = view["awaiting"]["kind"]
        moves = [parse_command(c, seat=view["seat"]) for c in legal]
        damage = [p["damage"] for p in view["players"]]
        baseline = moves.index(heuristic_move(kind, damage, me, moves))
        if kind not in SEARCHED:
            return legal[baseline]
        order = candidates(moves)
        if baseline in order:  # the normal choice first: it wins ties
            order.remove(baseline)
        order.insert(0, baseline)
        rng = SplitMix64(seeded_rng(view, "hard").getrandbits(64))
        deal = dealer(view)
        rounds = max(MIN_PER_MOVE, self.playouts // len(order))
        wins = [0.0] * len(order)
        for _ in range(rounds):
            w = deal(rng)
            if w is None:
                return legal[baseline]
            seed = rng.next()
            for j, i in enumerate(order):
                d = private_draft(w)
                sub = SplitMix64(seed)  # the same luck for every candidate in this world
                advance(d, moves[i], sub.shuffle)
                wins[j] += playout(d, me, sub)
        best = max(range(len(order)), key=lambda j: wins[j])
        return legal[order[best]]
