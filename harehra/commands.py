"""Commands a seat can send, parsed from their JSON form (the scenario and API format)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import ALL_CARDS, Card
from .errors import ErrorCode, IllegalCommand


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    cards: tuple[str, ...]
    target: int | None = None


@dataclass(frozen=True, slots=True)
class React:
    seat: int
    card: str | None  # taptap, strom, or None to decline


@dataclass(frozen=True, slots=True)
class Discard:
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Burn:
    seat: int
    card: str | None


Command = Play | React | Discard | Burn

REACTIONS = {"taptap": Card.TAPTAP.value, "strom": Card.STROM.value, "none": None}


def _bad(detail: str) -> IllegalCommand:
    return IllegalCommand(ErrorCode.BAD_COMMAND, detail)


def _seat(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad("seat must be an integer")
    return value


def _card_list(value: Any, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise _bad(f"{key} must be a list of card ids")
    unknown = [c for c in value if c not in ALL_CARDS]
    if unknown:
        raise _bad(f"unknown card {unknown[0]!r}")
    return tuple(value)


def parse_command(data: Mapping[str, Any], seat: int | None = None) -> Command:
    """Parse `{"play"|"react"|"discard"|"burn": ..., "seat": s}`; `seat` overrides the data's."""
    if not isinstance(data, Mapping):
        raise _bad("a command is a JSON object")
    actions = [k for k in ("play", "react", "discard", "burn") if k in data]
    if len(actions) != 1:
        raise _bad("a command has exactly one of play, react, discard, burn")
    who = _seat(data.get("seat") if seat is None else seat)
    action = actions[0]
    if action == "play":
        cards = _card_list(data["play"], "play")
        if not cards:
            raise _bad("play at least one card")
        target = data.get("target")
        if target is not None:
            target = _seat(target)
        return Play(who, cards, target)
    if action == "react":
        value = data["react"]
        if not isinstance(value, str) or value not in REACTIONS:
            raise _bad("react is one of taptap, strom, none")
        return React(who, REACTIONS[value])
    if action == "discard":
        return Discard(who, _card_list(data["discard"], "discard"))
    card = data["burn"]
    if card is not None and (not isinstance(card, str) or card not in ALL_CARDS):
        raise _bad("burn takes a card id or null")
    return Burn(who, card)


def command_to_dict(command: Command) -> dict[str, Any]:
    if isinstance(command, Play):
        out: dict[str, Any] = {"seat": command.seat, "play": list(command.cards)}
        if command.target is not None:
            out["target"] = command.target
        return out
    if isinstance(command, React):
        return {"seat": command.seat, "react": command.card or "none"}
    if isinstance(command, Discard):
        return {"seat": command.seat, "discard": list(command.cards)}
    return {"seat": command.seat, "burn": command.card}
