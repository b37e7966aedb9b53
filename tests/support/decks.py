"""Decks dealt on purpose. `seeded_decks(rng)` makes every shuffle of the services come from `rng`
in this process; server processes started with GAME_SHUFFLE=tests.support.decks.seeded_shuffle
and DECK_SEED=<n> deal the same decks for the same seed.

Server processes started with GAME_SHUFFLE=tests.support.decks.stacked_shuffle and DECK_TOP=<cards>
(comma-separated, top first; `stacked_deck` makes it from the hands wanted) deal exactly that."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.test import override_settings

SEEDED = "tests.support.decks.seeded_shuffle"
STACKED = "tests.support.decks.stacked_shuffle"
_rng = random.Random(int(os.environ.get("DECK_SEED", "0")))


def seeded_shuffle(cards: Sequence[str]) -> list[str]:
    out = list(cards)
    _rng.shuffle(out)
    return out


@contextmanager
def seeded_decks(rng: random.Random) -> Iterator[None]:
    global _rng
    before, _rng = _rng, rng
    try:
        with override_settings(GAME_SHUFFLE=SEEDED):
            yield
    finally:
        _rng = before


def stacked(top: Sequence[str]) -> Callable[[Sequence[str]], list[str]]:
    """A shuffle that puts `top` (top first) on the cards and leaves the rest in the order given.

    A pile that does not hold every card of `top` (a reshuffled discard pile) keeps its order."""

    def shuffle(cards: Sequence[str]) -> list[str]:
        rest = list(cards)
        for card in top:
            if card not in rest:
                return list(cards)
            rest.remove(card)
        return [*top, *rest]

    return shuffle


def stacked_shuffle(cards: Sequence[str]) -> list[str]:
    """`stacked` with the top named by the environment's DECK_TOP (for server processes)."""
    return stacked([c for c in os.environ.get("DECK_TOP", "").split(",") if c])(cards)


def stacked_deck(hands: Sequence[Sequence[str]], draws: Sequence[str], first: int) -> list[str]:
    """The top of a deck that deals `hands` (by seat) when dealt one card at a time clockwise from
    seat `first` (R3), followed by `draws`, the draw pile's top."""
    size = len(hands[0])
    assert all(len(h) == size for h in hands), "every hand is dealt the same number of cards"
    players = len(hands)
    dealt = [hands[(first + i) % players][r] for r in range(size) for i in range(players)]
    return [*dealt, *draws]


@dataclass(frozen=True)
class Deal:
    """A deal chosen on purpose, and what the people at it do (the bots play by their policy)."""

    hands: tuple[tuple[str, ...], ...]  # by seat
    draws: tuple[str, ...]  # the draw pile's top, in the order the cards are drawn
    first: int  # the first player: the seat after the shuffler
    people: tuple[tuple[int, str, dict[str, Any]], ...]  # (seat, decision kind, command), in order

    def deck_top(self) -> list[str]:
        return stacked_deck(self.hands, self.draws, self.first)


# Four seats: two people (seats 0 and 1), then two normal bots (harehra/bots/heuristic.py, which always
# forwards a skip with Strom and answers a volley with Hare Taptap when it can, plays Hare looking
# right and Hare Zada in that order when it holds no Hare Cumi, and aims all its Hare Cumi at once).
# The first table's shuffler is seat 0, so seat 1 starts:
#   1: seat 1 plays Strom; bot 2 forwards the skip with its Strom; bot 3 holds none and loses its turn
#   2: seat 0 aims one Hare Cumi at seat 1, who evades it with Hare Taptap
#   3: seat 1 plays Hare looking right (protected)  4: bot 2 plays right (protected)
#   5: bot 3 aims 5 × Hare Cumi at seat 0, the only one it may aim at; seat 0 takes it and is out
#   6: seat 1 plays Hare Zada  7: bot 2 plays right (protected)
#   8: bot 3 aims 5 × Hare Cumi at seat 1 (bot 2 is protected); seat 1 takes it and is out
#   9: bot 2 plays Hare Zada  10: bot 3 aims 5 × Hare Cumi at bot 2, who holds no Taptap: bot 3 wins
_DRAWS = (  # the draw pile's top, in the order the cards are drawn
    "house",  # seat 1, turn 1
    "left",  # seat 0, turn 2
    "left", "strom",  # seat 1, turn 3
    "zada", "zada",  # bot 2, turn 4
    "cumi", "cumi", "cumi", "cumi", "cumi",  # bot 3, turn 5
    "house",  # seat 1, turn 6
    "zada",  # bot 2, turn 7
    "cumi", "cumi", "cumi", "cumi", "cumi",  # bot 3, turn 8
    "house",  # bot 2, turn 9: anything but Hare Taptap, which would evade bot 3's last volley
)  # fmt: skip
TAPTAP_AND_STROM = Deal(
    hands=(
        ("cumi", "house", "left", "left", "strom"),
        ("strom", "taptap", "right", "zada", "house"),
        ("strom", "right", "right", "zada", "zada"),
        ("cumi", "cumi", "cumi", "cumi", "cumi"),
    ),
    draws=_DRAWS,
    first=1,
    people=(
        (1, "turn", {"play": ["strom"]}),
        (0, "turn", {"play": ["cumi"], "target": 1}),
        (1, "volley", {"react": "taptap"}),
        (1, "turn", {"play": ["right"]}),
        (0, "volley", {"react": "none"}),
        (1, "turn", {"play": ["zada"]}),
        (1, "volley", {"react": "none"}),
    ),
)


# Four seats: two people played by tests/browser/ui.py's Player (seat 0 aims at seat 1 and seat 1 at
# seat 0; Hare Cumi first, two at a time, then Strom, then the first card that can be played; no
# Taptap, so every volley is taken; a discard gives up the first cards of the hand), then two normal
# bots. Each person sees every state of the table page in one game: their turn, aiming, answering,
# discarding, waiting, out while the game goes on, and the end. Seat 1 starts:
#   1: seat 1 aims 2 × Hare Cumi at seat 0, who takes it and discards 2 (House, Hare looking left)
#   2: bot 2 plays House: bot 3 is skipped (and protected)
#   3: seat 0 aims 2 × Hare Cumi at seat 1, who takes it and discards 2 (both Houses)
#   4: seat 1 plays Hare looking right (protected)  5: bot 2 plays right (protected)
#   6: bot 3 aims 5 × Hare Cumi at seat 0, the only one it may aim at; seat 0 takes it and is out
#   7: seat 1 plays Strom; bot 2 holds none and loses its turn (and stays protected)
#   8: bot 3 aims 5 × Hare Cumi at seat 1, who takes it and is out; the bots play on:
#   9: bot 2 plays right (protected)  10: bot 3 may aim at nobody and plays right
#   11: bot 2 plays Hare Zada (it holds nothing else)  12: bot 3 aims 5 × Hare Cumi at bot 2: bot 3 wins
_EVERY_STATE_DRAWS = (  # the draw pile's top, in the order the cards are drawn
    "zada", "left",  # seat 1, turn 1
    "zada",  # bot 2, turn 2
    "house", "strom",  # seat 0, turn 3
    "strom",  # seat 1, turn 4
    "zada",  # bot 2, turn 5
    "cumi", "cumi", "cumi", "cumi", "cumi",  # bot 3, turn 6
    "left",  # seat 1, turn 7
    "cumi", "cumi", "cumi", "cumi", "right",  # bot 3, turn 8
    "zada",  # bot 2, turn 9
    "cumi",  # bot 3, turn 10
    "left",  # bot 2, turn 11
)  # fmt: skip
EVERY_STATE = Deal(
    hands=(
        ("house", "left", "cumi", "cumi", "right"),
        ("cumi", "cumi", "house", "house", "right"),
        ("house", "right", "right", "zada", "zada"),
        ("cumi", "cumi", "cumi", "cumi", "cumi"),
    ),
    draws=_EVERY_STATE_DRAWS,
    first=1,
    people=(
        (1, "turn", {"play": ["cumi", "cumi"], "target": 0}),
        (0, "volley", {"react": "none"}),
        (0, "discard", {"discard": ["house", "left"]}),
        (0, "turn", {"play": ["cumi", "cumi"], "target": 1}),
        (1, "volley", {"react": "none"}),
        (1, "discard", {"discard": ["house", "house"]}),
        (1, "turn", {"play": ["right"]}),
        (0, "volley", {"react": "none"}),
        (1, "turn", {"play": ["strom"]}),
        (1, "volley", {"react": "none"}),
    ),
)


# Three seats: one person at seat 0, played by tests/browser/ui.py's Player (Hare Taptap answers a
# volley; on a turn the first card that can be played: here always Hare Zada), then two normal bots,
# who aim their one Hare Cumi at the person each turn (everyone has 0 damage, so the lowest seat).
# Seat 1 starts; each round of turns gives the person three decisions and costs no damage:
#   bot 1 aims 1 × Hare Cumi at seat 0, who evades it with Hare Taptap; so does bot 2's;
#   seat 0 plays Hare Zada (healing nothing) and draws three.
# Four rounds like that (twelve decisions, every Hare Taptap of the deck), then the deck's order.
_EVADE_ROUND = ("cumi", "cumi", "taptap", "taptap", "zada")  # each bot's draw, then the person's
_EVADE_DRAWS = (  # the draw pile's top, in the order the cards are drawn
    *_EVADE_ROUND,  # rounds 1 and 2
    *_EVADE_ROUND,
    "cumi", "cumi", "taptap", "zada", "zada",  # round 3: the last Hare Taptap
    "cumi", "cumi",  # round 4
)  # fmt: skip
ONE_PERSON_EVADES = Deal(
    hands=(
        ("taptap", "taptap", "zada", "zada", "taptap"),
        ("cumi", "right", "right", "left", "left"),
        ("cumi", "right", "right", "left", "left"),
    ),
    draws=_EVADE_DRAWS,
    first=1,
    people=(
        (0, "volley", {"react": "taptap"}),
        (0, "volley", {"react": "taptap"}),
        (0, "turn", {"play": ["zada"]}),
    )
    * 4,
)


# Three seats: one person at seat 0, played by tests/browser/ui.py's Player (Strom answers a skip,
# Hare Taptap a volley; Hare Cumi, two at a time, at seat 1), then two normal bots. Seat 1 starts:
#   1: bot 1 plays Strom; bot 2 forwards the skip with Strom, so does seat 0; bot 1 holds none and
#      loses its turn
#   2: bot 2 aims 4 × Hare Cumi at seat 0 (all at 0 damage: the lowest seat), who evades with Hare Taptap
#   3: seat 0 aims 2 × Hare Cumi at bot 1, who takes it and discards 2
#   4: bot 1 plays House: bot 2 is skipped  5: seat 0 aims 2 × Hare Cumi at bot 1 (4 damage)
#   6: bot 1 plays House again  7: seat 0 aims its last Hare Cumi at bot 1, who is out
#   8: bot 2 aims 5 × Hare Cumi at seat 0, who takes it and is out: bot 2 wins
_SHORT_DRAWS = (  # the draw pile's top, in the order the cards are drawn
    "house",  # bot 1, turn 1
    "cumi", "cumi", "cumi", "cumi", "cumi",  # bot 2, turn 2
    "cumi", "cumi", "left", "right",  # seat 0, turn 3
    "house",  # bot 1, turn 4
    "cumi", "zada",  # seat 0, turn 5
    "house",  # bot 1, turn 6
    "right",  # seat 0, turn 7
)  # fmt: skip
SHORT_GAME_FOR_ONE = Deal(
    hands=(
        ("strom", "taptap", "cumi", "cumi", "zada"),
        ("strom", "right", "right", "left", "left"),
        ("strom", "cumi", "cumi", "cumi", "cumi"),
    ),
    draws=_SHORT_DRAWS,
    first=1,
    people=(
        (0, "skip", {"react": "strom"}),
        (0, "volley", {"react": "taptap"}),
        (0, "turn", {"play": ["cumi", "cumi"], "target": 1}),
        (0, "turn", {"play": ["cumi", "cumi"], "target": 1}),
        (0, "turn", {"play": ["cumi"], "target": 1}),
        (0, "volley", {"react": "none"}),
    ),
)


# Four seats: seat 0 a person who is not there (nothing plays it but its timer), then three normal
# bots holding no Hare Cumi. Seat 1 starts; for five rounds bots 1 and 2 play Hare looking right
# (twice each) or Hare Zada and bot 3 plays House, so seat 0 is skipped every round and the game
# moves at the bots' pace: seat 0 is first asked at turn 17.
_SKIPPED_DRAWS = (  # the draw pile's top, in the order the cards are drawn
    "taptap", "taptap", "house",  # round 1: bots 1, 2, 3
    "taptap", "taptap", "left",  # rounds 2 to 4
    "taptap", "taptap", "left",
    "taptap", "taptap", "left",
    "left", "left",  # round 5: bots 1 and 2 (bot 1 then plays Hare looking left: seat 0 is next)
)  # fmt: skip
SEAT_ZERO_SKIPPED = Deal(
    hands=(
        ("cumi", "cumi", "cumi", "cumi", "cumi"),
        ("right", "right", "zada", "zada", "zada"),
        ("right", "right", "zada", "zada", "zada"),
        ("house", "house", "house", "house", "house"),
    ),
    draws=_SKIPPED_DRAWS,
    first=1,
    people=(),
)


# Four seats: one person at seat 0 (tests/browser/test_table_screens.py plays it by keyboard), then
# three normal bots. Seat 1 starts:
#   1: bot 1 plays Hare looking right (protected until its next turn)
#   2: bot 2 aims its Hare Cumi at seat 0 (bot 1 is protected; all at 0 damage: the lowest seat),
#      who evades it with Hare Taptap
#   3: bot 3 plays Hare Zada (healing nothing) and draws a Strom
#   4: seat 0 aims one Hare Cumi at bot 3 (bot 1 is still protected: bots 2 and 3 are the
#      targets), who evades it with Hare Taptap
#   5: bot 1 plays right again  6: bot 2 plays right
#   7: bot 3 plays Strom: seat 0 holds none and loses the turn; the bots play on to seat 0's turn
_AIM_DRAWS = (  # the draw pile's top, in the order the cards are drawn
    "taptap",  # bot 1, turn 1
    "right",  # bot 2, turn 2
    "strom",  # bot 3, turn 3
    "left", "left",  # seat 0, turn 4
    "taptap",  # bot 1, turn 5
    "left",  # bot 2, turn 6
)  # fmt: skip
AIM_ON_THE_TABLE = Deal(
    hands=(
        ("taptap", "cumi", "cumi", "house", "taptap"),
        ("right", "right", "zada", "zada", "zada"),
        ("cumi", "right", "right", "taptap", "taptap"),
        ("zada", "zada", "zada", "taptap", "taptap"),
    ),
    draws=_AIM_DRAWS,
    first=1,
    people=(
        (0, "volley", {"react": "taptap"}),
        (0, "turn", {"play": ["cumi"], "target": 3}),
        (0, "skip", {"react": "none"}),
    ),
)
