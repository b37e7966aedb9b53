"""The ruleset is data (R2): deck, packs and limits, recorded in each game's first event."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .cards import BASE_DECK, PACK_MAX_PLAYERS, PACKS, Card
from .errors import ErrorCode, InvalidRuleset

BASE_MIN_PLAYERS = 2
BASE_MAX_PLAYERS = 4
MAX_PLAYERS = max(BASE_MAX_PLAYERS, *PACK_MAX_PLAYERS.values())  # with every pack
MAX_MINI = 20  # disabled Hare Mini cards a deck may hold
DEFAULT_TURN_LIMIT = 500


@dataclass(frozen=True, slots=True)
class Ruleset:
    deck: tuple[tuple[str, int], ...]
    packs: tuple[str, ...] = ()
    mini: int = 0
    min_players: int = BASE_MIN_PLAYERS
    max_players: int = BASE_MAX_PLAYERS
    hand_size: int = 5
    max_damage: int = 5
    turn_limit: int = DEFAULT_TURN_LIMIT

    def cards(self) -> list[str]:
        """The unshuffled deck, in a fixed order."""
        out: list[str] = []
        for card, count in self.deck:
            out.extend([card] * count)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "deck": dict(self.deck),
            "packs": list(self.packs),
            "mini": self.mini,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "hand_size": self.hand_size,
            "max_damage": self.max_damage,
            "turn_limit": self.turn_limit,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        # Every game's first event holds its ruleset, and replaying or starting a game reads it
        # back: the same few rulesets, remembered by their content (they are immutable values).
        deck = data["deck"]
        key = (
            tuple(deck.items()) if isinstance(deck, dict) else None,
            *(data.get(k) for k in _SCALARS),
            tuple(data.get("packs", ())),
        )
        found = _READ.get(key) if key[0] is not None else None
        if found is None:
            found = cls._read(data)
            if key[0] is not None and len(_READ) < _MAX_READ:
                _READ[key] = found
        return found

    @classmethod
    def _read(cls, data: Mapping[str, Any]) -> Ruleset:
        return cls(
            # JSON stores (PostgreSQL's jsonb among them) may reorder keys: restore the card order.
            deck=tuple(sorted(((str(c), int(n)) for c, n in dict(data["deck"]).items()), key=_card_rank)),
            packs=tuple(data.get("packs", ())),
            mini=int(data.get("mini", 0)),
            min_players=int(data.get("min_players", BASE_MIN_PLAYERS)),
            max_players=int(data.get("max_players", BASE_MAX_PLAYERS)),
            hand_size=int(data.get("hand_size", 5)),
            max_damage=int(data.get("max_damage", 5)),
            turn_limit=int(data.get("turn_limit", DEFAULT_TURN_LIMIT)),
        )


_SCALARS = ("mini", "min_players", "max_players", "hand_size", "max_damage", "turn_limit")
_READ: dict[tuple[Any, ...], Ruleset] = {}
_MAX_READ = 1_000  # distinct rulesets remembered: a bound on memory
_CARD_ORDER = {card.value: i for i, card in enumerate(Card)}


def _card_rank(entry: tuple[str, int]) -> tuple[int, str]:
    return (_CARD_ORDER.get(entry[0], len(_CARD_ORDER)), entry[0])


def make_ruleset(packs: Iterable[str] = (), mini: int = 0, turn_limit: int = DEFAULT_TURN_LIMIT) -> Ruleset:
    """Base deck plus the named packs and `mini` disabled Hare Mini cards."""
    packs = tuple(packs)
    counts = dict(BASE_DECK)
    max_players = BASE_MAX_PLAYERS
    for pack in packs:
        if pack not in PACKS:
            raise InvalidRuleset(ErrorCode.BAD_RULESET, f"unknown pack {pack!r}")
        for card, n in PACKS[pack].items():
            counts[card] = counts.get(card, 0) + n
        max_players = max(max_players, PACK_MAX_PLAYERS.get(pack, BASE_MAX_PLAYERS))
    if len(set(packs)) != len(packs):
        raise InvalidRuleset(ErrorCode.BAD_RULESET, "a pack is named twice")
    if not 0 <= mini <= MAX_MINI:
        raise InvalidRuleset(ErrorCode.BAD_RULESET, f"mini must be between 0 and {MAX_MINI}")
    if turn_limit < 1:
        raise InvalidRuleset(ErrorCode.BAD_RULESET, "turn_limit must be at least 1")
    if mini:
        counts[Card.MINI] = mini
    return Ruleset(
        deck=tuple((str(c), n) for c, n in counts.items()),
        packs=packs,
        mini=mini,
        max_players=max_players,
        turn_limit=turn_limit,
    )
