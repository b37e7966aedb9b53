"""The Harehra rules engine: pure functions over immutable state. No Django, clock, I/O or RNG.

The public API, what the site and its tests use:

- playing: `start_game` (a new game's opening events), `step` (a command's events and the state
  they fold to; `decide` gives the events alone), `abort`, `parse_command`;
- folding a log: `apply` (one event), `replay` (many);
- what a person may see and do: `view_for`, `views_for_all`, `event_for`, `legal_commands`;
- snapshots: `state_to_dict`, `state_from_dict`, `snapshot_is_current`;
- the types: `GameState`, `Decision`, `Result`, `Ruleset` (`make_ruleset`), `Command`, `Event`
  (each type's schema in `harehra.events`), `EventType`, `StoredEvent`, and the errors.

The rest is the engine's own (the fold's functions, drafts and `advance` for search playouts,
the setup of a given table): whoever needs it imports it from its module by name.
"""

from .commands import Command, parse_command
from .decide import abort, decide, start_game, step
from .errors import EngineError, ErrorCode, IllegalCommand, InvalidRuleset
from .events import Event, EventType, StoredEvent
from .fold import apply, replay
from .legal import legal_commands
from .ruleset import Ruleset, make_ruleset
from .serialize import snapshot_is_current, state_from_dict, state_to_dict
from .state import Decision, GameState, Result
from .views import event_for, view_for, views_for_all

__all__ = [
    "Command",
    "Decision",
    "EngineError",
    "ErrorCode",
    "Event",
    "EventType",
    "GameState",
    "IllegalCommand",
    "InvalidRuleset",
    "Result",
    "Ruleset",
    "StoredEvent",
    "abort",
    "apply",
    "decide",
    "event_for",
    "legal_commands",
    "make_ruleset",
    "parse_command",
    "replay",
    "snapshot_is_current",
    "start_game",
    "state_from_dict",
    "state_to_dict",
    "step",
    "view_for",
    "views_for_all",
]
