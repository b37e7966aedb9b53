"""`decide`: check a command against the rules and return the events it causes.

`decide` never changes the state it is given. The rules run on a private draft, changing it by the
fold's own functions (fold.py) and making each event (events.py) beside the change it records, so
the rules for "what happens next" are written once, here, and the fold stays a dumb recorder. A
command runs on to the next decision a person must make (or the end).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .cards import CUMI, HOUSE, LEFT, NEVER_PLAYED, RIGHT, SINGLE_PLAYS, STROM, TAPTAP, ZADA
from .commands import Burn, Command, Discard, Play, React, parse_command
from .errors import ErrorCode, IllegalCommand, InvalidRuleset
from .events import (
    GameStarted,
    RulesEvent,
    card_burned,
    cards_discarded,
    cards_drawn,
    cards_played,
    damage_healed,
    damage_taken,
    direction_changed,
    discard_required,
    draw_pile_reshuffled,
    game_aborted,
    game_ended,
    game_started,
    player_eliminated,
    player_skipped,
    protection_gained,
    reaction_declined,
    reaction_played,
    skip_pending,
    turn_started,
    volley_pending,
)
from .fold import (
    apply,
    fold_card_burned,
    fold_cards_discarded,
    fold_cards_drawn,
    fold_cards_played,
    fold_damage_healed,
    fold_damage_taken,
    fold_direction_changed,
    fold_discard_required,
    fold_draw_pile_reshuffled,
    fold_game_ended,
    fold_player_eliminated,
    fold_player_skipped,
    fold_protection_gained,
    fold_reaction_declined,
    fold_reaction_played,
    fold_skip_pending,
    fold_turn_started,
    fold_volley_pending,
)
from .ruleset import Ruleset
from .state import (
    CCW,
    CW,
    DISCARD_DECISION,
    SKIP_DECISION,
    TURN_DECISION,
    VOLLEY_DECISION,
    AnyState,
    Draft,
    GameState,
    Result,
    seal,
    thaw,
)

Shuffle = Callable[[Sequence[str]], list[str]]
_COMMAND_TYPES = (Play, React, Discard, Burn)  # a tuple: isinstance is faster with it than with a union


def keep_order(cards: Sequence[str]) -> list[str]:
    """A shuffle that keeps the given order: for callers that fix every pile themselves."""
    return list(cards)


def _illegal(code: ErrorCode, detail: str) -> IllegalCommand:
    return IllegalCommand(code, detail)


# --- what a seat may do --------------------------------------------------------------------


def valid_targets(state: AnyState, seat: int) -> list[int]:
    """Seats a Hare Cumi volley from `seat` may aim at (R5b, R11)."""
    limit, damage, protected = state.ruleset.max_damage, state.damage, state.protected
    out = []
    for t in range(state.players):  # a loop, not a comprehension: this runs on every turn
        if t != seat and damage[t] < limit and t not in protected:
            out.append(t)
    return out


def has_turn_play(state: AnyState, seat: int) -> bool:
    """Whether R5a or R5b is open to `seat`; burning is allowed only when neither is (R5c)."""
    hand = state.hands[seat]
    if not SINGLE_PLAYS.isdisjoint(hand):
        return True
    return CUMI in hand and bool(valid_targets(state, seat))


# --- starting a game -----------------------------------------------------------------------


def setup_event(
    ruleset: Ruleset,
    *,
    players: int,
    shuffler: int,
    hands: Sequence[Sequence[str]],
    draw_pile: Sequence[str],
    discard_pile: Sequence[str] = (),
    damage: Sequence[int] | None = None,
    direction: int = CW,
    protected: Sequence[int] = (),
    turn: int | None = None,
) -> GameStarted:
    """The GameStarted event of a table set up as given (the scenarios set any table up)."""
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise InvalidRuleset(
            ErrorCode.BAD_RULESET,
            f"this ruleset seats {ruleset.min_players} to {ruleset.max_players} players",
        )
    if not 0 <= shuffler < players:
        raise InvalidRuleset(ErrorCode.BAD_RULESET, "the shuffler must be one of the seats")
    return game_started(
        ruleset.to_dict(),
        players,
        shuffler,
        hands,
        draw_pile,
        discard_pile,
        damage if damage is not None else [0] * players,
        direction,
        protected,
        (shuffler + 1) % players if turn is None else turn,
    )


def deal(ruleset: Ruleset, players: int, shuffler: int, deck: Sequence[str]) -> GameStarted:
    """GameStarted for `deck` (top first), dealt one card at a time clockwise from the first player (R3)."""
    first = (shuffler + 1) % players
    top = min(len(deck), ruleset.hand_size * players)  # the cards dealt
    hands: list[Sequence[str]] = [()] * players
    for i in range(players):  # the i-th player from the first gets every players-th card from i
        hands[(first + i) % players] = deck[i:top:players]
    return setup_event(
        ruleset,
        players=players,
        shuffler=shuffler,
        hands=hands,
        draw_pile=deck[top:],
    )


def start_events(first: GameStarted) -> list[RulesEvent]:
    """The opening events: the setup and the first turn."""
    return [first, turn_started(int(first["turn"]), 1)]


def start_game(ruleset: Ruleset, players: int, shuffler: int, shuffle: Shuffle) -> list[RulesEvent]:
    """A new game's opening events: the deck shuffled by `shuffle`, dealt, and the first turn."""
    return start_events(deal(ruleset, players, shuffler, shuffle(ruleset.cards())))


# --- deciding ------------------------------------------------------------------------------


def decide(
    state: GameState, command: Command | Mapping[str, Any], shuffle: Shuffle = keep_order
) -> list[RulesEvent]:
    """The events `command` causes in `state`, or IllegalCommand with a stable code.

    `shuffle` orders the discard pile when it becomes the new draw pile (R8); its result is
    recorded in the DrawPileReshuffled event, so replaying never needs it.
    """
    return step(state, command, shuffle)[0]


def abort(state: GameState) -> tuple[list[RulesEvent], GameState]:
    """The game called off from outside the rules (by a moderator): it ends with no winner."""
    if state.over:
        raise _illegal(ErrorCode.GAME_OVER, "the game is over")
    aborted = game_aborted()
    return [aborted], apply(state, aborted)


def step(
    state: GameState, command: Command | Mapping[str, Any], shuffle: Shuffle = keep_order
) -> tuple[list[RulesEvent], GameState]:
    """`decide`, also returning the state its events fold to (saves callers a second fold)."""
    cmd = command if isinstance(command, _COMMAND_TYPES) else parse_command(command)
    events: list[RulesEvent] = []
    draft = thaw(state)
    advance(draft, cmd, shuffle, events)
    return events, seal(draft)


def _check_awaited(state: AnyState, cmd: Command) -> None:
    awaiting = state.awaiting
    if state.result is not None or awaiting is None:
        raise _illegal(ErrorCode.GAME_OVER, "the game is over")
    if cmd.seat != awaiting.seat:
        raise _illegal(ErrorCode.NOT_YOUR_TURN, f"waiting for seat {awaiting.seat}")


# The rules below change the draft through the fold's functions (fold.py) and, when `rec` is a
# list, record each change as the event the log keeps, beside the fold it is folded by. Every
# check comes before the first change.
Rec = list[RulesEvent] | None


def advance(d: Draft, cmd: Command, shuffle: Shuffle = keep_order, rec: Rec = None) -> Draft:
    """The rules: play `cmd` on a draft the caller owns, in place, appending the events it causes
    to `rec` when a list is given (`step` does, for the log; search playouts do not).

    On an IllegalCommand the draft is unchanged: every check comes before the first change. Make
    a draft with `private_draft`; `freeze` gives its GameState.
    """
    awaiting = d.awaiting
    if d.result is not None or awaiting is None or cmd.seat != awaiting.seat:
        _check_awaited(d, cmd)  # raises the precise error
    assert awaiting is not None
    kind = awaiting.kind
    # Each command by its exact class (commands are final dataclasses): `type(cmd) is` is the
    # fastest test there is, and this runs on every move of every playout.
    if type(cmd) is Play:
        if kind is not TURN_DECISION:
            raise _illegal(ErrorCode.WRONG_ACTION, f"a {kind.value} decision is awaited")
        _play(d, cmd, shuffle, rec)
    elif type(cmd) is Burn:
        if kind is not TURN_DECISION:
            raise _illegal(ErrorCode.WRONG_ACTION, f"a {kind.value} decision is awaited")
        _burn(d, cmd, shuffle, rec)
    elif type(cmd) is React:
        if kind is VOLLEY_DECISION:
            _answer_volley(d, cmd, shuffle, rec)
        elif kind is SKIP_DECISION:
            _answer_skip(d, cmd, shuffle, rec)
        else:
            raise _illegal(ErrorCode.WRONG_ACTION, f"a {kind.value} decision is awaited")
    elif type(cmd) is Discard:
        if kind is not DISCARD_DECISION:
            raise _illegal(ErrorCode.WRONG_ACTION, f"a {kind.value} decision is awaited")
        _discard(d, cmd, shuffle, rec)
    else:
        raise TypeError(f"not a command: {cmd!r}")
    return d


def _play(d: Draft, cmd: Play, shuffle: Shuffle, rec: Rec) -> None:
    seat, cards = cmd.seat, cmd.cards
    if not cards:
        raise _illegal(ErrorCode.BAD_COMMAND, "play at least one card")
    card = cards[0]
    count = len(cards)
    if count > 1 and (card != CUMI or cards.count(card) != count):
        _refuse_group(cards)
    if card in NEVER_PLAYED:
        raise _illegal(ErrorCode.NOT_PLAYABLE, f"{card} is never played on a turn")
    if (card not in d.hands[seat]) if count == 1 else (d.hands[seat].count(card) < count):
        raise _illegal(ErrorCode.NOT_IN_HAND, f"you do not hold {count} × {card}")
    target = cmd.target
    if card == CUMI:
        if (
            target is None
            or target == seat
            or not 0 <= target < d.players
            or d.damage[target] >= d.ruleset.max_damage
        ):
            raise _illegal(ErrorCode.BAD_TARGET, "Hare Cumi needs another player still in the game")
        if target in d.protected:
            raise _illegal(ErrorCode.TARGET_PROTECTED, f"seat {target} is protected")
    elif target is not None:
        raise _illegal(ErrorCode.BAD_TARGET, f"{card} takes no target")

    if rec is not None:
        rec.append(cards_played(seat, cards, target))
    fold_cards_played(d, seat, cards)
    if card == CUMI:
        assert target is not None
        if rec is not None:
            rec.append(volley_pending(seat, target, count))
        fold_volley_pending(d, seat, target, count)
        return
    if card == STROM:
        _skip(d, d.next_seat(seat), seat, rec)
        return
    if card in (RIGHT, LEFT):
        direction = CW if card == RIGHT else CCW
        if rec is not None:
            rec.append(direction_changed(direction))
        fold_direction_changed(d, direction)
        _protect(d, seat, rec)
    elif card == ZADA:
        healed = max(0, d.damage[seat] - 1)
        if rec is not None:
            rec.append(damage_healed(seat, healed))
        fold_damage_healed(d, seat, healed)
    elif card == HOUSE:
        skipped = d.next_seat(seat)
        _skipped(d, skipped, rec)
        _protect(d, skipped, rec)
    _end_turn(d, shuffle, rec)


def _refuse_group(cards: tuple[str, ...]) -> None:
    """Why several cards may not be played together (only Hare Cumi may, all alike)."""
    if len(set(cards)) > 1:
        raise _illegal(ErrorCode.MIXED_CARDS, "different cards are never played in one turn")
    if cards[0] in NEVER_PLAYED:
        raise _illegal(ErrorCode.NOT_PLAYABLE, f"{cards[0]} is never played on a turn")
    raise _illegal(ErrorCode.MIXED_CARDS, "only Hare Cumi may be played several at once")


def _skip(d: Draft, seat: int, by: int, rec: Rec) -> None:
    if rec is not None:
        rec.append(skip_pending(seat, by))
    fold_skip_pending(d, seat, by)


def _skipped(d: Draft, seat: int, rec: Rec) -> None:
    if rec is not None:
        rec.append(player_skipped(seat))
    fold_player_skipped(d, seat)


def _protect(d: Draft, seat: int, rec: Rec) -> None:
    if rec is not None:
        rec.append(protection_gained(seat))
    fold_protection_gained(d, seat)


def _burn(d: Draft, cmd: Burn, shuffle: Shuffle, rec: Rec) -> None:
    seat, card = cmd.seat, cmd.card
    if has_turn_play(d, seat):
        raise _illegal(ErrorCode.MUST_PLAY, "you may burn only when no card can be played")
    hand = d.hands[seat]
    if card is None and hand:
        raise _illegal(ErrorCode.BAD_COMMAND, "name the card to burn")
    if card is not None and card not in hand:
        raise _illegal(ErrorCode.NOT_IN_HAND, f"you do not hold {card}")
    if rec is not None:
        rec.append(card_burned(seat, card))
    fold_card_burned(d, seat, card)
    _end_turn(d, shuffle, rec)


def _answer_volley(d: Draft, cmd: React, shuffle: Shuffle, rec: Rec) -> None:
    seat, card = cmd.seat, cmd.card
    volley = d.volley
    assert volley is not None
    if card == TAPTAP:
        if TAPTAP not in d.hands[seat]:
            raise _illegal(ErrorCode.NOT_IN_HAND, "you do not hold Hare Taptap")
        if rec is not None:
            rec.append(reaction_played(seat, TAPTAP, "volley"))
        fold_reaction_played(d, seat, TAPTAP)
        _end_turn(d, shuffle, rec)
        return
    if card is not None:
        raise _illegal(ErrorCode.BAD_REACTION, "a volley is answered with Hare Taptap or not at all")
    limit = d.ruleset.max_damage
    before = d.damage[seat]
    after = min(limit, before + volley.count)
    if rec is not None:
        rec.append(reaction_declined(seat, "volley"))
        rec.append(damage_taken(seat, after - before, after))
    fold_reaction_declined(d, seat, "volley")
    fold_damage_taken(d, seat, after)
    if after >= limit:
        if rec is not None:
            rec.append(player_eliminated(seat, d.hands[seat]))
        fold_player_eliminated(d, seat)
        alive = d.alive()
        if len(alive) == 1:
            if rec is not None:
                rec.append(game_ended(Result.WIN, alive[0], alive))
            fold_game_ended(d, Result.WIN, alive[0])
            return
    _end_turn(d, shuffle, rec)


def _answer_skip(d: Draft, cmd: React, shuffle: Shuffle, rec: Rec) -> None:
    seat, card = cmd.seat, cmd.card
    if card == STROM:
        if STROM not in d.hands[seat]:
            raise _illegal(ErrorCode.NOT_IN_HAND, "you do not hold Strom")
        if rec is not None:
            rec.append(reaction_played(seat, STROM, "skip"))
        fold_reaction_played(d, seat, STROM)
        _skip(d, d.next_seat(seat), seat, rec)
        return
    if card is not None:
        raise _illegal(ErrorCode.BAD_REACTION, "a skip is forwarded with Strom or taken")
    if rec is not None:
        rec.append(reaction_declined(seat, "skip"))
    fold_reaction_declined(d, seat, "skip")
    _skipped(d, seat, rec)
    _end_turn(d, shuffle, rec)


def _discard(d: Draft, cmd: Discard, shuffle: Shuffle, rec: Rec) -> None:
    seat, cards = cmd.seat, cmd.cards
    if len(cards) != d.discard_count:
        raise _illegal(ErrorCode.BAD_DISCARD, f"discard exactly {d.discard_count} cards")
    left = list(d.hands[seat])
    for card in cards:
        if card not in left:
            raise _illegal(ErrorCode.BAD_DISCARD, "you can only discard cards you hold")
        left.remove(card)
    if rec is not None:
        rec.append(cards_discarded(seat, cards))
    fold_cards_discarded(d, seat, cards)
    _require_discards(d, rec)


def _end_turn(d: Draft, shuffle: Shuffle, rec: Rec) -> None:
    """R8: the active player draws up to their maximum, then R9 and the next turn."""
    seat = d.turn_seat
    hands = d.hands  # read hands[seat] afresh: a fold may replace a shared tuple by a list
    hand_size = d.ruleset.hand_size
    while True:
        need = hand_size - d.damage[seat] - len(hands[seat])
        if need <= 0:
            break
        draw_pile = d.draw_pile
        if draw_pile:
            drawn = draw_pile[:need]
            if rec is not None:
                rec.append(cards_drawn(seat, drawn))
            fold_cards_drawn(d, seat, drawn)
        elif len(d.discard_pile) > 1:
            order = shuffle(d.discard_pile[:-1])
            if rec is not None:
                rec.append(draw_pile_reshuffled(order))
            fold_draw_pile_reshuffled(d, order)
        else:
            break
    _require_discards(d, rec)


def _require_discards(d: Draft, rec: Rec) -> None:
    """R9, then R10 and R14: seats over their maximum discard one at a time, from the active
    player onwards; once none is over, the next turn starts (or the turn limit ends the game)."""
    hands, damage, n = d.hands, d.damage, d.players
    ruleset = d.ruleset
    hand_size = ruleset.hand_size
    # A hand of h cards with x damage is over when h > max(0, size - x). Usually no seat is: the
    # first test, in C, says so at once; when it cannot, every seat is checked in turn order.
    for hand, x in zip(hands, damage):  # noqa: B905 (one hand and one damage per seat)
        if len(hand) + x > hand_size:
            break
    else:
        hand = None
    if hand is not None:
        seat = d.turn_seat
        for _ in range(n):
            excess = len(hands[seat]) - max(0, hand_size - damage[seat])
            if excess > 0:
                if rec is not None:
                    rec.append(discard_required(seat, excess))
                fold_discard_required(d, seat, excess)
                return
            seat = (seat + d.direction) % n
    turn = d.turn_number + 1
    if turn > ruleset.turn_limit:
        if rec is not None:
            rec.append(game_ended(Result.DRAW, None, d.alive()))
        fold_game_ended(d, Result.DRAW, None)
        return
    # The next seat still in the game after the turn's player, or after the seat it skipped (R1).
    skipped = d.skipped
    seat = d.next_seat(d.turn_seat if skipped is None else skipped)
    if rec is not None:
        rec.append(turn_started(seat, turn))
    fold_turn_started(d, seat, turn)
