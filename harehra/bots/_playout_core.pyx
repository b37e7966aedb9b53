# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled playout core: `play_moves`, the moves of harehra/bots/playout.py `pure_moves`
(the normal bot at every seat, `normal_move`) on a table of C arrays, with the draws of its
`SplitMix64`. The pure module is the specification; tests/engine/test_playout_core.py plays both
on thousands of tables and compares them move by move.

A card is its index in name order (so a sort by code is a sort by name); a seat's protection is a
bit; None is -1. The draft is read into the table, played on, and written back whole: the same
draft, and the generator's state, that `pure_moves` leaves.
"""

from libc.stdint cimport uint64_t

from harehra.bots.heuristic import KEEP_VALUE, PLAY_ORDER
from harehra.cards import ALL_CARDS
from harehra.state import DISCARD_DECISION, SKIP_DECISION, TURN_DECISION, VOLLEY_DECISION
from harehra.state import Awaiting, Result, Volley

cdef extern from *:
    ctypedef unsigned long long u128 "unsigned __int128"

cdef enum:
    SEATS = 8  # at most this many seats (the rules have 6)
    CAP = 256  # at most this many cards in any one hand or pile
    NCARDS = 8
    K_NONE = -1
    K_TURN = 0
    K_VOLLEY = 1
    K_SKIP = 2
    K_DISCARD = 3
    R_NONE = 0
    R_WIN = 1
    R_DRAW = 2

NAMES = tuple(sorted(ALL_CARDS))
assert len(NAMES) == NCARDS
cdef dict CODES = {name: i for i, name in enumerate(NAMES)}
cdef int C_CUMI = CODES["cumi"]
cdef int C_HOUSE = CODES["house"]
cdef int C_LEFT = CODES["left"]
cdef int C_RIGHT = CODES["right"]
cdef int C_STROM = CODES["strom"]
cdef int C_TAPTAP = CODES["taptap"]
cdef int C_ZADA = CODES["zada"]
cdef int KEEP[NCARDS]
cdef int ORDER[5]
cdef int _i
for _i in range(NCARDS):
    KEEP[_i] = KEEP_VALUE.get(NAMES[_i], 0)
assert len(PLAY_ORDER) == 5
for _i in range(5):
    ORDER[_i] = CODES[PLAY_ORDER[_i]]
cdef tuple KINDS = (TURN_DECISION, VOLLEY_DECISION, SKIP_DECISION, DISCARD_DECISION)
cdef tuple AWAITS = tuple(tuple(Awaiting(seat, kind) for seat in range(SEATS)) for kind in KINDS)


cdef struct Table:
    int n
    int hand_size
    int limit
    int turn_limit
    int hand[SEATS][CAP]
    int hlen[SEATS]
    int draw[CAP]
    int dhead
    int dlen
    int disc[CAP]
    int nd
    int damage[SEATS]
    int prot
    int direction
    int turn_seat
    long long turn_number
    int aw_seat
    int aw_kind
    int has_volley
    int v_att
    int v_tgt
    int v_cnt
    int skip_from
    int skipped
    int discard_count
    int result
    int winner
    long long dsv[SEATS]
    long long dss[SEATS]
    uint64_t rng


cdef inline uint64_t next64(uint64_t* state) noexcept nogil:
    cdef uint64_t z
    state[0] += 0x9E3779B97F4A7C15ULL
    z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline Py_ssize_t below(uint64_t* state, Py_ssize_t n) noexcept nogil:
    return <Py_ssize_t>((<u128>next64(state) * <u128>n) >> 64)


def shuffle(rng, cards):
    """harehra.bots.playout.pure_shuffle, compiled: `cards` in a new order, drawn from `rng`."""
    cdef list out = list(cards)
    cdef Py_ssize_t i, j
    cdef uint64_t state = rng.state
    for i in range(len(out) - 1, 0, -1):
        j = below(&state, i + 1)
        out[i], out[j] = out[j], out[i]
    rng.state = state
    return out


cdef inline int next_seat(Table* t, int seat) noexcept nogil:
    cdef int s = seat, k
    for k in range(t.n):
        s = (s + t.direction + t.n) % t.n
        if t.damage[s] < t.limit:
            return s
    return seat


cdef inline int holds(Table* t, int seat, int card) noexcept nogil:
    cdef int i
    for i in range(t.hlen[seat]):
        if t.hand[seat][i] == card:
            return 1
    return 0


cdef inline void remove_card(Table* t, int seat, int card) noexcept nogil:
    cdef int i, j, m = t.hlen[seat]
    for i in range(m):
        if t.hand[seat][i] == card:
            for j in range(i, m - 1):
                t.hand[seat][j] = t.hand[seat][j + 1]
            t.hlen[seat] = m - 1
            return


cdef inline void game_ended(Table* t, int result, int winner) noexcept nogil:
    t.result = result
    t.winner = winner
    t.aw_kind = K_NONE
    t.has_volley = 0


cdef void next_turn(Table* t) noexcept nogil:
    cdef int i, k, seat, most, excess
    cdef long long turn
    for i in range(t.n):
        if t.hlen[i] + t.damage[i] > t.hand_size:
            seat = t.turn_seat
            for k in range(t.n):
                most = t.hand_size - t.damage[seat]
                if most < 0:
                    most = 0
                excess = t.hlen[seat] - most
                if excess > 0:
                    t.aw_seat = seat
                    t.aw_kind = K_DISCARD
                    t.discard_count = excess
                    return
                seat = (seat + t.direction + t.n) % t.n
            break
    turn = t.turn_number + 1
    if turn > t.turn_limit:
        game_ended(t, R_DRAW, -1)
        return
    seat = next_seat(t, t.turn_seat if t.skipped < 0 else t.skipped)
    t.turn_seat = seat
    t.turn_number = turn
    t.prot &= ~(1 << seat)
    t.aw_seat = seat
    t.aw_kind = K_TURN
    t.skipped = -1
    t.has_volley = 0
    t.skip_from = -1


cdef void end_turn(Table* t) noexcept nogil:
    cdef int seat = t.turn_seat, need, got, i, j, m, c
    while True:
        need = t.hand_size - t.damage[seat] - t.hlen[seat]
        if need <= 0:
            break
        if t.dlen > 0:
            got = need if need < t.dlen else t.dlen
            for i in range(got):
                t.hand[seat][t.hlen[seat] + i] = t.draw[t.dhead + i]
            t.hlen[seat] += got
            t.dhead += got
            t.dlen -= got
            if t.dsv[seat] >= 0:
                t.dsv[seat] += got
            if t.dss[seat] >= 0:
                t.dss[seat] += got
        elif t.nd > 1:  # the discard pile but its top card, shuffled into the draw pile
            m = t.nd - 1
            for i in range(m):
                t.draw[i] = t.disc[i]
            for i in range(m - 1, 0, -1):
                j = <int>below(&t.rng, i + 1)
                c = t.draw[i]
                t.draw[i] = t.draw[j]
                t.draw[j] = c
            t.dhead = 0
            t.dlen = m
            t.disc[0] = t.disc[m]
            t.nd = 1
        else:
            break
    next_turn(t)


cdef void play_single(Table* t, int seat, int card) noexcept nogil:
    remove_card(t, seat, card)
    t.disc[t.nd] = card
    t.nd += 1
    t.aw_kind = K_NONE
    if card == C_STROM:
        t.skip_from = seat
        t.aw_seat = next_seat(t, seat)
        t.aw_kind = K_SKIP
        return
    if card == C_RIGHT or card == C_LEFT:
        t.direction = 1 if card == C_RIGHT else -1
        t.prot |= 1 << seat
    elif card == C_ZADA:
        if t.damage[seat] > 0:
            t.damage[seat] -= 1
    elif card == C_HOUSE:
        t.skipped = next_seat(t, seat)
        t.skip_from = -1
        t.prot |= 1 << t.skipped
    end_turn(t)


cdef inline int worse(int a, int b) noexcept nogil:
    """Whether card `a` is kept before card `b`: more valuable, or later by name among equals."""
    return KEEP[a] > KEEP[b] or (KEEP[a] == KEEP[b] and a > b)


cdef void turn(Table* t, int seat) noexcept nogil:
    cdef int i, x, target, most, count, card
    if t.damage[seat] >= 2 and holds(t, seat, C_ZADA):
        play_single(t, seat, C_ZADA)
        return
    if holds(t, seat, C_CUMI):
        target = -1
        most = -1
        for i in range(t.n):
            x = t.damage[i]
            if i != seat and x < t.limit and not (t.prot >> i) & 1 and x > most:
                target = i
                most = x
        if target >= 0:
            count = 0
            for i in range(t.hlen[seat]):
                if t.hand[seat][i] == C_CUMI:
                    count += 1
            for i in range(count):
                remove_card(t, seat, C_CUMI)
                t.disc[t.nd] = C_CUMI
                t.nd += 1
            t.has_volley = 1
            t.v_att = seat
            t.v_tgt = target
            t.v_cnt = count
            t.aw_seat = target
            t.aw_kind = K_VOLLEY
            return
    for i in range(5):
        if holds(t, seat, ORDER[i]):
            play_single(t, seat, ORDER[i])
            return
    if t.hlen[seat] > 0:  # burned: the least valuable card, the first by name among equals
        card = t.hand[seat][0]
        for i in range(1, t.hlen[seat]):
            if worse(card, t.hand[seat][i]):
                card = t.hand[seat][i]
        remove_card(t, seat, card)
        t.disc[t.nd] = card
        t.nd += 1
    t.aw_kind = K_NONE
    end_turn(t)


cdef void discard(Table* t, int seat) noexcept nogil:
    """The `discard_count` least valuable cards, the first by name among equals, discarded in
    name order (the normal bot's choice among the listed discards)."""
    cdef int ranked[CAP]
    cdef int m = t.hlen[seat], count = t.discard_count, i, j, c
    for i in range(m):  # insertion sort by (value, name)
        c = t.hand[seat][i]
        j = i
        while j > 0 and worse(ranked[j - 1], c):
            ranked[j] = ranked[j - 1]
            j -= 1
        ranked[j] = c
    if count > m:
        count = m
    for i in range(1, count):  # the chosen, by name
        c = ranked[i]
        j = i
        while j > 0 and ranked[j - 1] > c:
            ranked[j] = ranked[j - 1]
            j -= 1
        ranked[j] = c
    for i in range(count):
        remove_card(t, seat, ranked[i])
        t.disc[t.nd] = ranked[i]
        t.nd += 1
    t.aw_kind = K_NONE
    t.discard_count = 0
    next_turn(t)


cdef void answer_volley(Table* t, int seat) noexcept nogil:
    cdef int after, i, alive, last
    if holds(t, seat, C_TAPTAP):
        remove_card(t, seat, C_TAPTAP)
        t.disc[t.nd] = C_TAPTAP
        t.nd += 1
        t.aw_kind = K_NONE
        t.has_volley = 0
        end_turn(t)
        return
    after = t.damage[seat] + t.v_cnt
    if after > t.limit:
        after = t.limit
    t.dsv[seat] = 0
    t.aw_kind = K_NONE
    t.damage[seat] = after
    t.has_volley = 0
    if after >= t.limit:
        for i in range(t.hlen[seat]):
            t.disc[t.nd] = t.hand[seat][i]
            t.nd += 1
        t.hlen[seat] = 0
        t.prot &= ~(1 << seat)
        alive = 0
        last = -1
        for i in range(t.n):
            if t.damage[i] < t.limit:
                alive += 1
                last = i
        if alive == 1:
            game_ended(t, R_WIN, last)
            return
    end_turn(t)


cdef void normal_move(Table* t) noexcept nogil:
    cdef int seat = t.aw_seat, kind = t.aw_kind
    if kind == K_TURN:
        turn(t, seat)
    elif kind == K_SKIP:
        if holds(t, seat, C_STROM):
            remove_card(t, seat, C_STROM)
            t.disc[t.nd] = C_STROM
            t.nd += 1
            t.has_volley = 0
            t.skip_from = seat
            t.aw_seat = next_seat(t, seat)
            t.aw_kind = K_SKIP
        else:
            t.dss[seat] = 0
            t.skipped = seat
            t.aw_kind = K_NONE
            t.skip_from = -1
            end_turn(t)
    elif kind == K_DISCARD:
        discard(t, seat)
    else:
        answer_volley(t, seat)


cdef inline int optional(object value):
    return -1 if value is None else <int>value


cdef inline object maybe(int value):
    return None if value < 0 else value


cdef int load_cards(int* into, object cards, int at) except -2:
    """The codes of `cards` into `into` from `at`: how many, or -1 if they do not fit."""
    cdef Py_ssize_t i, m = len(cards)
    if at + m > CAP:
        return -1
    for i in range(m):
        into[at + i] = <int>CODES[cards[i]]
    return <int>m


cdef int load(Table* t, object d) except -2:
    """`d` read into `t`: 0, or -1 for a draft too large for the table (the pure core plays it)."""
    cdef int s, m, total = 0
    cdef object ruleset = d.ruleset
    cdef object awaiting = d.awaiting, volley = d.volley, kind
    t.n = d.players
    if t.n > SEATS:
        return -1
    t.hand_size = ruleset.hand_size
    t.limit = ruleset.max_damage
    t.turn_limit = ruleset.turn_limit
    hands = d.hands
    damage = d.damage
    protected = d.protected
    dsv = d.drawn_since_volley_taken
    dss = d.drawn_since_skip_taken
    t.prot = 0
    for s in range(t.n):
        m = load_cards(t.hand[s], hands[s], 0)
        if m < 0:
            return -1
        t.hlen[s] = m
        total += m
        t.damage[s] = damage[s]
        if s in protected:
            t.prot |= 1 << s
        t.dsv[s] = dsv[s]
        t.dss[s] = dss[s]
    m = load_cards(t.draw, d.draw_pile, 0)
    if m < 0:
        return -1
    t.dhead = 0
    t.dlen = m
    total += m
    m = load_cards(t.disc, d.discard_pile, 0)
    if m < 0:
        return -1
    t.nd = m
    total += m
    if total > CAP:  # every card could come to one hand or pile
        return -1
    t.direction = d.direction
    t.turn_seat = d.turn_seat
    t.turn_number = d.turn_number
    t.aw_seat = awaiting.seat
    kind = awaiting.kind
    t.aw_kind = (
        K_TURN if kind is TURN_DECISION else K_VOLLEY if kind is VOLLEY_DECISION
        else K_SKIP if kind is SKIP_DECISION else K_DISCARD
    )
    if volley is None:
        t.has_volley = 0
    else:
        t.has_volley = 1
        t.v_att = volley.attacker
        t.v_tgt = volley.target
        t.v_cnt = volley.count
    t.skip_from = optional(d.skip_from)
    t.skipped = optional(d.skipped)
    t.discard_count = d.discard_count
    t.result = R_NONE
    t.winner = -1
    return 0


cdef list names(int* cards, int m):
    cdef list out = [None] * m
    cdef int i
    for i in range(m):
        out[i] = NAMES[cards[i]]
    return out


cdef void store(Table* t, object d, object volley):
    cdef int s
    d.hands = [names(t.hand[s], t.hlen[s]) for s in range(t.n)]
    d.draw_pile = names(t.draw + t.dhead, t.dlen)
    d.discard_pile = names(t.disc, t.nd)
    d.damage = [t.damage[s] for s in range(t.n)]
    d.protected = {s for s in range(t.n) if (t.prot >> s) & 1}
    d.direction = t.direction
    d.turn_seat = t.turn_seat
    d.turn_number = t.turn_number
    d.awaiting = None if t.aw_kind == K_NONE else AWAITS[t.aw_kind][t.aw_seat]
    if not t.has_volley:
        d.volley = None
    elif volley is None or (volley.attacker, volley.target, volley.count) != (t.v_att, t.v_tgt, t.v_cnt):
        d.volley = Volley(t.v_att, t.v_tgt, t.v_cnt)
    d.skip_from = maybe(t.skip_from)
    d.skipped = maybe(t.skipped)
    d.discard_count = t.discard_count
    if t.result != R_NONE:
        d.result = Result.WIN if t.result == R_WIN else Result.DRAW
        d.winner = maybe(t.winner)
    d.drawn_since_volley_taken = [t.dsv[s] for s in range(t.n)]
    d.drawn_since_skip_taken = [t.dss[s] for s in range(t.n)]


def play_moves(d, rng, int max_moves):
    """harehra.bots.playout.pure_moves, compiled: up to `max_moves` moves of the normal bot on
    the private draft `d` with the generator `rng` (a SplitMix64); each seat's move put out at."""
    cdef Table t
    cdef int moves = 0, seat, kind
    cdef int out[SEATS]
    n = d.players
    if d.result is not None or d.awaiting is None or max_moves <= 0:
        return [0] * n
    if load(&t, d) < 0:
        from harehra.bots.playout import pure_moves

        return pure_moves(d, rng, max_moves)
    t.rng = rng.state
    for seat in range(t.n):
        out[seat] = 0
    with nogil:
        while moves < max_moves and t.result == R_NONE and t.aw_kind != K_NONE:
            seat = t.aw_seat
            kind = t.aw_kind
            normal_move(&t)
            moves += 1
            if kind == K_VOLLEY and t.damage[seat] >= t.limit:
                out[seat] = moves
    store(&t, d, d.volley)
    rng.state = t.rng
    return [out[s] for s in range(t.n)]
