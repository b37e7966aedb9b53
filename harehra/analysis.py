"""The analysis of a finished game: who was winning at every step, and what each decision cost.

From a finished game's event log alone (pure: no Django, no clock; docs/ANALYSIS.md says why it is
computed this way):

- **Public win chance per step.** After each command's events have settled, the table as a
  spectator sees it (`view_for(state, None)`) is dealt into `playouts` worlds consistent with it
  (the hidden hands and the draw order at random, as the hard bot deals its worlds: `world`), and
  each world is played to its end by the normal bot's policy for every seat. A seat's win chance
  is the share of worlds it wins. Every step of a command's events gets the chance of the table
  that command left; the last step gets the result itself.
- **Every decision judged from the deciding seat's view.** For a decision with more than one
  legal option, worlds are dealt from `view_for(state, seat)` (the seat's own hand, never a card
  it could not see), every option is played in each world with the same luck afterwards (common
  random numbers), and played to the end. The option with the highest win share is the best; the
  drop is best − chosen, and its standard error is that of the paired differences.
- **Labels.** inaccuracy / mistake / blunder when the drop less twice its standard error (its
  lower bound) is at least 5 / 10 / 15 points of win chance: noise is never called a blunder, and
  a drop near a threshold gets the weaker label. A decision whose lower bound lies within two
  standard errors of a threshold gets a second look: more worlds for the chosen option and the
  two best others, until its label stands or the extra rounds are spent.
- **Accuracy** per seat: the mean over its judged decisions of a per-decision score that is 100
  at no drop and falls with the drop beyond noise (see `decision_accuracy`).
- **Expected placing per step**, from the same public worlds as the win chance (`public_estimate`);
  the last step gets the placings of the result (harehra/placings.py).
- **Luck against skill** per seat (`luck`): its own win chance (from its own view) moved by its own
  decisions, by its draws (the deal included) and by everything else (the other players'
  decisions), the three adding up, with the start 1/N, to its result.

Deterministic: each estimate's RNG is seeded from `salt` (the caller's name for the game), the
step and the view the estimate samples from (public, or the deciding seat's), so the same log and
budget give the same result, byte for byte, through `analysis_json`, and a hidden card sways no
estimate, not even through its seed.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from .bots.heuristic import KEEP_VALUE, heuristic_move
from .bots.playout import Runner, SplitMix64, play_moves
from .bots.search import candidates, dealer
from .commands import Burn, Command, Discard, Play, React, command_to_dict
from .decide import advance
from .events import DECISION_EVENTS, SEAT_EVENTS, EventType, StoredEvent
from .fold import apply
from .legal import legal_moves
from .placings import outcome_from_log
from .state import Draft, GameState, Result, private_draft
from .views import view_for

ANALYSIS_VERSION = 5  # 2: placings and luck against skill; 3: labels from the drop's lower bound,
# a second look at a decision whose label is in doubt; 4: the worlds and the playouts' luck drawn
# from SplitMix64 (the compiled playout core's generator), a default budget of 512; 5: the public
# win chance through the calibration map (`calibrated`)
DEFAULT_PLAYOUTS = 512  # worlds per step and per option of a decision (64 before the compiled core)
MAX_OPTIONS = 8  # options of one decision played out (the chosen one and the normal bot's always)
# (minimum in points of win chance, label) of the drop's lower bound: the drop less NOISE_SE standard
# errors (see `label`).
LABELS: tuple[tuple[float, str], ...] = ((15.0, "blunder"), (10.0, "mistake"), (5.0, "inaccuracy"))
NOISE_SE = 2.0
# The second look at a decision whose label is in doubt (see _judge): at most EXTRA_ROUNDS more
# rounds of the budget's worlds for the chosen option and the EXTRA_OPTIONS best others, while the
# drop's lower bound lies within DOUBT_SE standard errors of a threshold.
EXTRA_ROUNDS = 7
EXTRA_OPTIONS = 2
DOUBT_SE = 2.0
# The calibration map of the public win chance (see `calibrated`): at a table of at least
# CALIBRATION_SEATS seats still in, a seat's share p of the worlds won weighs
# p ** CALIBRATION_POWER * (1 - p) ** CALIBRATION_LEAD, and the seats' weights share out the worlds
# anybody won; with two seats in, the shares are the chances.
CALIBRATION_SEATS = 3
CALIBRATION_POWER = 0.41
CALIBRATION_LEAD = -1.10
DIGITS = 4  # every chance is rounded to this many decimals, so the JSON is stable and short
DEAL_PLAYOUTS = 4  # times the budget for each seat's chance after the deal (one estimate a seat)
_STILL_IN = -(10**9)  # the placing key of a seat still in the game at the end: ahead of all

Progress = Callable[[int, int], None]
_COMMAND_OR_SEAT = DECISION_EVENTS | SEAT_EVENTS
# Where one move ends and the next begins, as harehra/placings.py counts moves (seats eliminated by
# one move share a place).
_MOVE_STARTS = DECISION_EVENTS | {EventType.TURN_STARTED.value}


class NotFinished(ValueError):
    """The log is not of a game that ended with a win or a draw (running, aborted or empty)."""


def _rng(salt: str, step: int, purpose: str, view: dict[str, Any]) -> SplitMix64:
    """The generator of one estimate: seeded from the game (`salt`), the step and what the estimate
    may know (the view it samples from), so hidden cards never sway it, not even through the seed.
    It deals the worlds and seeds each world's playouts (`next`)."""
    text = json.dumps([salt, step, purpose, view], sort_keys=True, separators=(",", ":"), default=str)
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return SplitMix64(int.from_bytes(digest, "big"))


_FOREVER = 1 << 30  # moves: more than any game lasts (the turn limit ends every one first)


def play_to_end(d: Draft, rng: SplitMix64, runner: Runner = play_moves) -> int | None:
    """Play `d` to its end with the normal bot's policy for every seat; the winner (None: a
    draw at the turn limit). The fast policy every estimate uses. `runner` plays the moves
    (`play_moves`: the compiled core where built; `pure_moves`, `reference_moves`: the same moves
    in Python, see harehra/bots/playout.py)."""
    runner(d, rng, _FOREVER)
    return d.winner if d.result is Result.WIN else None


def _places(players: int, out_at: dict[int, int]) -> list[int]:
    """Placings by the site's rule (harehra/placings.py): the seats still in share first place
    (the winner, or everyone left at a turn-limit draw), then the later a seat went out the better;
    seats out at the same move share a place. `out_at`: seat -> the move it was eliminated at."""
    key = [-out_at[s] if s in out_at else _STILL_IN for s in range(players)]
    return [1 + sum(1 for other in key if other < key[s]) for s in range(players)]


def play_to_places(
    d: Draft, rng: SplitMix64, out_at: dict[int, int], move: int, runner: Runner = play_moves
) -> tuple[int | None, list[int]]:
    """`play_to_end`, also placing every seat: `out_at` (seat -> move) holds the eliminations so
    far, `move` counts the moves so far (later eliminations place better)."""
    out = dict(out_at)
    limit = d.ruleset.max_damage
    for s in range(d.players):  # a seat the log did not say was out, but is: out now
        if s not in out and d.damage[s] >= limit:
            out[s] = move
    for s, at in enumerate(runner(d, rng, _FOREVER)):  # only a volley taken puts a seat out
        if at:
            out[s] = move + at
    return (d.winner if d.result is Result.WIN else None), _places(d.players, out)


def public_estimate(
    state: GameState,
    playouts: int,
    salt: str = "",
    step: int = 0,
    out_at: dict[int, int] | None = None,
    move: int = 0,
    runner: Runner = play_moves,
    raw: bool = False,
) -> tuple[list[float], list[float]]:
    """Each seat's win chance (its share of wins over `playouts` worlds dealt from the public view
    of `state`, `calibrated` unless `raw`) and its mean placing over them (`out_at`, `move`: the
    eliminations and the moves so far, see play_to_places)."""
    n = state.players
    if state.result is not None:
        chances = [1.0 if state.result is Result.WIN and s == state.winner else 0.0 for s in range(n)]
        return chances, [float(p) for p in _places(n, out_at or {})]
    view = view_for(state, None)
    rng = _rng(salt, step, "public", view)
    deal = dealer(view)
    wins = [0] * n
    places = [0] * n
    dealt = 0
    for _ in range(playouts):
        w = deal(rng)
        if w is None:  # a view that does not add up; never seen, but not worth a crash
            continue
        winner, placed = play_to_places(w, SplitMix64(rng.next()), out_at or {}, move, runner)
        dealt += 1
        if winner is not None:
            wins[winner] += 1
        for s in range(n):
            places[s] += placed[s]
    shares = [k / playouts for k in wins]
    return (
        [round(c, DIGITS) for c in (shares if raw else calibrated(shares, len(state.alive())))],
        [round(p / dealt, DIGITS) if dealt else float(n) for p in places],
    )


def calibrated(shares: Sequence[float], seats_in: int) -> list[float]:
    """The win chances of the seats whose shares of the worlds won are `shares`, at a table of
    `seats_in` seats still in. The playouts play every seat as the normal bot, and where three or
    more are in their shares are too timid (a leader wins more often than they say, the seats
    behind it less often), so there each seat weighs p ** CALIBRATION_POWER *
    (1 - p) ** CALIBRATION_LEAD and the worlds anybody won (the sum of the shares; the rest are
    drawn) are shared out by weight; two seats in, the shares are calibrated as they are. A
    monotone map fitted on bot games (docs/ANALYSIS.md, "Calibration"): a larger share never gets
    a smaller chance, a seat that won no world gets 0, one that won every world 1, and the chances
    add up to what the shares did."""
    if seats_in < CALIBRATION_SEATS:
        return list(shares)
    total = sum(shares)
    weights = [
        p**CALIBRATION_POWER * max(1.0 - p, 1e-9) ** CALIBRATION_LEAD if p > 0 else 0.0 for p in shares
    ]
    weight = sum(weights)
    if weight <= 0:
        return list(shares)
    return [total * w / weight for w in weights]


def public_chances(
    state: GameState, playouts: int, salt: str = "", step: int = 0, raw: bool = False
) -> list[float]:
    """Each seat's win chance from `playouts` worlds dealt from the public view of `state`
    (`calibrated`; `raw`: its share of the worlds won, unmapped)."""
    return public_estimate(state, playouts, salt, step, raw=raw)[0]


def own_chance(state: GameState, seat: int, playouts: int, salt: str = "", step: int = 0) -> float:
    """`seat`'s share of wins over `playouts` worlds dealt from its own view of `state`."""
    return _own_chance(state, seat, playouts, salt, step)[0]


def _own_chance(
    state: GameState, seat: int, playouts: int, salt: str, step: int, runner: Runner = play_moves
) -> tuple[float, float]:
    """`own_chance` and its standard error."""
    if state.result is not None:
        return (1.0 if state.result is Result.WIN and state.winner == seat else 0.0), 0.0
    view = view_for(state, seat)
    rng = _rng(salt, step, "own", view)
    deal = dealer(view)
    wins: list[int] = []
    for _ in range(playouts):
        w = deal(rng)
        if w is None:
            continue
        wins.append(play_to_end(w, SplitMix64(rng.next()), runner) == seat)
    return (sum(wins) / len(wins) if wins else 0.0), _stderr(wins)


def draw_luck(
    state: GameState, seat: int, drawn: Sequence[str], playouts: int, salt: str = "", step: int = 0
) -> float:
    """What seeing the cards it drew (`drawn`, now in its hand in `state`) did to `seat`'s own win
    chance: its chance in `state` less its chance had those cards still been unseen (the same
    table with them back among the hidden cards and as many unseen ones in its hand). Paired: each
    world is dealt once and the unseen twin made from it by dealing the seat's drawn places anew
    from the hidden places (`_unsee`), both then played out with the same luck."""
    return _draw_luck(state, seat, drawn, playouts, salt, step)[0]


def _draw_luck(
    state: GameState,
    seat: int,
    drawn: Sequence[str],
    playouts: int,
    salt: str,
    step: int,
    runner: Runner = play_moves,
) -> tuple[float, float]:
    """`draw_luck` and its standard error."""
    if state.result is not None or not drawn or Counter(drawn) - Counter(state.hands[seat]):
        return 0.0, 0.0
    view = view_for(state, seat)
    rng = _rng(salt, step, "draw", view)
    deal = dealer(view)
    diffs: list[int] = []
    for _ in range(playouts):
        w = deal(rng)
        if w is None:
            continue
        twin = private_draft(w)
        _unsee(twin, view, seat, drawn, rng)
        seed = rng.next()
        seen = play_to_end(w, SplitMix64(seed), runner) == seat
        unseen = play_to_end(twin, SplitMix64(seed), runner) == seat
        diffs.append(seen - unseen)
    return (sum(diffs) / len(diffs) if diffs else 0.0), _stderr(diffs)


def _unsee(d: Draft, view: dict[str, Any], seat: int, drawn: Sequence[str], rng: SplitMix64) -> None:
    """Deal `seat`'s `drawn` places anew from themselves and every hidden place (the other hands
    and the draw pile): the first len(drawn) steps of a Fisher-Yates shuffle, so the seat's new
    cards are a uniform draw from the cards it could not see, and the rest stays where it was.
    A card never goes to a place the public log rules out for it (an old card of a seat that let a
    volley land cannot be a Taptap, nor one of a seat that took a skip a Strom; see `world`)."""
    hand = d.hands[seat]
    assert isinstance(hand, list)
    mine: list[int] = []
    for card in drawn:  # the drawn cards were added last: find them from the end
        mine.append(max(k for k, c in enumerate(hand) if c == card and k not in mine))
    places: list[tuple[list[str], int, frozenset[str]]] = [(hand, i, frozenset()) for i in mine]
    for p in view["players"]:
        other = p["seat"]
        if other == seat:
            continue
        cards = d.hands[other]
        assert isinstance(cards, list)
        since = p["drawn_since_taken"]
        old_no_taptap = len(cards) - since["volley"] if since["volley"] is not None else 0
        old_no_strom = len(cards) - since["skip"] if since["skip"] is not None else 0
        for i in range(len(cards)):
            places.append(
                (cards, i, frozenset(("taptap",) * (i < old_no_taptap) + ("strom",) * (i < old_no_strom)))
            )
    pile = d.draw_pile
    assert isinstance(pile, list)
    places.extend((pile, i, frozenset()) for i in range(len(pile)))
    for j in range(len(mine)):
        here, at, _ = places[j]
        while True:
            there, to, barred = places[j + rng.below(len(places) - j)]
            if here[at] not in barred:
                break
        here[at], there[to] = there[to], here[at]


def command_of(e: StoredEvent) -> Command:
    """The command a decision event records (its first event)."""
    kind, seat = e["type"], e["seat"]
    if kind == EventType.CARDS_PLAYED:
        return Play(seat, tuple(e["cards"]), e.get("target"))
    if kind == EventType.REACTION_PLAYED:
        return React(seat, e["card"])
    if kind == EventType.REACTION_DECLINED:
        return React(seat, None)
    if kind == EventType.CARD_BURNED:
        return Burn(seat, e["card"])
    return Discard(seat, tuple(sorted(e["cards"])))


def _options(state: GameState, seat: int, moves: list[Command], chosen: int) -> list[int]:
    """Indexes of the moves played out: the search bot's candidates, the normal bot's choice and
    the chosen one first, at most MAX_OPTIONS (discards: the least valuable cards first)."""
    assert state.awaiting is not None
    kind = state.awaiting.kind.value
    normal = moves.index(heuristic_move(kind, state.damage, seat, moves))
    rest = [i for i in candidates(moves) if i not in (chosen, normal)]
    if kind == "discard":
        rest.sort(key=lambda i: _kept_value(moves[i]))
    head = [chosen] if chosen == normal else [chosen, normal]
    return head + rest[: max(0, MAX_OPTIONS - len(head))]


def _kept_value(move: Command) -> int:
    return sum(KEEP_VALUE.get(c, 0) for c in move.cards) if isinstance(move, Discard) else 0


def judge(
    state: GameState, seat: int, chosen: Command, playouts: int, salt: str = "", step: int = 0
) -> dict[str, Any] | None:
    """The win chance of each option of `seat`'s decision in `state`, from its own view. None
    when it had no choice."""
    return _judge(state, seat, chosen, playouts, salt, step)[0]


def _judge(
    state: GameState,
    seat: int,
    chosen: Command,
    playouts: int,
    salt: str = "",
    step: int = 0,
    runner: Runner = play_moves,
) -> tuple[dict[str, Any] | None, float, float]:
    """`judge`, and what the choice did to the seat's own win chance: the chosen option's win
    share less the normal bot's (0 when they are one, or there was no choice), paired world by
    world. The normal bot plays every seat in the playouts, so its option's share is the seat's
    chance before it chose: the difference is the decision's part of its luck against skill (with
    its standard error)."""
    moves = legal_moves(state, seat)
    if len(moves) < 2 or chosen not in moves:
        return None, 0.0, 0.0
    view = view_for(state, seat)
    rng = _rng(salt, step, "decision", view)
    deal = dealer(view)
    order = _options(state, seat, moves, moves.index(chosen))
    results: list[list[int]] = [[] for _ in order]

    def play_worlds(count: int, playing: Sequence[int]) -> None:
        """`count` more worlds, each option of `playing` (indexes into `order`) played in each
        with the same luck after (common random numbers)."""
        for _ in range(count):
            w = deal(rng)
            if w is None:
                continue
            seed = rng.next()
            for j in playing:
                d = private_draft(w)
                sub = SplitMix64(seed)  # the same luck after every option in this world
                advance(d, moves[order[j]], sub.shuffle)
                results[j].append(1 if play_to_end(d, sub, runner) == seat else 0)

    play_worlds(playouts, range(len(order)))
    if not results[0]:
        return None, 0.0, 0.0
    best, drop, drop_se = _verdict(results, range(len(order)))
    # A second look where the label is in doubt: the chosen option and the two best after the
    # first look (the best one among them is the likeliest to be a lucky one) get more worlds,
    # a round of `playouts` at a time, until the label stands or EXTRA_ROUNDS are spent.
    top = sorted(range(1, len(order)), key=lambda j: (-sum(results[j]), j))[:EXTRA_OPTIONS]
    looked = [0, *top]
    rounds = 0
    while rounds < EXTRA_ROUNDS and _in_doubt(drop, drop_se):
        play_worlds(playouts, looked)
        rounds += 1
        best, drop, drop_se = _verdict(results, looked)
    means = [sum(r) / len(r) for r in results]
    # _options puts the normal bot's option second when it is not the chosen one.
    normal = 0 if chosen == heuristic_move(view["awaiting"]["kind"], state.damage, seat, moves) else 1
    judged = {
        "seat": seat,
        "kind": state.awaiting.kind.value if state.awaiting else "",
        "options": [
            {
                "command": _plain(moves[i]),
                "win": round(means[j], DIGITS),
                "se": round(_stderr(results[j]), DIGITS),
            }
            for j, i in enumerate(order)
        ],
        "chosen": 0,
        "best": best,
        "drop": round(drop, DIGITS),
        "se": round(drop_se, DIGITS),
        "label": label(drop, drop_se),
        "accuracy": round(decision_accuracy(drop, drop_se), 1),
    }
    shared = min(len(results[0]), len(results[normal]))  # the worlds both were played in
    gained = [c - m for c, m in zip(results[0][:shared], results[normal][:shared], strict=True)]
    return judged, sum(gained) / shared, _stderr(gained)


def _verdict(results: Sequence[Sequence[int]], among: Sequence[int]) -> tuple[int, float, float]:
    """The best of the options `among` (the chosen one is 0; a tie goes to it), the drop to it
    and the drop's standard error, from the worlds the best and the chosen option share."""
    means = [sum(r) / len(r) if r else 0.0 for r in results]
    best = max(among, key=lambda j: (means[j], -j))
    n = min(len(results[best]), len(results[0]))
    diffs = [b - c for b, c in zip(results[best][:n], results[0][:n], strict=True)]
    return best, sum(diffs) / n, _stderr(diffs)


def _in_doubt(drop: float, se: float) -> bool:
    """Whether one more standard error either way of the drop's lower bound (the drop less
    NOISE_SE standard errors) would change its label: it lies within DOUBT_SE of a threshold."""
    bound = drop - NOISE_SE * se
    return se > 0 and label_of(bound - DOUBT_SE * se) != label_of(bound + DOUBT_SE * se)


def _plain(command: Command) -> dict[str, Any]:
    """The command's JSON form with plain strings (no enum members), as stored."""
    out: dict[str, Any] = json.loads(json.dumps(command_to_dict(command)))
    return out


def _stderr(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    mean = sum(xs) / n
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)


def label(drop: float, se: float) -> str | None:
    """inaccuracy / mistake / blunder, or None: the highest band whose threshold (in points of
    win chance) the drop's lower bound reaches, the drop less NOISE_SE standard errors. So a
    label is one the estimate is confident of, and a drop near a threshold gets the weaker label
    in every run, rather than this label in one and that in the next."""
    return label_of(drop - NOISE_SE * se)


def label_of(bound: float) -> str | None:
    """The label of a drop known to be at least `bound` (a share of 1)."""
    points = 100 * bound
    for threshold, name in LABELS:
        if points >= threshold - 1e-9:
            return name
    return None


def decision_accuracy(drop: float, se: float) -> float:
    """100 for the best option, falling with the drop beyond noise (points above NOISE_SE
    standard errors): 100 · e^(−0.05 · points), so a 5-point drop scores 78, 15 points 47."""
    points = max(0.0, 100 * (drop - NOISE_SE * se))
    return 100 * math.exp(-0.05 * points)


def _settled(state: GameState, events: Sequence[StoredEvent], i: int) -> bool:
    """Whether the table after event `i` is one a person decides in (or the end): the next event
    starts a command or is about who holds a seat."""
    if state.result is not None:
        return True
    if state.awaiting is None:
        return False
    return (
        i + 1 >= len(events)
        or events[i + 1]["type"] in DECISION_EVENTS
        or events[i + 1]["type"] in SEAT_EVENTS
    )


def analyse(
    events: Sequence[StoredEvent],
    playouts: int = DEFAULT_PLAYOUTS,
    salt: str = "",
    progress: Progress | None = None,
    runner: Runner = play_moves,
) -> dict[str, Any]:
    """The analysis of a finished game's log (every event as stored, the deal first).

    `playouts`: worlds per step and per option (the budget); `salt`: the caller's name for the
    game, mixed into every seed; `runner`: how the playouts play their moves (`play_moves`, or
    `pure_moves`, `reference_moves`: the same moves, slower; see harehra/bots/playout.py). Raises NotFinished
    for a log that did not end in a win or draw.
    """
    if not events or events[-1]["type"] != EventType.GAME_ENDED:
        raise NotFinished("only a game that ended with a win or a draw is analysed")
    states: list[GameState] = []
    state: GameState | None = None
    for e in events:
        state = apply(state, e)
        states.append(state)
    players = states[0].players
    total = len(events)
    chances: list[list[float]] = [[] for _ in events]
    placings: list[list[float]] = [[] for _ in events]
    pending: list[int] = []
    decisions: list[dict[str, Any]] = []
    # Luck against skill (see `luck`): per seat, the change of its own win chance by its decisions
    # and by the cards it drew; what is left of its result is the other players' doing.
    by_decisions = [0.0] * players
    by_draws = [0.0] * players
    variance = [[0.0, 0.0] for _ in range(players)]  # of by_decisions and by_draws: the noise
    drawn: dict[int, list[str]] = {}  # seat -> the cards it drew since the table last settled
    out_at: dict[int, int] = {}  # seat -> the move it was eliminated at (placings.py's count)
    move = 0
    dealt = False
    final_places = [float(p) for p in outcome_from_log(events).places]
    for i, e in enumerate(events):
        kind = e["type"]
        if kind in _MOVE_STARTS:
            move += 1
        if kind == EventType.PLAYER_ELIMINATED:
            out_at[e["seat"]] = move
        elif kind == EventType.CARDS_DRAWN:
            drawn.setdefault(e["seat"], []).extend(e["cards"])
        if kind in DECISION_EVENTS and i > 0:
            before = states[i - 1]
            seat = e["seat"]
            if before.awaiting is not None and before.awaiting.seat == seat:
                judged, gained, se = _judge(before, seat, command_of(e), playouts, salt, i, runner)
                by_decisions[seat] += gained
                variance[seat][0] += se * se
                if judged is not None:
                    decisions.append({"step": i, **judged})
        pending.append(i)
        if _settled(states[i], events, i):
            if not dealt:  # the first table anyone decides at: the deal is seen
                dealt = True
                for s in range(players):
                    chance, se = _own_chance(states[i], s, DEAL_PLAYOUTS * playouts, salt, i, runner)
                    by_draws[s] += chance - 1 / players
                    variance[s][1] += se * se
                drawn.clear()  # the deal's own cards are counted just above
            for s, cards in sorted(drawn.items()):
                luck_of_draw, se = _draw_luck(states[i], s, cards, playouts, salt, i, runner)
                by_draws[s] += luck_of_draw
                variance[s][1] += se * se
            drawn.clear()
            now, places = public_estimate(states[i], playouts, salt, i, out_at, move, runner)
            if (
                states[i].result is not None
            ):  # the result: the site's own placings (an abandoned seat is last)
                places = final_places
            for j in pending:
                chances[j] = now
                placings[j] = places
            pending = []
        if progress is not None:
            progress(i + 1, total)
    for j in pending:  # never: the last event ends the game
        chances[j] = chances[pending[0] - 1] if pending[0] > 0 else [round(1 / players, DIGITS)] * players
        placings[j] = placings[pending[0] - 1] if pending[0] > 0 else [(players + 1) / 2] * players
    accuracy: list[float | None] = []
    for s in range(players):
        mine = [d["accuracy"] for d in decisions if d["seat"] == s]
        accuracy.append(round(sum(mine) / len(mine), 1) if mine else None)
    return {
        "version": ANALYSIS_VERSION,
        "playouts": playouts,
        "players": players,
        "chances": chances,
        "placings": placings,
        "decisions": decisions,
        "accuracy": accuracy,
        "luck": luck(chances[-1], by_decisions, by_draws),
        # The standard error of each part: decisions and draws add their estimates' variances;
        # others, what remains of the result, carries both.
        "luck_se": [
            {
                "decisions": round(math.sqrt(dv), DIGITS),
                "draws": round(math.sqrt(rv), DIGITS),
                "others": round(math.sqrt(dv + rv), DIGITS),
            }
            for dv, rv in variance
        ],
    }


def luck(
    result: Sequence[float], by_decisions: Sequence[float], by_draws: Sequence[float]
) -> list[dict[str, float]]:
    """Per seat, its result (1 won, 0 not) less the start 1/N, in three parts: its own decisions,
    its draws (the deal included), and the rest, which is the other players' decisions (and
    what else the seat could not see: their draws, which move its chance by nothing on average)."""
    n = len(result)
    out = []
    for s in range(n):
        decisions = round(by_decisions[s], DIGITS)
        draws = round(by_draws[s], DIGITS)
        others = round(result[s] - 1 / n - decisions - draws, DIGITS)
        out.append({"decisions": decisions, "draws": draws, "others": others})
    return out


def analysis_json(analysis: dict[str, Any]) -> str:
    """The analysis as canonical JSON: the bytes two runs are compared by and stored as."""
    return json.dumps(analysis, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
