"""`decide`: check a command against the rules and return the events it causes.

`decide` never changes the state it is given. It builds its events by folding each one into a
working copy as it goes, so the rules for "what happens next" are written once, here, and the
fold stays a dumb recorder. It runs on to the next decision a person must make (or the end).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .cards import NEVER_PLAYED, SINGLE_PLAYS, Card
from .commands import Burn, Command, Discard, Play, React, parse_command
from .errors import ErrorCode, IllegalCommand, InvalidRuleset
from .events import EVENT_VERSION, FOLD, Event, EventType, apply, direction_name, event
from .ruleset import Ruleset
from .state import CCW, CW, AnyState, Decision, Draft, GameState, Result, freeze, thaw

_D_DISCARD = Decision.DISCARD  # a module global: an enum member is slow to reach
_D_SKIP = Decision.SKIP  # a module global: an enum member is slow to reach
_D_TURN = Decision.TURN  # a module global: an enum member is slow to reach
_D_VOLLEY = Decision.VOLLEY  # a module global: an enum member is slow to reach


Shuffle = Callable[[Sequence[str]], list[str]]

# Plain strings, not enum members: the rules compare cards and name events on every step, and
# an enum member is far slower to reach and compare.
_CUMI = Card.CUMI.value
_HOUSE = Card.HOUSE.value
_LEFT = Card.LEFT.value
_RIGHT = Card.RIGHT.value
_STROM = Card.STROM.value
_TAPTAP = Card.TAPTAP.value
_ZADA = Card.ZADA.value
_E_CARDS_DISCARDED = EventType.CARDS_DISCARDED.value
_E_CARDS_DRAWN = EventType.CARDS_DRAWN.value
_E_CARDS_PLAYED = EventType.CARDS_PLAYED.value
_E_CARD_BURNED = EventType.CARD_BURNED.value
_E_DAMAGE_HEALED = EventType.DAMAGE_HEALED.value
_E_DAMAGE_TAKEN = EventType.DAMAGE_TAKEN.value
_E_DIRECTION_CHANGED = EventType.DIRECTION_CHANGED.value
_E_DISCARD_REQUIRED = EventType.DISCARD_REQUIRED.value
_E_DRAW_PILE_RESHUFFLED = EventType.DRAW_PILE_RESHUFFLED.value
_E_GAME_ABORTED = EventType.GAME_ABORTED.value
_E_GAME_ENDED = EventType.GAME_ENDED.value
_E_GAME_STARTED = EventType.GAME_STARTED.value
_E_PLAYER_ELIMINATED = EventType.PLAYER_ELIMINATED.value
_E_PLAYER_SKIPPED = EventType.PLAYER_SKIPPED.value
_E_PROTECTION_GAINED = EventType.PROTECTION_GAINED.value
_E_REACTION_DECLINED = EventType.REACTION_DECLINED.value
_E_REACTION_PLAYED = EventType.REACTION_PLAYED.value
_E_SKIP_PENDING = EventType.SKIP_PENDING.value
_E_TURN_STARTED = EventType.TURN_STARTED.value
_E_VOLLEY_PENDING = EventType.VOLLEY_PENDING.value
_COMMAND_TYPES = (Play, React, Discard, Burn)  # a tuple: isinstance is faster with it than with a union
_TURN_COMMANDS = (Play, Burn)


def keep_order(cards: Sequence[str]) -> list[str]:
    """A shuffle that keeps the given order: for callers that fix every pile themselves."""
    return list(cards)


class _Log:
    """Where the rules write what happens: a private draft, and the events if asked for.

    Every change goes through `emit`, which folds it with the same fold `apply` and `replay` use,
    so the rules exist once whether events are kept (`step`: the log) or not (`advance`: search
    playouts). Read `log.state` afresh after each `emit`.
    """

    __slots__ = ("events", "shuffle", "state")

    def __init__(self, draft: Draft, shuffle: Shuffle, events: list[Event] | None) -> None:
        self.state = draft
        self.events = events
        self.shuffle = shuffle

    def emit(self, etype: str, /, **fields: Any) -> None:
        events = self.events
        if events is None:  # nothing reads the event: fold its fields as they are
            FOLD[etype](self.state, fields)
            return
        e = {"type": etype, "version": EVENT_VERSION, **fields}  # what events.event() makes
        events.append(e)
        FOLD[etype](self.state, e)


def _illegal(code: ErrorCode, detail: str) -> IllegalCommand:
    return IllegalCommand(code, detail)


# --- what a seat may do --------------------------------------------------------------------


def valid_targets(state: AnyState, seat: int) -> list[int]:
    """Seats a Hare Cumi volley from `seat` may aim at (R5b, R11)."""
    limit, damage, protected = state.ruleset.max_damage, state.damage, state.protected
    return [t for t in range(state.players) if t != seat and damage[t] < limit and t not in protected]


def has_turn_play(state: AnyState, seat: int) -> bool:
    """Whether R5a or R5b is open to `seat`; burning is allowed only when neither is (R5c)."""
    hand = state.hands[seat]
    if not SINGLE_PLAYS.isdisjoint(hand):
        return True
    return _CUMI in hand and bool(valid_targets(state, seat))


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
) -> Event:
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise InvalidRuleset(
            ErrorCode.BAD_RULESET,
            f"this ruleset seats {ruleset.min_players} to {ruleset.max_players} players",
        )
    if not 0 <= shuffler < players:
        raise InvalidRuleset(ErrorCode.BAD_RULESET, "the shuffler must be one of the seats")
    return event(
        _E_GAME_STARTED,
        ruleset=ruleset.to_dict(),
        players=players,
        shuffler=shuffler,
        hands=[list(h) for h in hands],
        draw_pile=list(draw_pile),
        discard_pile=list(discard_pile),
        damage=list(damage) if damage is not None else [0] * players,
        direction=direction_name(direction),
        protected=sorted(protected),
        turn=(shuffler + 1) % players if turn is None else turn,
    )


def deal(ruleset: Ruleset, players: int, shuffler: int, deck: Sequence[str]) -> Event:
    """GameStarted for `deck` (top first), dealt one card at a time clockwise from the first player (R3)."""
    first = (shuffler + 1) % players
    hands: list[list[str]] = [[] for _ in range(players)]
    top = 0
    for _ in range(ruleset.hand_size):
        for i in range(players):
            if top < len(deck):
                hands[(first + i) % players].append(deck[top])
                top += 1
    return setup_event(
        ruleset,
        players=players,
        shuffler=shuffler,
        hands=hands,
        draw_pile=deck[top:],
    )


def start_events(first: Event) -> list[Event]:
    """The opening events: the setup and the first turn."""
    state = apply(None, first)
    return [first, event(_E_TURN_STARTED, seat=state.turn_seat, turn=1)]


def start_game(ruleset: Ruleset, players: int, shuffler: int, shuffle: Shuffle) -> list[Event]:
    return start_events(deal(ruleset, players, shuffler, shuffle(ruleset.cards())))


# --- deciding ------------------------------------------------------------------------------


def decide(
    state: GameState, command: Command | Mapping[str, Any], shuffle: Shuffle = keep_order
) -> list[Event]:
    """The events `command` causes in `state`, or IllegalCommand with a stable code.

    `shuffle` orders the discard pile when it becomes the new draw pile (R8); its result is
    recorded in the DrawPileReshuffled event, so replaying never needs it.
    """
    return step(state, command, shuffle)[0]


def abort(state: GameState) -> tuple[list[Event], GameState]:
    """The game called off from outside the rules (by a moderator): it ends with no winner."""
    if state.over:
        raise _illegal(ErrorCode.GAME_OVER, "the game is over")
    events = [event(_E_GAME_ABORTED)]
    return events, apply(state, events[0])


def step(
    state: GameState, command: Command | Mapping[str, Any], shuffle: Shuffle = keep_order
) -> tuple[list[Event], GameState]:
    """`decide`, also returning the state its events fold to (saves callers a second fold)."""
    cmd = command if isinstance(command, _COMMAND_TYPES) else parse_command(command)
    _check_awaited(state, cmd)
    events: list[Event] = []
    log = _Log(thaw(state), shuffle, events)
    _decide(log, cmd)
    return events, freeze(log.state)


def advance(draft: Draft, command: Command, shuffle: Shuffle = keep_order) -> Draft:
    """`step` for a draft the caller owns (a search playout's): the same rules, no events made.

    The draft changes in place; on an IllegalCommand it is unchanged (every check comes before
    the first change). Make one with `private_copy`; `freeze` gives its GameState.
    """
    _check_awaited(draft, command)
    _decide(_Log(draft, shuffle, None), command)
    return draft


def private_copy(state: GameState) -> Draft:
    """A mutable copy of `state` for `advance` to change in place."""
    return thaw(state)


def _check_awaited(state: AnyState, cmd: Command) -> None:
    awaiting = state.awaiting
    if state.result is not None or awaiting is None:
        raise _illegal(ErrorCode.GAME_OVER, "the game is over")
    if cmd.seat != awaiting.seat:
        raise _illegal(ErrorCode.NOT_YOUR_TURN, f"waiting for seat {awaiting.seat}")


def _decide(log: _Log, cmd: Command) -> None:
    awaiting = log.state.awaiting
    assert awaiting is not None
    kind = awaiting.kind
    if isinstance(cmd, _TURN_COMMANDS):
        if kind is not _D_TURN:
            raise _illegal(ErrorCode.WRONG_ACTION, f"a {kind.value} decision is awaited")
        if isinstance(cmd, Play):
            _play(log, cmd)
        else:
            _burn(log, cmd)
    elif isinstance(cmd, React):
        if kind is _D_VOLLEY:
            _answer_volley(log, cmd)
        elif kind is _D_SKIP:
            _answer_skip(log, cmd)
        else:
            raise _illegal(ErrorCode.WRONG_ACTION, f"a {kind.value} decision is awaited")
    else:
        if kind is not _D_DISCARD:
            raise _illegal(ErrorCode.WRONG_ACTION, f"a {kind.value} decision is awaited")
        _discard(log, cmd)


def _play(log: _Log, cmd: Play) -> None:
    state, seat, cards = log.state, cmd.seat, cmd.cards
    if not cards:
        raise _illegal(ErrorCode.BAD_COMMAND, "play at least one card")
    card = cards[0]
    if len(set(cards)) > 1:
        raise _illegal(ErrorCode.MIXED_CARDS, "different cards are never played in one turn")
    if card in NEVER_PLAYED:
        raise _illegal(ErrorCode.NOT_PLAYABLE, f"{card} is never played on a turn")
    if card != _CUMI and len(cards) > 1:
        raise _illegal(ErrorCode.MIXED_CARDS, "only Hare Cumi may be played several at once")
    if state.hands[seat].count(card) < len(cards):
        raise _illegal(ErrorCode.NOT_IN_HAND, f"you do not hold {len(cards)} × {card}")
    target = cmd.target
    if card == _CUMI:
        if target is None or target == seat or not 0 <= target < state.players or state.is_eliminated(target):
            raise _illegal(ErrorCode.BAD_TARGET, "Hare Cumi needs another player still in the game")
        if target in state.protected:
            raise _illegal(ErrorCode.TARGET_PROTECTED, f"seat {target} is protected")
    elif target is not None:
        raise _illegal(ErrorCode.BAD_TARGET, f"{card} takes no target")

    log.emit(_E_CARDS_PLAYED, seat=seat, cards=list(cards), target=target)
    if card == _CUMI:
        assert target is not None
        log.emit(_E_VOLLEY_PENDING, attacker=seat, target=target, count=len(cards))
        return
    if card == _STROM:
        log.emit(_E_SKIP_PENDING, seat=state.next_seat(seat), by=seat)
        return
    if card in (_RIGHT, _LEFT):
        log.emit(_E_DIRECTION_CHANGED, direction=direction_name(CW if card == _RIGHT else CCW))
        log.emit(_E_PROTECTION_GAINED, seat=seat)
    elif card == _ZADA:
        log.emit(_E_DAMAGE_HEALED, seat=seat, damage=max(0, state.damage[seat] - 1))
    elif card == _HOUSE:
        skipped = state.next_seat(seat)
        log.emit(_E_PLAYER_SKIPPED, seat=skipped)
        log.emit(_E_PROTECTION_GAINED, seat=skipped)
    _end_turn(log)


def _burn(log: _Log, cmd: Burn) -> None:
    state, seat = log.state, cmd.seat
    if has_turn_play(state, seat):
        raise _illegal(ErrorCode.MUST_PLAY, "you may burn only when no card can be played")
    hand = state.hands[seat]
    if cmd.card is None and hand:
        raise _illegal(ErrorCode.BAD_COMMAND, "name the card to burn")
    if cmd.card is not None and cmd.card not in hand:
        raise _illegal(ErrorCode.NOT_IN_HAND, f"you do not hold {cmd.card}")
    log.emit(_E_CARD_BURNED, seat=seat, card=cmd.card)
    _end_turn(log)


def _answer_volley(log: _Log, cmd: React) -> None:
    state, seat = log.state, cmd.seat
    volley = state.volley
    assert volley is not None
    if cmd.card not in (None, _TAPTAP):
        raise _illegal(ErrorCode.BAD_REACTION, "a volley is answered with Hare Taptap or not at all")
    if cmd.card == _TAPTAP:
        if _TAPTAP not in state.hands[seat]:
            raise _illegal(ErrorCode.NOT_IN_HAND, "you do not hold Hare Taptap")
        log.emit(_E_REACTION_PLAYED, seat=seat, card=_TAPTAP, kind="volley")
        _end_turn(log)
        return
    log.emit(_E_REACTION_DECLINED, seat=seat, kind="volley")
    before = state.damage[seat]
    after = min(state.ruleset.max_damage, before + volley.count)
    log.emit(_E_DAMAGE_TAKEN, seat=seat, amount=after - before, damage=after)
    if after >= state.ruleset.max_damage:
        log.emit(_E_PLAYER_ELIMINATED, seat=seat, cards=list(state.hands[seat]))
        alive = log.state.alive()
        if len(alive) == 1:
            log.emit(_E_GAME_ENDED, result=Result.WIN.value, winner=alive[0], survivors=alive)
            return
    _end_turn(log)


def _answer_skip(log: _Log, cmd: React) -> None:
    state, seat = log.state, cmd.seat
    if cmd.card not in (None, _STROM):
        raise _illegal(ErrorCode.BAD_REACTION, "a skip is forwarded with Strom or taken")
    if cmd.card == _STROM:
        if _STROM not in state.hands[seat]:
            raise _illegal(ErrorCode.NOT_IN_HAND, "you do not hold Strom")
        log.emit(_E_REACTION_PLAYED, seat=seat, card=_STROM, kind="skip")
        log.emit(_E_SKIP_PENDING, seat=state.next_seat(seat), by=seat)
        return
    log.emit(_E_REACTION_DECLINED, seat=seat, kind="skip")
    log.emit(_E_PLAYER_SKIPPED, seat=seat)
    _end_turn(log)


def _discard(log: _Log, cmd: Discard) -> None:
    state, seat = log.state, cmd.seat
    if len(cmd.cards) != state.discard_count:
        raise _illegal(ErrorCode.BAD_DISCARD, f"discard exactly {state.discard_count} cards")
    if Counter(cmd.cards) - Counter(state.hands[seat]):
        raise _illegal(ErrorCode.BAD_DISCARD, "you can only discard cards you hold")
    log.emit(_E_CARDS_DISCARDED, seat=seat, cards=list(cmd.cards))
    _require_discards(log)


def _end_turn(log: _Log) -> None:
    """R8: the active player draws up to their maximum, then R9 and the next turn."""
    seat = log.state.turn_seat
    while True:
        state = log.state
        need = state.max_hand(seat) - len(state.hands[seat])
        if need <= 0:
            break
        if state.draw_pile:
            log.emit(_E_CARDS_DRAWN, seat=seat, cards=list(state.draw_pile[:need]))
        elif len(state.discard_pile) > 1:
            log.emit(_E_DRAW_PILE_RESHUFFLED, cards=log.shuffle(state.discard_pile[:-1]))
        else:
            break
    _require_discards(log)


def _require_discards(log: _Log) -> None:
    """R9: seats over their maximum discard one at a time, from the active player onwards."""
    state = log.state
    hands, damage, n = state.hands, state.damage, state.players
    hand_size = state.ruleset.hand_size
    seat = state.turn_seat
    for _ in range(n):
        excess = len(hands[seat]) - max(0, hand_size - damage[seat])
        if excess > 0:
            log.emit(_E_DISCARD_REQUIRED, seat=seat, count=excess)
            return
        seat = (seat + state.direction) % n
    _next_turn(log)


def _next_turn(log: _Log) -> None:
    """R10 and R14."""
    state = log.state
    if state.turn_number >= state.ruleset.turn_limit:
        log.emit(_E_GAME_ENDED, result=Result.DRAW.value, winner=None, survivors=state.alive())
        return
    base = state.skipped if state.skipped is not None else state.turn_seat
    log.emit(_E_TURN_STARTED, seat=state.next_seat(base), turn=state.turn_number + 1)
