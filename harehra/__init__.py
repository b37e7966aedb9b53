"""The Harehra rules engine: pure functions over immutable state. No Django, clock, I/O or RNG."""

from .cards import CARD_NAMES, Card
from .commands import Burn, Command, Discard, Play, React, command_to_dict, parse_command
from .decide import (
    Shuffle,
    abort,
    advance,
    deal,
    decide,
    has_turn_play,
    keep_order,
    private_copy,
    setup_event,
    start_events,
    start_game,
    step,
    valid_targets,
)
from .errors import EngineError, ErrorCode, IllegalCommand, InvalidRuleset
from .events import Event, EventType, apply, replay
from .legal import legal_commands, legal_moves
from .ruleset import Ruleset, make_ruleset
from .serialize import snapshot_is_current, state_from_dict, state_to_dict
from .state import CCW, CW, AnyState, Awaiting, Decision, Draft, GameState, Result, Volley, copy_draft, freeze
from .views import event_for, view_for, views_for_all

__all__ = [
    "CARD_NAMES",
    "CCW",
    "CW",
    "AnyState",
    "Awaiting",
    "Burn",
    "Card",
    "Command",
    "Decision",
    "Discard",
    "Draft",
    "EngineError",
    "ErrorCode",
    "Event",
    "EventType",
    "GameState",
    "IllegalCommand",
    "InvalidRuleset",
    "Play",
    "React",
    "Result",
    "Ruleset",
    "Shuffle",
    "Volley",
    "abort",
    "advance",
    "apply",
    "command_to_dict",
    "copy_draft",
    "deal",
    "decide",
    "event_for",
    "freeze",
    "has_turn_play",
    "keep_order",
    "legal_commands",
    "legal_moves",
    "make_ruleset",
    "parse_command",
    "private_copy",
    "replay",
    "setup_event",
    "snapshot_is_current",
    "start_events",
    "start_game",
    "state_from_dict",
    "state_to_dict",
    "step",
    "valid_targets",
    "view_for",
    "views_for_all",
]
