"""The engine's one error family: every refusal carries a stable code."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_ACTION = "wrong_action"
    NOT_IN_HAND = "not_in_hand"
    NOT_PLAYABLE = "not_playable"
    MIXED_CARDS = "mixed_cards"
    BAD_TARGET = "bad_target"
    TARGET_PROTECTED = "target_protected"
    MUST_PLAY = "must_play"
    BAD_REACTION = "bad_reaction"
    BAD_DISCARD = "bad_discard"
    GAME_OVER = "game_over"
    BAD_COMMAND = "bad_command"
    BAD_RULESET = "bad_ruleset"
    UNKNOWN_EVENT = "unknown_event"


class EngineError(Exception):
    """Base of every error the engine raises; `code` is stable, `detail` is for people."""

    def __init__(self, code: ErrorCode, detail: str = "") -> None:
        super().__init__(f"{code.value}: {detail}" if detail else code.value)
        self.code = code
        self.detail = detail or code.value.replace("_", " ")


class IllegalCommand(EngineError):
    """`decide` refused a command; the state is unchanged."""


class InvalidRuleset(EngineError):
    """A ruleset or setup that cannot be played (player count, unknown pack...)."""
