"""The services shuffle through one seam (settings.GAME_SHUFFLE): a test deals the decks it needs."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from games.eventlog import events_with_seq
from games.services.shuffle import deck_shuffle
from games.services.tables import TableSettings, table_create, table_join, table_start
from harehra import Event, GameState, legal_commands, make_ruleset, replay, start_game, step, view_for
from harehra.bots import get_bot
from harehra.cards import BASE_DECK
from tests.support.decks import (
    AIM_ON_THE_TABLE,
    EVERY_STATE,
    ONE_PERSON_EVADES,
    SEAT_ZERO_SKIPPED,
    SHORT_GAME_FOR_ONE,
    TAPTAP_AND_STROM,
    Deal,
    seeded_decks,
    stacked,
    stacked_deck,
)


def _dealt(make_user: Any, seed: int) -> list[list[str]]:
    users = [make_user() for _ in range(3)]
    with seeded_decks(random.Random(seed)):
        table = table_create(host=users[0], settings=TableSettings(seats=3))
        for u in users[1:]:
            table_join(table=table, user=u)
        game = table_start(table=table, user=users[0])
    state = replay([e for _, e in events_with_seq(game, after=0)])
    return [list(hand) for hand in state.hands]


@pytest.mark.django_db
def test_the_same_seed_deals_the_same_hands_and_another_seed_other_hands(make_user: Any) -> None:
    assert _dealt(make_user, 7) == _dealt(make_user, 7)
    assert _dealt(make_user, 7) != _dealt(make_user, 8)


def test_by_default_decks_come_from_the_system_shuffle() -> None:
    cards = [str(i) for i in range(40)]
    orders = {tuple(deck_shuffle(cards)) for _ in range(5)}
    assert len(orders) > 1 and all(sorted(o) == sorted(cards) for o in orders)


def test_a_stacked_deck_deals_the_hands_asked_for_and_keeps_every_card() -> None:
    hands = [["cumi", "strom"], ["taptap", "zada"], ["house", "left"]]
    top = stacked_deck(hands, ["right"], first=1)
    assert top == ["taptap", "house", "cumi", "zada", "left", "strom", "right"]
    cards = make_ruleset().cards()
    deck = stacked(top)(cards)
    assert deck[: len(top)] == top and sorted(deck) == sorted(cards)
    # A reshuffled discard pile that lacks some of those cards keeps its order.
    assert stacked(top)(["cumi", "zada"]) == ["cumi", "zada"]


def _played_out(
    deal: Deal,
    policy: Callable[[dict[str, Any], dict[str, Any]], None] | None = None,
    *,
    to_the_end: bool = True,
) -> tuple[list[Event], GameState]:
    """The events of `deal` played by the engine, the people by its script (each scripted command
    checked by `policy`, if given, against the view it is made from) and the normal bots by theirs,
    as the worker plays them: to the game's end, or (not `to_the_end`) to the script's."""
    assert all(Counter(deal.deck_top())[c] <= n for c, n in BASE_DECK.items())
    ruleset, players = make_ruleset(), len(deal.hands)
    events = start_game(ruleset, players, (deal.first - 1) % players, stacked(deal.deck_top()))
    state = replay(events)
    assert [list(h) for h in state.hands] == [list(h) for h in deal.hands]
    people = list(deal.people)
    seats = {seat for seat, _, _ in people}
    bot = get_bot("normal")
    while not state.over and (to_the_end or people):
        seat, kind = state.awaiting.seat, state.awaiting.kind.value
        if seat in seats:
            assert people, f"seat {seat} must decide ({kind}) after the script ended"
            want_seat, want_kind, command = people.pop(0)
            assert (seat, kind) == (want_seat, want_kind), f"the script has {want_seat} do {want_kind}"
            if policy:
                policy(view_for(state, seat), command)
        else:
            command = bot.choose(view_for(state, seat), legal_commands(state, seat))
        new, state = step(state, {**command, "seat": seat})
        events += new
    assert not people, f"moves left over: {people}"
    assert not any(e["type"] == "DrawPileReshuffled" for e in events)
    return events, state


def test_the_browser_deal_plays_out_as_designed_with_normal_bots() -> None:
    """The deal of tests/browser/test_play.py, played by the engine and the normal bot, as the
    worker plays it: the reactions it is chosen for happen, and the game ends in ten turns."""
    events, state = _played_out(TAPTAP_AND_STROM)
    reactions = [(e["seat"], e["card"], e["kind"]) for e in events if e["type"] == "ReactionPlayed"]
    assert reactions == [(2, "strom", "skip"), (1, "taptap", "volley")]
    assert [e["seat"] for e in events if e["type"] == "PlayerEliminated"] == [0, 1, 2]
    assert events[-1]["type"] == "GameEnded" and events[-1]["winner"] == 3
    assert state.turn_number == 10
    assert not any(e["type"] == "DiscardRequired" for e in events)


def _as_the_page_player_plays(view: dict[str, Any], command: dict[str, Any]) -> None:
    """`command` is what tests/browser/ui.py's Player chooses from `view` (seat 0 aims at seat 1
    and seat 1 at seat 0)."""
    hand, kind, seat = list(view["hand"]), view["awaiting"]["kind"], view["seat"]
    if kind == "volley":
        assert command == {"react": "taptap" if "taptap" in hand else "none"}
    elif kind == "skip":
        assert command == {"react": "strom" if "strom" in hand else "none"}
    elif kind == "discard":
        assert command == {"discard": sorted(hand[: view["discard_count"]])}
    elif "cumi" in hand:
        assert command == {"play": ["cumi"] * min(2, hand.count("cumi")), "target": 1 - seat}
    else:  # Hare Taptap and Hare Mini are never played on a turn
        playable = [c for c in hand if c not in ("taptap", "mini")]
        assert command == {"play": ["strom" if "strom" in hand else playable[0]]}


def test_the_every_state_deal_plays_out_as_designed_with_normal_bots() -> None:
    """The deal of tests/browser/test_table.py, played by the engine, the normal bot and the page
    player's choices: each person has a turn, aims, answers, discards and is out while two bots
    play on, and the game ends in twelve turns."""
    events, state = _played_out(EVERY_STATE, _as_the_page_player_plays)
    kinds = {(s, k) for s, k, _ in EVERY_STATE.people}
    assert {(s, k) for s in (0, 1) for k in ("turn", "volley", "discard")} <= kinds
    assert [e["seat"] for e in events if e["type"] == "PlayerEliminated"] == [0, 1, 2]
    out = [i for i, e in enumerate(events) if e["type"] == "PlayerEliminated"]
    turns_between = [e for e in events[out[1] : out[2]] if e["type"] == "TurnStarted"]
    assert len(turns_between) >= 3, "the bots play on for a while after the last person is out"
    assert events[-1]["type"] == "GameEnded" and events[-1]["winner"] == 3
    assert state.turn_number == 12


def test_the_one_person_deal_gives_twelve_decisions_in_twelve_turns_without_damage() -> None:
    """The deal of tests/browser/test_table_with_bots.py: the person's decisions come three a
    round (two volleys evaded, one turn), and the game is far from over after them."""
    events, state = _played_out(ONE_PERSON_EVADES, _as_the_page_player_plays, to_the_end=False)
    assert state.turn_number == 13 and not state.over  # twelve turns played, the thirteenth begun
    assert state.damage == (0, 0, 0) and not state.protected
    volleys = [(e["attacker"], e["target"]) for e in events if e["type"] == "VolleyPending"]
    assert volleys == [(1, 0), (2, 0)] * 4


def test_the_short_game_deal_plays_out_as_designed_with_normal_bots() -> None:
    """The deal of tests/browser/test_game_page_pushes.py: a skip forwarded round the table, a
    volley evaded, volleys taken with discards, Houses, both eliminations, in eight turns."""
    events, state = _played_out(SHORT_GAME_FOR_ONE, _as_the_page_player_plays)
    reactions = [(e["seat"], e["card"], e["kind"]) for e in events if e["type"] == "ReactionPlayed"]
    assert reactions == [(2, "strom", "skip"), (0, "strom", "skip"), (0, "taptap", "volley")]
    assert [e["seat"] for e in events if e["type"] == "DiscardRequired"] == [1, 1]
    assert [e["seat"] for e in events if e["type"] == "PlayerEliminated"] == [1, 0]
    assert events[-1]["type"] == "GameEnded" and events[-1]["winner"] == 2
    assert state.turn_number == 8


def test_the_spectator_deal_keeps_seat_zero_out_of_the_first_sixteen_turns() -> None:
    """The deal of tests/browser/test_replay.py's live game: normal bots at seats 1 to 3 play
    sixteen turns before seat 0, whose person is away, is first asked anything."""
    deal = SEAT_ZERO_SKIPPED
    assert all(Counter(deal.deck_top())[c] <= n for c, n in BASE_DECK.items())
    events = start_game(make_ruleset(), 4, 0, stacked(deal.deck_top()))
    state = replay(events)
    assert [list(h) for h in state.hands] == [list(h) for h in deal.hands]
    bot = get_bot("normal")
    while state.awaiting.seat != 0:
        seat = state.awaiting.seat
        new, state = step(
            state, {**bot.choose(view_for(state, seat), legal_commands(state, seat)), "seat": seat}
        )
        events += new
    assert state.turn_number == 17 and state.awaiting.kind.value == "turn"
    assert [e["seat"] for e in events if e["type"] == "PlayerSkipped"] == [0] * 5
    assert not any(e["type"] in ("VolleyPending", "SkipPending") for e in events)


def test_the_aim_deal_asks_seat_zero_to_aim_past_a_protected_seat_then_skips_it() -> None:
    """The deal of tests/browser/test_table_screens.py: seat 0 answers a volley, aims while bot 1
    is protected (bots 2 and 3 are its targets), then answers a skip; the bots play on to its turn."""
    events, state = _played_out(AIM_ON_THE_TABLE, to_the_end=False)
    volleys = [(e["attacker"], e["target"]) for e in events if e["type"] == "VolleyPending"]
    assert volleys == [(2, 0), (0, 3)]
    aimed = next(i for i, e in enumerate(events) if e["type"] == "VolleyPending" and e["attacker"] == 0)
    before = replay(events[:aimed])
    assert set(before.protected) == {1}
    assert [e["seat"] for e in events if e["type"] == "SkipPending"] == [0]
    assert not state.over and state.turn_number == 8  # bot 1's; the bots play on
    bot = get_bot("normal")
    while state.awaiting.seat != 0:
        seat = state.awaiting.seat
        _, state = step(
            state, {**bot.choose(view_for(state, seat), legal_commands(state, seat)), "seat": seat}
        )
    # ...to seat 0's turn 12, where the game waits for the person.
    assert state.turn_number == 12 and state.awaiting.kind.value == "turn"
    assert state.hands[0] == ("cumi", "house", "taptap", "left", "left")
