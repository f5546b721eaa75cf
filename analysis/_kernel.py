"""The solver's search in plain Python over plain ints: the pure-Python path.

:mod:`analysis._ckernel` (``analysis/_ckernel.c``, built by setup.py) is the compiled path:
the same rules of play, function for function, and the same answers (tested); this module
runs where the install built no kernel, or with ``engine="python"``.
:mod:`analysis.solver` turns a :class:`replay.DealState` into the buffers.

A position is one row of ``W`` ints in a flat stack buffer (row ``d`` starts at ``d * W``);
the search copies a row to the next before applying a move, so nothing is undone. Each play
rule is one function that mirrors its ``_rule_*`` method in :mod:`replay.deal`.

Moves are card numbers 0..31 (``suit * 8 + place``, place 0 the jack) and ``SHOW`` (32).

>>> row = new_buffer(W * 2)
>>> popcount(0b1011), lowest_index(0b1000)
(3, 3)
"""

from __future__ import annotations

Ints = list[int]
"""A flat buffer of ints."""

# -- a position's row ------------------------------------------------------------------------
HELD = 0  # four hands as 32-bit masks, seats N E S W (0..3)
TO_PLAY = 4
LED = 5  # the suit led in the current trick, -1 before the lead
N_TRICK = 6  # cards on the table
TRICK_SEATS = 7  # four slots
TRICK_CARDS = 11  # four slots
TRUMP = 15  # 0..3, or 4 for no trump
REVERSE = 16  # ranks upside down once shown
SHOWN = 17
ASKER = 18
ASKER_MUST = 19  # the asker's card is still to come under the duty to trump
FACE_DOWN = 20  # the caller's face-down trump card, -1 if none
CALLER = 21  # the bidder (the face-down card is theirs)
SEVENTH = 22  # the trump was taken by the seventh card
SEVENTH_TURN = 23  # Pagat: the caller turned the seventh card up and must play it
SINGLE = 24  # the single-hand player, -1 if none
POINTS = 25  # two slots: NS, EW
TRICK_NO = 27  # finished tricks
OVER = 28  # the deal is over (played out, or decided)
TEAM = 29  # the caller's team (the value is its card points)
TARGET = 30
CALL = 31
PAIR_OPEN = 32  # a Pair may still come (rules have it, none shown yet, a trump suit)
W = 33

# -- the rules' row --------------------------------------------------------------------------
R_SHOW = 0  # 0 optional, 1 compulsory, 2 automatic
R_MUST_TRUMP = 1
R_MUST_OVERTRUMP = 2
R_PAGAT = 3  # seventh card in the Pagat form
R_END_DECIDED = 4
R_TOTAL = 5  # card points in play (28 + bonus)
R_BONUS = 6
R_PAIR_LOWERS_FROM = 7
R_PAIR_POINTS = 8
R_MIN_BID = 9
R_MAX_BID = 10
R_UNDER_HALF = 11
R_DIR = 12  # 1 clockwise, 3 counter-clockwise
R_GENERATION = 13  # which search the table's entries belong to (the table is reused)
RW = 14
GENERATIONS = 1 << 21  # then the table is cleared

SHOW_OPTIONAL = 0
SHOW_COMPULSORY = 1
SHOW_AUTOMATIC = 2
SHOW = 32  # the move "ask for (or show) the trump"
NO_SUIT = 4
MAX_MOVES = 20  # a row of the move buffer: up to 9 moves, then their scores
MAX_DEPTH = 40  # rows of the stack buffer: 32 cards and a show or two, plus the root
INFINITY = 99

CARD_POINTS = (3, 2, 1, 1, 0, 0, 0, 0) * 4
SUIT_MASK = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)
# (x & -x) % 37 is distinct for the 32 single bits: the index of the lowest bit.
_LOW_BIT = (
    -1, 0, 1, 26, 2, 23, 27, -1, 3, 16, 24, 30, 28, 11, -1, 13, 4, 7, 17, -1,
    25, 22, 31, 15, 29, 10, 12, 6, -1, 21, 14, 9, 5, 20, 8, 19, 18,
)  # fmt: skip
TT_BITS = 20
TT_SIZE = 1 << TT_BITS


def new_buffer(size: int) -> list[int]:
    """A zeroed buffer for the pure path."""
    return [0] * size


def popcount(x: int) -> int:
    """Number of set bits of a 32-bit mask."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


def lowest_index(x: int) -> int:
    """Index of the lowest set bit of a non-zero 32-bit mask."""
    return _LOW_BIT[(x & -x) % 37]


_BYTE_POINTS = tuple(
    3 * (i & 1) + 2 * (i >> 1 & 1) + (i >> 2 & 1) + (i >> 3 & 1) for i in range(256)
)  # the points of the cards of one suit, by the suit's byte of a mask


def mask_points(mask: int) -> int:
    """Card points of the cards in a mask."""
    return (
        _BYTE_POINTS[mask & 0xFF]
        + _BYTE_POINTS[(mask >> 8) & 0xFF]
        + _BYTE_POINTS[(mask >> 16) & 0xFF]
        + _BYTE_POINTS[(mask >> 24) & 0xFF]
    )


def team_of(seat: int) -> int:
    return seat & 1


# -- the rules of play, as in replay.deal ------------------------------------------------------
def face_down_mask(st: Ints, b: int, seat: int) -> int:
    """The caller's face-down card while it may not be played (``_face_down_mask``)."""
    fd = st[b + FACE_DOWN]
    if seat != st[b + CALLER] or fd < 0 or st[b + SHOWN]:
        return 0
    if popcount(st[b + HELD + seat]) <= 1:
        return 0
    return 1 << fd


def show_possible(st: Ints, b: int) -> bool:
    return st[b + SHOWN] == 0 and st[b + SINGLE] < 0 and st[b + LED] >= 0


def seventh_exempt(st: Ints, b: int, ru: Ints, seat: int) -> bool:
    return ru[R_PAGAT] != 0 and st[b + SEVENTH] != 0 and seat == st[b + CALLER]


def follows_first(st: Ints, b: int, seat: int, card: int) -> bool:
    """Following suit comes before the duties a show leaves (``_follows_first``)."""
    led = st[b + LED]
    if led < 0 or card >> 3 == led:
        return True
    fd = st[b + FACE_DOWN]
    fdm = (1 << fd) if fd >= 0 else 0
    return (st[b + HELD + seat] & SUIT_MASK[led] & ~fdm) != 0


def card_key(st: Ints, b: int, card: int, shown: int) -> int:
    """How strongly ``card`` stands in the current trick (0: it cannot win)."""
    trump = st[b + TRUMP] if shown and st[b + SINGLE] < 0 else -1
    place = card & 7
    strength = place if (shown and st[b + REVERSE]) else 7 - place
    suit = card >> 3
    if suit == trump:
        return 17 + strength
    if suit == st[b + LED]:
        return 1 + strength
    return 0


def winning(st: Ints, b: int, shown: int) -> int:
    """Slot (0..3) of the card winning the current trick so far, -1 for an empty trick."""
    best = -1
    best_key = 0
    for i in range(st[b + N_TRICK]):
        key = card_key(st, b, st[b + TRICK_CARDS + i], shown)
        if key > best_key:
            best_key = key
            best = i
    return best


def higher_trumps(st: Ints, b: int, card: int) -> int:
    suit = card >> 3
    place = card & 7
    if st[b + REVERSE]:
        return ((0xFF >> (place + 1)) << (place + 1)) << (suit * 8)
    return ((1 << place) - 1) << (suit * 8)


def asks_now(st: Ints, b: int, ru: Ints, seat: int) -> bool:
    """``seat`` plays under the asker's duty in this trick (``_asks_now``)."""
    if st[b + ASKER_MUST] and seat == st[b + ASKER]:
        return True
    if ru[R_SHOW] != SHOW_AUTOMATIC or not ru[R_MUST_TRUMP]:
        return False
    if not show_possible(st, b):
        return False
    led = st[b + LED]
    return (st[b + HELD + seat] & SUIT_MASK[led] & ~face_down_mask(st, b, seat)) == 0


def card_legal(st: Ints, b: int, ru: Ints, seat: int, card: int) -> bool:
    """A held card of the seat on turn breaks no rule (``_play_breach``)."""
    bit = 1 << card
    held = st[b + HELD + seat]
    fdm = face_down_mask(st, b, seat)
    if fdm & bit:
        return False
    led = st[b + LED]
    if led >= 0 and card >> 3 != led:
        if held & SUIT_MASK[led] & ~fdm:
            return False  # must follow
        if (
            ru[R_SHOW] == SHOW_COMPULSORY
            and show_possible(st, b)
            and not seventh_exempt(st, b, ru, seat)
        ):
            return False  # must ask first
    fd = st[b + FACE_DOWN]
    if (
        st[b + SEVENTH_TURN]
        and seat == st[b + CALLER]
        and fd >= 0
        and card != fd
        and not follows_first(st, b, seat, card)
    ):
        return False  # the turned-up seventh card is the card played
    trump = st[b + TRUMP]
    if 0 <= trump < 4 and asks_now(st, b, ru, seat) and not follows_first(st, b, seat, card):
        playable = held & ~fdm
        trumps = playable & SUIT_MASK[trump]
        if card >> 3 != trump:
            if trumps:
                return False  # must trump
        elif ru[R_MUST_OVERTRUMP]:
            slot = winning(st, b, 1)
            if slot >= 0:
                win_seat = st[b + TRICK_SEATS + slot]
                win_card = st[b + TRICK_CARDS + slot]
                if team_of(win_seat) != team_of(seat) and win_card >> 3 == trump:
                    higher = higher_trumps(st, b, win_card)
                    if (higher & playable) and not (higher & bit):
                        return False  # must beat the opponent's trump
    return True


def show_legal(st: Ints, b: int, ru: Ints) -> bool:
    """The seat on turn may ask for the trump (``_rule_show``)."""
    if ru[R_SHOW] == SHOW_AUTOMATIC or not show_possible(st, b):
        return False
    seat = st[b + TO_PLAY]
    led = st[b + LED]
    return (st[b + HELD + seat] & SUIT_MASK[led] & ~face_down_mask(st, b, seat)) == 0


def legal_moves(st: Ints, b: int, ru: Ints, out: Ints, o: int) -> int:
    """Write the legal moves at row ``b`` to ``out[o:]`` in the engine's order; their count."""
    seat = st[b + TO_PLAY]
    hand = st[b + HELD + seat]
    led = st[b + LED]
    fdm = face_down_mask(st, b, seat)
    if led < 0:
        hand &= ~fdm  # a lead: any card but the face-down one
    elif hand & SUIT_MASK[led] & ~fdm:
        hand &= SUIT_MASK[led] & ~fdm  # able to follow: any card of the suit, nothing else
    else:
        return _discards(st, b, ru, out, o)
    n = 0
    while hand:
        out[o + n] = lowest_index(hand)
        hand &= hand - 1
        n += 1
    return n


def _discards(st: Ints, b: int, ru: Ints, out: Ints, o: int) -> int:
    """The moves of a seat that cannot follow: every rule checked."""
    n = 0
    if show_legal(st, b, ru):
        out[o] = SHOW
        n = 1
    seat = st[b + TO_PLAY]
    hand = st[b + HELD + seat]
    while hand:
        card = lowest_index(hand)
        hand &= hand - 1
        if card_legal(st, b, ru, seat, card):
            out[o + n] = card
            n += 1
    return n


# -- applying a move ---------------------------------------------------------------------------
def pair_teams(st: Ints, b: int) -> int:
    """Teams that may still show the Pair, as bits (``_possible_pair_teams``)."""
    trump = st[b + TRUMP]
    king = 1 << (trump * 8 + 4)
    queen = 1 << (trump * 8 + 5)
    for seat in range(4):
        held = st[b + HELD + seat]
        if held & king and held & queen:
            return 1 << team_of(seat)
    return 0


def check_decided(st: Ints, b: int, ru: Ints) -> None:
    """After the show, end the deal once its result is fixed (``result_fixed(pairs=True)``)."""
    if not ru[R_END_DECIDED] or st[b + OVER] or not st[b + SHOWN] or st[b + SINGLE] >= 0:
        return
    team = team_of(st[b + CALLER])
    mine = st[b + POINTS + team]
    remaining = ru[R_TOTAL] - st[b + POINTS] - st[b + POINTS + 1]
    target = st[b + TARGET]
    lo = target
    hi = target
    if st[b + PAIR_OPEN]:
        teams = pair_teams(st, b)
        if teams >> team & 1 and st[b + CALL] >= ru[R_PAIR_LOWERS_FROM]:
            lo = max(ru[R_MIN_BID], target - ru[R_PAIR_POINTS])
        if teams >> (1 - team) & 1:
            hi = min(ru[R_MAX_BID], target + ru[R_PAIR_POINTS])
    if mine >= hi:
        st[b + OVER] = 1
    elif mine + remaining < lo:
        call = st[b + CALL]
        if not (ru[R_UNDER_HALF] and mine * 2 < call <= (mine + remaining) * 2):
            st[b + OVER] = 1


def reveal(st: Ints, b: int, ru: Ints, seat: int) -> None:
    """The trump is shown in the current trick (``_reveal``)."""
    st[b + SHOWN] = 1
    st[b + ASKER] = seat
    st[b + ASKER_MUST] = ru[R_MUST_TRUMP]
    st[b + SEVENTH_TURN] = 1 if (seventh_exempt(st, b, ru, seat) and st[b + FACE_DOWN] >= 0) else 0


def end_trick(st: Ints, b: int, ru: Ints) -> None:
    """The trick's last card is down: credit its winner (``_end_trick`` and ``_credit``)."""
    n = st[b + N_TRICK]
    slot = winning(st, b, st[b + SHOWN])
    winner = st[b + TRICK_SEATS + slot]
    points = 0
    for i in range(n):
        points += CARD_POINTS[st[b + TRICK_CARDS + i]]
    st[b + N_TRICK] = 0
    st[b + LED] = -1
    st[b + ASKER_MUST] = 0
    number = st[b + TRICK_NO] + 1
    st[b + TRICK_NO] = number
    if number == 8:
        points += ru[R_BONUS]
    st[b + POINTS + team_of(winner)] += points
    st[b + TO_PLAY] = winner
    single = st[b + SINGLE]
    if single >= 0 and winner != single:
        st[b + OVER] = 1
    if number >= 8:
        st[b + OVER] = 1
        return
    if st[b + SHOWN]:
        check_decided(st, b, ru)


def apply_move(st: Ints, b: int, ru: Ints, move: int) -> None:
    """Play ``move`` for the seat on turn at row ``b`` (``_on_show`` and ``_on_play``)."""
    seat = st[b + TO_PLAY]
    if move == SHOW:
        reveal(st, b, ru, seat)
        check_decided(st, b, ru)
        return
    card = move
    led = st[b + LED]
    if led >= 0 and card >> 3 != led and ru[R_SHOW] == SHOW_AUTOMATIC and show_possible(st, b):
        reveal(st, b, ru, seat)
        check_decided(st, b, ru)
    if st[b + ASKER_MUST] and seat == st[b + ASKER]:
        st[b + ASKER_MUST] = 0
    if seat == st[b + CALLER]:
        st[b + SEVENTH_TURN] = 0
    st[b + HELD + seat] ^= 1 << card
    if card == st[b + FACE_DOWN] and seat == st[b + CALLER] and not st[b + SHOWN]:
        st[b + FACE_DOWN] = -1
    if led < 0:
        st[b + LED] = card >> 3
    n = st[b + N_TRICK]
    st[b + TRICK_SEATS + n] = seat
    st[b + TRICK_CARDS + n] = card
    n += 1
    st[b + N_TRICK] = n
    single = st[b + SINGLE]
    if n >= (3 if single >= 0 else 4):
        end_trick(st, b, ru)
        return
    if st[b + SHOWN]:
        check_decided(st, b, ru)
    step = ru[R_DIR]
    nxt = (seat + step) & 3
    while True:
        taken = single >= 0 and nxt == ((single + 2) & 3)
        for i in range(n):
            if st[b + TRICK_SEATS + i] == nxt:
                taken = True
        if not taken:
            break
        nxt = (nxt + step) & 3
    st[b + TO_PLAY] = nxt


# -- the search --------------------------------------------------------------------------------
def copy_row(st: Ints, src: int, dst: int) -> None:
    for i in range(W):
        st[dst + i] = st[src + i]


def live_cards(st: Ints, b: int) -> int:
    """Cards still in a hand or on the table."""
    live = st[b + HELD] | st[b + HELD + 1] | st[b + HELD + 2] | st[b + HELD + 3]
    for i in range(st[b + N_TRICK]):
        live |= 1 << st[b + TRICK_CARDS + i]
    return live


def equivalent(st: Ints, b: int, live: int, low: int, high: int) -> bool:
    """Cards ``low`` < ``high`` of one hand play alike: same suit and points, no live card
    between them, neither the face-down card nor a Pair card while a Pair may come."""
    if low >> 3 != high >> 3 or CARD_POINTS[low] != CARD_POINTS[high]:
        return False
    between = ((1 << high) - 1) & ~((2 << low) - 1)
    if live & between:
        return False
    fd = st[b + FACE_DOWN]
    if fd in (low, high):
        return False
    if st[b + PAIR_OPEN]:
        trump = st[b + TRUMP]
        if low >> 3 == trump and ((low & 7) == 4 or (low & 7) == 5):
            return False
        if high >> 3 == trump and ((high & 7) == 4 or (high & 7) == 5):
            return False
    return True


def sure_trumps(st: Ints, b: int, table_counted: int) -> int:
    """After the show: the points one side takes whatever happens, from the run of top
    trumps it holds (each wins its trick, or falls to its partner's; a run card on the table
    wins this trick, with all its points), as ``points << 2 | side << 1 | 1``; 0 when no side
    holds the top trump.

    Only where every card is played (no early end): the run's cards are still to come. With
    ``table_counted`` the points on the table are credited already (:func:`trick_taken`)."""
    trump = st[b + TRUMP]
    table = 0
    table_points = 0
    side_one = st[b + HELD + 1] | st[b + HELD + 3]  # the cards of seats E and W
    for i in range(st[b + N_TRICK]):
        card = st[b + TRICK_CARDS + i]
        table |= 1 << card
        if team_of(st[b + TRICK_SEATS + i]):
            side_one |= 1 << card
        table_points += CARD_POINTS[card]
    trumps = (live_cards(st, b)) & SUIT_MASK[trump]
    if trumps == 0:
        return 0
    side = -1
    points = 0
    for step in range(8):
        place = 7 - step if st[b + REVERSE] else step
        bit = 1 << (trump * 8 + place)
        if not trumps & bit:
            continue  # played in an earlier trick
        team = 1 if side_one & bit else 0
        if side < 0:
            side = team
        elif team != side:
            break
        if not table & bit:
            points += CARD_POINTS[trump * 8 + place]
        elif not table_counted:
            points += table_points  # the trick it is on, all its points
            table_points = 0
    return points << 2 | side << 1 | 1


def top_trumps(st: Ints, b: int, live: int, side_one: int) -> int:
    """Between tricks after the show, where every card is played: the points of the run of
    top trumps one side holds among the ``live`` cards (each takes its trick, or falls to
    its partner's), as ``points << 2 | side << 1 | 1``; 0 when no trump is left.
    ``side_one`` holds the cards of seats E and W. :func:`sure_trumps` inside a trick."""
    trump = st[b + TRUMP]
    if trump >= NO_SUIT or live & SUIT_MASK[trump] == 0:
        return 0
    side = -1
    points = 0
    for step in range(8):
        card = trump * 8 + (7 - step if st[b + REVERSE] else step)
        if not live >> card & 1:
            continue
        team = side_one >> card & 1
        if side < 0:
            side = team
        elif team != side:
            break
        points += CARD_POINTS[card]
    return points << 2 | side << 1 | 1


def trick_taken(st: Ints, b: int) -> int:
    """After the show, inside a trick: 1 + the side whose card wins the trick whatever the
    seats still to play hold (no opponent to come has a card that beats it), else 0."""
    slot = winning(st, b, 1)
    card = st[b + TRICK_CARDS + slot]
    side = team_of(st[b + TRICK_SEATS + slot])
    trump = st[b + TRUMP]
    beats = higher_trumps(st, b, card)  # higher in its suit, as the shown ranks go
    if card >> 3 != trump:
        beats |= SUIT_MASK[trump]
    to_come = 0
    for seat in range(4):
        if team_of(seat) != side:
            to_come |= st[b + HELD + seat]
    for i in range(st[b + N_TRICK]):
        seat = st[b + TRICK_SEATS + i]
        if team_of(seat) != side:
            to_come &= ~st[b + HELD + seat]  # played already
    return 0 if to_come & beats else side + 1


def last_trick(st: Ints, b: int, ru: Ints, team: int) -> int:
    """After the show, at the last trick's lead: the points ``team`` takes from it (every
    card is forced, one a hand; no show is left to make)."""
    leader = st[b + TO_PLAY]
    led = lowest_index(st[b + HELD + leader]) >> 3
    trump = st[b + TRUMP] if st[b + SINGLE] < 0 else -1
    points = ru[R_BONUS]
    best_key = -1
    winner = leader
    for seat in range(4):
        held = st[b + HELD + seat]
        if held == 0:
            continue  # the partner of a single hand sits out
        card = lowest_index(held)
        points += CARD_POINTS[card]
        place = card & 7
        rank = place if st[b + REVERSE] else 7 - place
        key = 17 + rank if card >> 3 == trump else (1 + rank if card >> 3 == led else 0)
        if key > best_key:
            best_key = key
            winner = seat
    return points if team_of(winner) == team else 0


def trick_key(st: Ints, b: int, card: int, led: int) -> int:
    """After the show: how strongly ``card`` stands in a trick led in suit ``led``."""
    place = card & 7
    rank = place if st[b + REVERSE] else 7 - place
    if card >> 3 == st[b + TRUMP]:
        return 17 + rank
    return 1 + rank if card >> 3 == led else 0


def follow(hand: int, led: int) -> int:
    """The cards of ``hand`` that may be played to a trick led in ``led``, after the show
    trick (follow suit, nothing else)."""
    suit = hand & SUIT_MASK[led]
    return suit if suit else hand


def distinct_cards(hand: int, live: int) -> int:
    """The cards of ``hand`` that play differently in the plain loops: of each run of
    cards of one suit that score alike with no other live card between them, the first.

    >>> bin(distinct_cards(0b1011_0000, 0b1111_0000))  # K, Q, 7 held, the 8 elsewhere
    '0b10010000'
    """
    out = 0
    prev = -1
    rest = hand
    while rest:
        card = lowest_index(rest)
        rest &= rest - 1
        if (
            prev < 0
            or prev >> 3 != card >> 3
            or CARD_POINTS[prev] != CARD_POINTS[card]
            or live & ((1 << card) - 1) & ~((2 << prev) - 1)
        ):
            out |= 1 << card
        prev = card
    return out


def next_card(left: int, first: int) -> int:
    """The card of ``left`` to try next in the plain loops: those of ``first`` (a mask)
    before the rest."""
    preferred = left & first
    return lowest_index(preferred if preferred else left)


def hand_of(seat: int, north: int, east: int, south: int, west: int) -> int:
    if seat == 0:
        return north
    if seat == 1:
        return east
    return south if seat == 2 else west


def trick_winner(st: Ints, b: int, ru: Ints, seat0: int, c0: int, c1: int, c2: int, c3: int) -> int:
    """After the show: the seat that takes the trick ``c0`` to ``c3`` led by ``seat0``."""
    led = c0 >> 3
    win = 0
    best_key = trick_key(st, b, c0, led)
    key = trick_key(st, b, c1, led)
    if key > best_key:
        best_key = key
        win = 1
    key = trick_key(st, b, c2, led)
    if key > best_key:
        best_key = key
        win = 2
    if trick_key(st, b, c3, led) > best_key:
        win = 3
    return (seat0 + win * ru[R_DIR]) & 3


def trick_points(
    st: Ints, b: int, ru: Ints, team: int, seat0: int, c0: int, c1: int, c2: int, c3: int
) -> int:
    """After the show: 1 + the seat that takes the trick ``c0`` to ``c3`` led by
    ``seat0``, times 64, plus the points of the trick that go to ``team``."""
    winner = trick_winner(st, b, ru, seat0, c0, c1, c2, c3)
    points = CARD_POINTS[c0] + CARD_POINTS[c1] + CARD_POINTS[c2] + CARD_POINTS[c3]
    return (winner + 1) * 64 + (points if team_of(winner) == team else 0)


def two_tricks(
    st: Ints,
    b: int,
    ru: Ints,
    team: int,
    seat0: int,
    north: int,
    east: int,
    south: int,
    west: int,
    alpha: int,
    beta: int,
) -> int:
    """After the show trick, at the lead of the last two tricks (``seat0`` to lead, the
    hands given by seat): the points ``team`` takes from them with best play, fail-soft
    within (alpha, beta) as :func:`search`, by trying the lines of the next trick (at most
    16) with alpha-beta; the last is forced. From the trick after the show on, the only
    rule left is to follow suit."""
    live = north | east | south | west
    most = mask_points(live) + ru[R_BONUS]
    if most <= alpha:
        return most  # all that is left cannot reach the window: a quarter of the calls
    if beta <= 0:
        return 0
    step = ru[R_DIR]
    seat1 = (seat0 + step) & 3
    seat2 = (seat1 + step) & 3
    seat3 = (seat2 + step) & 3
    hand1 = distinct_cards(hand_of(seat1, north, east, south, west), live)
    hand2 = distinct_cards(hand_of(seat2, north, east, south, west), live)
    hand3 = distinct_cards(hand_of(seat3, north, east, south, west), live)
    max0 = team_of(seat0) == team
    max1 = not max0
    best0 = -INFINITY if max0 else INFINITY
    low0 = alpha
    high0 = beta
    left0 = distinct_cards(hand_of(seat0, north, east, south, west), live)
    while left0 and low0 < high0:
        card0 = lowest_index(left0)
        left0 &= left0 - 1
        led = card0 >> 3
        best1 = -INFINITY if max1 else INFINITY
        low1 = low0
        high1 = high0
        left1 = follow(hand1, led)
        while left1 and low1 < high1:
            card1 = lowest_index(left1)
            left1 &= left1 - 1
            best2 = -INFINITY if max0 else INFINITY  # seat2 is seat0's partner
            low2 = low1
            high2 = high1
            left2 = follow(hand2, led)
            while left2 and low2 < high2:
                card2 = lowest_index(left2)
                left2 &= left2 - 1
                best3 = -INFINITY if max1 else INFINITY
                low3 = low2
                high3 = high2
                left3 = follow(hand3, led)
                while left3 and low3 < high3:
                    card3 = lowest_index(left3)
                    left3 &= left3 - 1
                    won = trick_points(st, b, ru, team, seat0, card0, card1, card2, card3)
                    # the last trick: one card a hand, led by the winner
                    leader = (won >> 6) - 1
                    played = (1 << card0) | (1 << card1) | (1 << card2) | (1 << card3)
                    c0 = lowest_index(hand_of(leader, north, east, south, west) & ~played)
                    c1 = lowest_index(
                        hand_of((leader + step) & 3, north, east, south, west) & ~played
                    )
                    c2 = lowest_index(
                        hand_of((leader + 2 * step) & 3, north, east, south, west) & ~played
                    )
                    c3 = lowest_index(
                        hand_of((leader + 3 * step) & 3, north, east, south, west) & ~played
                    )
                    last = trick_points(st, b, ru, team, leader, c0, c1, c2, c3)
                    value = (won & 63) + (last & 63)
                    if team_of((last >> 6) - 1) == team:
                        value += ru[R_BONUS]
                    if max1:
                        best3 = max(best3, value)
                        low3 = max(low3, value)
                    else:
                        best3 = min(best3, value)
                        high3 = min(high3, value)
                if max0:
                    best2 = max(best2, best3)
                    low2 = max(low2, best3)
                else:
                    best2 = min(best2, best3)
                    high2 = min(high2, best3)
            if max1:
                best1 = max(best1, best2)
                low1 = max(low1, best2)
            else:
                best1 = min(best1, best2)
                high1 = min(high1, best2)
        if max0:
            best0 = max(best0, best1)
            low0 = max(low0, best1)
        else:
            best0 = min(best0, best1)
            high0 = min(high0, best1)
    return best0


def three_tricks(
    st: Ints,
    b: int,
    ru: Ints,
    team: int,
    seat0: int,
    north: int,
    east: int,
    south: int,
    west: int,
    alpha: int,
    beta: int,
    first: int,
) -> int:
    """After the show trick, at the lead of the last three tricks: the points ``team``
    takes from them with best play, fail-soft within (alpha, beta) as :func:`search`; every
    line of the next trick (alpha-beta), then :func:`two_tricks`."""
    step = ru[R_DIR]
    seat1 = (seat0 + step) & 3
    seat2 = (seat1 + step) & 3
    seat3 = (seat2 + step) & 3
    max0 = team_of(seat0) == team
    max1 = not max0
    trumps = SUIT_MASK[st[b + TRUMP]] if st[b + TRUMP] < NO_SUIT else 0
    live = north | east | south | west
    hand1 = distinct_cards(hand_of(seat1, north, east, south, west), live)
    hand2 = distinct_cards(hand_of(seat2, north, east, south, west), live)
    hand3 = distinct_cards(hand_of(seat3, north, east, south, west), live)
    best0 = -INFINITY if max0 else INFINITY
    best_lead = -1
    low0 = alpha
    high0 = beta
    left0 = distinct_cards(hand_of(seat0, north, east, south, west), live)
    while left0 and low0 < high0:
        card0 = next_card(left0, first)
        left0 &= ~(1 << card0)
        led = card0 >> 3
        best1 = -INFINITY if max1 else INFINITY
        low1 = low0
        high1 = high0
        left1 = follow(hand1, led)
        while left1 and low1 < high1:
            card1 = next_card(left1, trumps)
            left1 &= ~(1 << card1)
            best2 = -INFINITY if max0 else INFINITY
            low2 = low1
            high2 = high1
            left2 = follow(hand2, led)
            while left2 and low2 < high2:
                card2 = next_card(left2, trumps)
                left2 &= ~(1 << card2)
                best3 = -INFINITY if max1 else INFINITY
                low3 = low2
                high3 = high2
                left3 = follow(hand3, led)
                while left3 and low3 < high3:
                    card3 = next_card(left3, trumps)
                    left3 &= ~(1 << card3)
                    won = trick_points(st, b, ru, team, seat0, card0, card1, card2, card3)
                    played = ~((1 << card0) | (1 << card1) | (1 << card2) | (1 << card3))
                    value = (won & 63) + two_tricks(
                        st,
                        b,
                        ru,
                        team,
                        (won >> 6) - 1,
                        north & played,
                        east & played,
                        south & played,
                        west & played,
                        low3 - (won & 63),
                        high3 - (won & 63),
                    )
                    if max1:
                        best3 = max(best3, value)
                        low3 = max(low3, value)
                    else:
                        best3 = min(best3, value)
                        high3 = min(high3, value)
                if max0:
                    best2 = max(best2, best3)
                    low2 = max(low2, best3)
                else:
                    best2 = min(best2, best3)
                    high2 = min(high2, best3)
            if max1:
                best1 = max(best1, best2)
                low1 = max(low1, best2)
            else:
                best1 = min(best1, best2)
                high1 = min(high1, best2)
        if best_lead < 0 or (best1 > best0 if max0 else best1 < best0):
            best_lead = card0
        if max0:
            best0 = max(best0, best1)
            low0 = max(low0, best1)
        else:
            best0 = min(best0, best1)
            high0 = min(high0, best1)
    return best0 << 6 | best_lead


def four_tricks(
    st: Ints,
    b: int,
    ru: Ints,
    tt: Ints,
    team: int,
    seat0: int,
    north: int,
    east: int,
    south: int,
    west: int,
    alpha: int,
    beta: int,
    first: int,
) -> int:
    """After the show trick, at the lead of the last four tricks: as :func:`three_tricks`,
    the next trick's lines by alpha-beta, then the last three through the table
    (:func:`after_trick`)."""
    step = ru[R_DIR]
    seat1 = (seat0 + step) & 3
    seat2 = (seat1 + step) & 3
    seat3 = (seat2 + step) & 3
    max0 = team_of(seat0) == team
    max1 = not max0
    trumps = SUIT_MASK[st[b + TRUMP]] if st[b + TRUMP] < NO_SUIT else 0
    live = north | east | south | west
    hand1 = distinct_cards(hand_of(seat1, north, east, south, west), live)
    hand2 = distinct_cards(hand_of(seat2, north, east, south, west), live)
    hand3 = distinct_cards(hand_of(seat3, north, east, south, west), live)
    best0 = -INFINITY if max0 else INFINITY
    best_lead = -1
    low0 = alpha
    high0 = beta
    left0 = distinct_cards(hand_of(seat0, north, east, south, west), live)
    while left0 and low0 < high0:
        card0 = next_card(left0, first)
        left0 &= ~(1 << card0)
        led = card0 >> 3
        best1 = -INFINITY if max1 else INFINITY
        low1 = low0
        high1 = high0
        left1 = follow(hand1, led)
        while left1 and low1 < high1:
            card1 = next_card(left1, trumps)
            left1 &= ~(1 << card1)
            best2 = -INFINITY if max0 else INFINITY
            low2 = low1
            high2 = high1
            left2 = follow(hand2, led)
            while left2 and low2 < high2:
                card2 = next_card(left2, trumps)
                left2 &= ~(1 << card2)
                best3 = -INFINITY if max1 else INFINITY
                low3 = low2
                high3 = high2
                left3 = follow(hand3, led)
                while left3 and low3 < high3:
                    card3 = next_card(left3, trumps)
                    left3 &= ~(1 << card3)
                    won = trick_points(st, b, ru, team, seat0, card0, card1, card2, card3)
                    played = ~((1 << card0) | (1 << card1) | (1 << card2) | (1 << card3))
                    value = (won & 63) + after_trick(
                        st,
                        b,
                        ru,
                        tt,
                        team,
                        (won >> 6) - 1,
                        north & played,
                        east & played,
                        south & played,
                        west & played,
                        low3 - (won & 63),
                        high3 - (won & 63),
                    )
                    if max1:
                        best3 = max(best3, value)
                        low3 = max(low3, value)
                    else:
                        best3 = min(best3, value)
                        high3 = min(high3, value)
                if max0:
                    best2 = max(best2, best3)
                    low2 = max(low2, best3)
                else:
                    best2 = min(best2, best3)
                    high2 = min(high2, best3)
            if max1:
                best1 = max(best1, best2)
                low1 = max(low1, best2)
            else:
                best1 = min(best1, best2)
                high1 = min(high1, best2)
        if best_lead < 0 or (best1 > best0 if max0 else best1 < best0):
            best_lead = card0
        if max0:
            best0 = max(best0, best1)
            low0 = max(low0, best1)
        else:
            best0 = min(best0, best1)
            high0 = min(high0, best1)
    return best0 << 6 | best_lead


def five_tricks(
    st: Ints,
    b: int,
    ru: Ints,
    tt: Ints,
    team: int,
    seat0: int,
    north: int,
    east: int,
    south: int,
    west: int,
    alpha: int,
    beta: int,
    first: int,
) -> int:
    """After the show trick, at the lead of the last five tricks: as :func:`four_tricks`,
    the next trick's lines by alpha-beta, then the last four through the table
    (:func:`after_four`)."""
    step = ru[R_DIR]
    seat1 = (seat0 + step) & 3
    seat2 = (seat1 + step) & 3
    seat3 = (seat2 + step) & 3
    max0 = team_of(seat0) == team
    max1 = not max0
    trumps = SUIT_MASK[st[b + TRUMP]] if st[b + TRUMP] < NO_SUIT else 0
    live = north | east | south | west
    hand1 = distinct_cards(hand_of(seat1, north, east, south, west), live)
    hand2 = distinct_cards(hand_of(seat2, north, east, south, west), live)
    hand3 = distinct_cards(hand_of(seat3, north, east, south, west), live)
    best0 = -INFINITY if max0 else INFINITY
    best_lead = -1
    low0 = alpha
    high0 = beta
    left0 = distinct_cards(hand_of(seat0, north, east, south, west), live)
    while left0 and low0 < high0:
        card0 = next_card(left0, first)
        left0 &= ~(1 << card0)
        led = card0 >> 3
        best1 = -INFINITY if max1 else INFINITY
        low1 = low0
        high1 = high0
        left1 = follow(hand1, led)
        while left1 and low1 < high1:
            card1 = next_card(left1, trumps)
            left1 &= ~(1 << card1)
            best2 = -INFINITY if max0 else INFINITY
            low2 = low1
            high2 = high1
            left2 = follow(hand2, led)
            while left2 and low2 < high2:
                card2 = next_card(left2, trumps)
                left2 &= ~(1 << card2)
                best3 = -INFINITY if max1 else INFINITY
                low3 = low2
                high3 = high2
                left3 = follow(hand3, led)
                while left3 and low3 < high3:
                    card3 = next_card(left3, trumps)
                    left3 &= ~(1 << card3)
                    won = trick_points(st, b, ru, team, seat0, card0, card1, card2, card3)
                    played = ~((1 << card0) | (1 << card1) | (1 << card2) | (1 << card3))
                    value = (won & 63) + after_four(
                        st,
                        b,
                        ru,
                        tt,
                        team,
                        (won >> 6) - 1,
                        north & played,
                        east & played,
                        south & played,
                        west & played,
                        low3 - (won & 63),
                        high3 - (won & 63),
                    )
                    if max1:
                        best3 = max(best3, value)
                        low3 = max(low3, value)
                    else:
                        best3 = min(best3, value)
                        high3 = min(high3, value)
                if max0:
                    best2 = max(best2, best3)
                    low2 = max(low2, best3)
                else:
                    best2 = min(best2, best3)
                    high2 = min(high2, best3)
            if max1:
                best1 = max(best1, best2)
                low1 = max(low1, best2)
            else:
                best1 = min(best1, best2)
                high1 = min(high1, best2)
        if best_lead < 0 or (best1 > best0 if max0 else best1 < best0):
            best_lead = card0
        if max0:
            best0 = max(best0, best1)
            low0 = max(low0, best1)
        else:
            best0 = min(best0, best1)
            high0 = min(high0, best1)
    return best0 << 6 | best_lead


def after_trick(
    st: Ints,
    b: int,
    ru: Ints,
    tt: Ints,
    team: int,
    seat0: int,
    north: int,
    east: int,
    south: int,
    west: int,
    alpha: int,
    beta: int,
) -> int:
    """:func:`three_tricks` through the transposition table (the key :func:`tt_key` gives
    that position after the show; no early end), after the quick bounds of the top trumps
    (:func:`top_trumps`)."""
    live = north | east | south | west
    least = 0
    most = mask_points(live) + ru[R_BONUS]
    sure = top_trumps(st, b, live, east | west)
    if sure > 0:
        if sure >> 1 & 1 == team:
            least = sure >> 2
        else:
            most -= sure >> 2
    if least >= beta or least == most:
        return least
    if most <= alpha:
        return most
    mask, owners = canonical_cards(north, east, south, west)
    key = ((mask | seat0 << 32 | 1 << 34) + 1) | (ru[R_GENERATION] << 41)
    slot = tt_lookup(tt, key, owners)
    if slot >= 0:
        lo = tt[slot + T_LOW]
        hi = tt[slot + T_HIGH]
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha = max(alpha, lo)
        beta = min(beta, hi)
    first = 0
    if slot >= 0 and tt[slot + T_MOVE] >= 0:
        first = 1 << tt[slot + T_MOVE]
    found = three_tricks(st, b, ru, team, seat0, north, east, south, west, alpha, beta, first)
    value = found >> 6
    tt_store(tt, key, owners, value, 0, alpha, beta, found & 63)
    return value


def after_four(
    st: Ints,
    b: int,
    ru: Ints,
    tt: Ints,
    team: int,
    seat0: int,
    north: int,
    east: int,
    south: int,
    west: int,
    alpha: int,
    beta: int,
) -> int:
    """:func:`four_tricks` through the transposition table (the key :func:`tt_key` gives
    that position after the show; no early end), after the quick bounds of the top trumps
    (:func:`top_trumps`)."""
    live = north | east | south | west
    least = 0
    most = mask_points(live) + ru[R_BONUS]
    sure = top_trumps(st, b, live, east | west)
    if sure > 0:
        if sure >> 1 & 1 == team:
            least = sure >> 2
        else:
            most -= sure >> 2
    if least >= beta or least == most:
        return least
    if most <= alpha:
        return most
    mask, owners = canonical_cards(north, east, south, west)
    key = ((mask | seat0 << 32 | 1 << 34) + 1) | (ru[R_GENERATION] << 41)
    slot = tt_lookup(tt, key, owners)
    if slot >= 0:
        lo = tt[slot + T_LOW]
        hi = tt[slot + T_HIGH]
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha = max(alpha, lo)
        beta = min(beta, hi)
    first = 0
    if slot >= 0 and tt[slot + T_MOVE] >= 0:
        first = 1 << tt[slot + T_MOVE]
    found = four_tricks(st, b, ru, tt, team, seat0, north, east, south, west, alpha, beta, first)
    value = found >> 6
    tt_store(tt, key, owners, value, 0, alpha, beta, found & 63)
    return value


def tt_store(
    tt: Ints, key: int, owners: int, best: int, mine: int, low: int, high: int, move: int
) -> None:
    """Keep at ``key`` and ``owners`` what a search within (low, high) found, ``best``
    (fail-soft), as bounds of the points still to come."""
    slot = tt_place(tt, key, owners)
    lo = 0
    hi = INFINITY
    if tt[slot + T_KEY] == key and tt[slot + T_OWNERS] == owners:
        lo = tt[slot + T_LOW]
        hi = tt[slot + T_HIGH]
    rel = best - mine
    if best <= low:
        hi = min(hi, rel)
    elif best >= high:
        lo = max(lo, rel)
    else:
        lo = rel
        hi = rel
    tt[slot + T_KEY] = key
    tt[slot + T_OWNERS] = owners
    tt[slot + T_LOW] = lo
    tt[slot + T_HIGH] = hi
    tt[slot + T_MOVE] = move


def canonical_cards(north: int, east: int, south: int, west: int) -> tuple[int, int]:
    """The cards left as their ranks relative to each other: positions that differ only in
    which of the cards that score alike (the Ace and the ten; the King, Queen, eight and
    seven) have gone play alike, and get one key. In each suit the live cards of those two
    groups move up to the top of their group (the Jack and the nine stay), and their owners,
    in order, two bits each, are returned beside the mask, with a flag bit (1 << 48) that
    keeps these keys apart from the plain ones.

    >>> canonical_cards(1 << 5, 1 << 7, 0, 0) == (0b110000, 1 << 48 | 0b0001)  # N, then E
    True
    """
    live = north | east | south | west
    low_bit = east | west
    high_bit = south | west
    mask = live & 0x03030303
    owners = 0
    for suit in range(4):
        base = suit * 8
        at = base + 2
        for place in range(2, 8):
            if place == 4:
                at = base + 4
            card = base + place
            if live >> card & 1:
                mask |= 1 << at
                at += 1
                owners = owners << 2 | (low_bit >> card & 1) | (high_bit >> card & 1) << 1
    return mask, owners | 1 << 48


def tt_key(st: Ints, b: int, ru: Ints) -> tuple[int, int]:
    """What decides a position at a trick boundary: the cards left (their owners are fixed),
    the leader, the show, and the caller's points where the early end depends on them; as
    the key and the owners word of the table (:func:`canonical_cards`: the cards left by
    their relative ranks, unless the face-down card or a Pair still to come makes a card
    matter by its name)."""
    north = st[b + HELD]
    east = st[b + HELD + 1]
    south = st[b + HELD + 2]
    west = st[b + HELD + 3]
    key = north | east | south | west
    owners = 0
    if (st[b + SHOWN] or st[b + FACE_DOWN] < 0) and not (st[b + PAIR_OPEN] and ru[R_END_DECIDED]):
        key, owners = canonical_cards(north, east, south, west)
    key |= st[b + TO_PLAY] << 32
    key |= st[b + SHOWN] << 34
    if ru[R_END_DECIDED]:
        key |= st[b + POINTS + st[b + TEAM]] << 35
    return (key + 1) | (ru[R_GENERATION] << 41), owners


# The transposition table: TT_SIZE entries of TE ints: the key, the lower and upper bounds
# of the points still to come (the final value less the points won), the best move, and
# the owners word of the key (:func:`canonical_cards`).
TE = 5
T_KEY = 0
T_LOW = 1
T_HIGH = 2
T_MOVE = 3
T_OWNERS = 4


def tt_pair(key: int, owners: int) -> int:
    """The first of the two entries where ``key`` may be: the first is kept for the position
    with more cards left (the costlier to search again), the second takes the newest."""
    # Bits 40 to 59 of the product: the same whether it wraps at 64 bits (compiled) or not.
    mixed = key ^ (owners << 13)  # under 2**62: no wrap on either path
    return (((mixed * 0x5851F42D4C957F2D) >> 40) & (TT_SIZE - 2)) * TE


def tt_lookup(tt: Ints, key: int, owners: int) -> int:
    """The entry holding ``key`` and ``owners``, or -1."""
    slot = tt_pair(key, owners)
    if tt[slot + T_KEY] == key and tt[slot + T_OWNERS] == owners:
        return slot
    if tt[slot + TE + T_KEY] == key and tt[slot + TE + T_OWNERS] == owners:
        return slot + TE
    return -1


def cards_left(key: int) -> int:
    return popcount((key - 1) & 0xFFFFFFFF)


def tt_place(tt: Ints, key: int, owners: int) -> int:
    """The entry to write ``key`` to: its own, else the first place if it has more cards left
    than the first's (or that one is another search's; the first moves to the second),
    else the second."""
    found = tt_lookup(tt, key, owners)
    if found >= 0:
        return found
    slot = tt_pair(key, owners)
    first = tt[slot + T_KEY]
    if first == 0 or first >> 41 != key >> 41 or cards_left(key) >= cards_left(first):
        for i in range(TE):
            tt[slot + TE + i] = tt[slot + i]
        return slot
    return slot + TE


# After it, the reply table: inside a trick, the best move found before for the same cards
# on the table and the same hand to play from (REPLY_SIZE entries of key and move; for move
# ordering only, so a stale or colliding entry costs time, never exactness).
REPLY_BITS = 16
REPLY_SIZE = 1 << REPLY_BITS
REPLY = TT_SIZE * TE


def new_table_size() -> int:
    return REPLY + REPLY_SIZE * 2


def reply_key(st: Ints, b: int) -> int:
    table = 0
    for i in range(st[b + N_TRICK]):
        table |= 1 << st[b + TRICK_CARDS + i]
    held = st[b + HELD + st[b + TO_PLAY]]
    return ((table ^ (held << 29)) | (st[b + SHOWN] << 61)) + 1


def reply_slot(key: int) -> int:
    return REPLY + ((key ^ (key >> 17) ^ (key >> 35)) & (REPLY_SIZE - 1)) * 2


# -- move ordering -------------------------------------------------------------------------------
def strength(st: Ints, b: int, card: int) -> int:
    """Rank within the suit, 7 the strongest, as the trick will compare it."""
    place = card & 7
    return place if (st[b + SHOWN] and st[b + REVERSE]) else 7 - place


def move_score(st: Ints, b: int, move: int, best_move: int, win_key: int, partner: int) -> int:
    """How promising a move looks (tried highest first); exactness never depends on it:
    the best move found here before, the show, then cards that take the trick (trumps
    first), points to a partner who takes it, and low cards given away.

    ``win_key`` is the key of the card winning the trick so far (0 on a lead) and
    ``partner`` 1 when it is the partner's."""
    if move == best_move:
        return 1 << 40
    if move == SHOW:
        return 1000
    rank = strength(st, b, move)
    points = CARD_POINTS[move]
    if win_key == 0:
        return rank * 4 + points
    key = card_key(st, b, move, st[b + SHOWN])
    if key <= win_key:
        if partner:
            return points * 8 - rank
        return -points * 8 - rank
    return key * 4 + points


def order_moves(st: Ints, b: int, live: int, moves: Ints, o: int, n: int, best_move: int) -> int:
    """Drop all but the first of each run of equivalent cards, then sort the rest best
    first; the number left."""
    kept = 0
    prev = -1
    for i in range(n):
        move = moves[o + i]
        if prev >= 0 and move != SHOW and equivalent(st, b, live, prev, move):
            prev = move
            continue
        prev = move if move != SHOW else -1
        moves[o + kept] = move
        kept += 1
    if kept < 2:
        return kept
    win_key = 0
    partner = 0
    if st[b + N_TRICK]:
        shown = st[b + SHOWN]
        slot = winning(st, b, shown)
        win_key = card_key(st, b, st[b + TRICK_CARDS + slot], shown)
        partner = 1 if team_of(st[b + TRICK_SEATS + slot]) == team_of(st[b + TO_PLAY]) else 0
    scores = o + MAX_MOVES // 2  # the second half of the row holds the scores
    for i in range(kept):
        moves[scores + i] = move_score(st, b, moves[o + i], best_move, win_key, partner)
    for i in range(1, kept):  # insertion sort, highest score first
        move = moves[o + i]
        score = moves[scores + i]
        j = i - 1
        while j >= 0 and moves[scores + j] < score:
            moves[o + j + 1] = moves[o + j]
            moves[scores + j + 1] = moves[scores + j]
            j -= 1
        moves[o + j + 1] = move
        moves[scores + j + 1] = score
    return kept


# -- the search --------------------------------------------------------------------------------
# A node's frame in the frame buffer (row ``d`` starts at ``d * FW``): the search is a loop
# over an explicit stack, not recursion (as numba, which compiled it once, needed).
F_ALPHA = 0
F_BETA = 1
F_BEST = 2
F_NEXT = 3  # the next move to try
F_COUNT = 4  # moves to try
F_KEY = 5  # transposition key (0 inside a trick)
F_SLOT = 6  # the table entry found (-1 if none)
F_LOW = 7  # the window the moves are searched in, for the table's bound
F_HIGH = 8
F_BEST_MOVE = 9
F_MAX = 10  # 1 when the caller's side is to play
F_MINE = 11
F_REPLY_KEY = 12  # inside a trick: the reply table's key (0 at a trick boundary)
F_REPLY_SLOT = 13
F_OWNERS = 14  # the owners word of the transposition key
FW = 15
NODES = FW * MAX_DEPTH  # after the frames: the count of nodes searched
PENDING = -1000  # a node's value is not known yet: a child is set up at the next row


def new_frames_size() -> int:
    return NODES + 1


def enter(
    st: Ints, d: int, ru: Ints, moves: Ints, tt: Ints, fr: Ints, alpha: int, beta: int
) -> int:
    """Open the node at row ``d``: its value if known at once, else PENDING with its first
    child set up."""
    fr[NODES] += 1
    b = d * W
    o = d * MAX_MOVES
    team = st[b + TEAM]
    while True:  # until a choice: a forced move is played in place, it changes no value
        mine = st[b + POINTS + team]
        if st[b + OVER] or mine >= beta:
            return mine
        live = st[b + HELD] | st[b + HELD + 1] | st[b + HELD + 2] | st[b + HELD + 3]
        most = mine + mask_points(live)
        for i in range(st[b + N_TRICK]):
            most += CARD_POINTS[st[b + TRICK_CARDS + i]]
        if st[b + TRICK_NO] < 8:
            most += ru[R_BONUS]
        least = mine
        if st[b + SHOWN] and st[b + SINGLE] < 0 and not ru[R_END_DECIDED] and st[b + TRUMP] < 4:
            taken = trick_taken(st, b) if st[b + N_TRICK] else 0
            if taken:
                table = 0
                for i in range(st[b + N_TRICK]):
                    table += CARD_POINTS[st[b + TRICK_CARDS + i]]
                if taken - 1 == team:
                    least += table
                else:
                    most -= table
            sure = sure_trumps(st, b, taken)
            if sure > 0:
                if sure >> 1 & 1 == team:
                    least += sure >> 2
                else:
                    most -= sure >> 2
        elif (
            st[b + SINGLE] < 0
            and not ru[R_END_DECIDED]
            and st[b + TRUMP] < 4
            and st[b + FACE_DOWN] < 0
            and not st[b + REVERSE]
        ):
            # Before the show the top trumps are as sure (see sure_trumps), those in hands.
            sure = sure_trumps(st, b, 1)
            if sure > 0:
                if sure >> 1 & 1 == team:
                    least += sure >> 2
                else:
                    most -= sure >> 2
        if least >= beta:
            return least
        if most <= alpha:
            return most
        if most == least:
            return least
        # Narrow the window to what is sure: the points won, the top trumps' points, and
        # what is left.
        beta = min(beta, most)
        alpha = max(alpha, least)
        if st[b + N_TRICK] == 0 and st[b + SHOWN]:
            if st[b + TRICK_NO] == 7:
                return mine + last_trick(st, b, ru, team)
            if st[b + TRICK_NO] == 6 and st[b + SINGLE] < 0 and not ru[R_END_DECIDED]:
                return mine + two_tricks(
                    st,
                    b,
                    ru,
                    team,
                    st[b + TO_PLAY],
                    st[b + HELD],
                    st[b + HELD + 1],
                    st[b + HELD + 2],
                    st[b + HELD + 3],
                    alpha - mine,
                    beta - mine,
                )
        key = 0
        owners = 0
        slot = 0
        best_move = -1
        if st[b + N_TRICK] == 0:
            key, owners = tt_key(st, b, ru)
            slot = tt_lookup(tt, key, owners)
            if slot >= 0:
                lo = tt[slot + T_LOW] + mine
                hi = tt[slot + T_HIGH] + mine
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                alpha = max(alpha, lo)
                beta = min(beta, hi)
                best_move = tt[slot + T_MOVE]
            plain = st[b + SHOWN] and st[b + SINGLE] < 0 and not ru[R_END_DECIDED]
            if plain and st[b + TRICK_NO] == 3:
                found = five_tricks(
                    st,
                    b,
                    ru,
                    tt,
                    team,
                    st[b + TO_PLAY],
                    st[b + HELD],
                    st[b + HELD + 1],
                    st[b + HELD + 2],
                    st[b + HELD + 3],
                    alpha - mine,
                    beta - mine,
                    1 << best_move if best_move >= 0 else 0,
                )
                value = mine + (found >> 6)
                tt_store(tt, key, owners, value, mine, alpha, beta, found & 63)
                return value
            if plain and st[b + TRICK_NO] == 4:
                found = four_tricks(
                    st,
                    b,
                    ru,
                    tt,
                    team,
                    st[b + TO_PLAY],
                    st[b + HELD],
                    st[b + HELD + 1],
                    st[b + HELD + 2],
                    st[b + HELD + 3],
                    alpha - mine,
                    beta - mine,
                    1 << best_move if best_move >= 0 else 0,
                )
                value = mine + (found >> 6)
                tt_store(tt, key, owners, value, mine, alpha, beta, found & 63)
                return value
            if plain and st[b + TRICK_NO] == 5:
                found = three_tricks(
                    st,
                    b,
                    ru,
                    team,
                    st[b + TO_PLAY],
                    st[b + HELD],
                    st[b + HELD + 1],
                    st[b + HELD + 2],
                    st[b + HELD + 3],
                    alpha - mine,
                    beta - mine,
                    1 << best_move if best_move >= 0 else 0,
                )
                value = mine + (found >> 6)
                tt_store(tt, key, owners, value, mine, alpha, beta, found & 63)
                return value
        n = legal_moves(st, b, ru, moves, o)
        if n == 0:
            return mine
        if n > 1:
            break
        apply_move(st, b, ru, moves[o])
    for i in range(st[b + N_TRICK]):
        live |= 1 << st[b + TRICK_CARDS + i]
    reply = 0
    reply_at = 0
    if key == 0:
        reply = reply_key(st, b)
        reply_at = reply_slot(reply)
        if tt[reply_at] == reply:
            best_move = tt[reply_at + 1]
    n = order_moves(st, b, live, moves, o, n, best_move)
    maximize = 1 if team_of(st[b + TO_PLAY]) == team else 0
    f = d * FW
    fr[f + F_ALPHA] = alpha
    fr[f + F_BETA] = beta
    fr[f + F_BEST] = -INFINITY if maximize else INFINITY
    fr[f + F_NEXT] = 1
    fr[f + F_COUNT] = n
    fr[f + F_KEY] = key
    fr[f + F_OWNERS] = owners
    fr[f + F_SLOT] = slot
    fr[f + F_LOW] = alpha
    fr[f + F_HIGH] = beta
    fr[f + F_BEST_MOVE] = moves[o]
    fr[f + F_MAX] = maximize
    fr[f + F_MINE] = mine
    fr[f + F_REPLY_KEY] = reply
    fr[f + F_REPLY_SLOT] = reply_at
    copy_row(st, b, b + W)
    apply_move(st, b + W, ru, moves[o])
    return PENDING


def child_done(st: Ints, d: int, ru: Ints, moves: Ints, tt: Ints, fr: Ints, value: int) -> int:
    """Take a child's value at row ``d``: PENDING with the next child set up, or the node's
    value once it is known (stored in the table at a trick boundary)."""
    f = d * FW
    best = fr[f + F_BEST]
    alpha = fr[f + F_ALPHA]
    beta = fr[f + F_BETA]
    o = d * MAX_MOVES
    tried = fr[f + F_NEXT]
    if fr[f + F_MAX]:
        if value > best:
            best = value
            fr[f + F_BEST_MOVE] = moves[o + tried - 1]
            alpha = max(alpha, best)
    elif value < best:
        best = value
        fr[f + F_BEST_MOVE] = moves[o + tried - 1]
        beta = min(beta, best)
    fr[f + F_BEST] = best
    if alpha < beta and tried < fr[f + F_COUNT]:
        fr[f + F_ALPHA] = alpha
        fr[f + F_BETA] = beta
        fr[f + F_NEXT] = tried + 1
        b = d * W
        copy_row(st, b, b + W)
        apply_move(st, b + W, ru, moves[o + tried])
        return PENDING
    key = fr[f + F_KEY]
    if key:
        tt_store(
            tt,
            key,
            fr[f + F_OWNERS],
            best,
            fr[f + F_MINE],
            fr[f + F_LOW],
            fr[f + F_HIGH],
            fr[f + F_BEST_MOVE],
        )
    else:
        reply_at = fr[f + F_REPLY_SLOT]
        tt[reply_at] = fr[f + F_REPLY_KEY]
        tt[reply_at + 1] = fr[f + F_BEST_MOVE]
    return best


def search(
    st: Ints, top: int, ru: Ints, moves: Ints, tt: Ints, fr: Ints, alpha: int, beta: int
) -> int:
    """The caller's side's final card points at row ``top``, fail-soft within (alpha, beta):
    a result <= alpha is an upper bound, >= beta a lower bound, in between exact."""
    d = top
    value = enter(st, d, ru, moves, tt, fr, alpha, beta)
    while True:
        while value != PENDING:
            if d == top:
                return value
            d -= 1
            value = child_done(st, d, ru, moves, tt, fr, value)
        f = d * FW
        d += 1
        value = enter(st, d, ru, moves, tt, fr, fr[f + F_ALPHA], fr[f + F_BETA])


def exact_value(st: Ints, top: int, ru: Ints, moves: Ints, tt: Ints, fr: Ints, guess: int) -> int:
    """The exact value at row ``top`` by null-window searches ("at least v?"); the table
    keeps what earlier ones learnt. From a ``guess`` (a sibling's value; -1 for none) it
    steps one point at a time, as values lie close to their siblings', then halves what is
    left."""
    b = top * W
    lower = st[b + POINTS + st[b + TEAM]]
    upper = lower + mask_points(live_cards(st, b)) + ru[R_BONUS]
    steps = 4 if guess >= 0 else 0
    test = min(max(guess, lower + 1), upper) if guess >= 0 else (lower + upper + 1) // 2
    while lower < upper:
        value = search(st, top, ru, moves, tt, fr, test - 1, test)
        if value >= test:
            lower = value
            test = lower + 1
        else:
            upper = value
            test = upper
        steps -= 1
        if steps < 0:
            test = (lower + upper + 1) // 2
    return lower


def solve_root(st: Ints, ru: Ints, moves: Ints, tt: Ints, fr: Ints, values: Ints) -> int:
    """Every legal move at row 0 with its exact value (``moves[0:n]``, ``values[0:n]``); n.

    The moves stay in the engine's order; each is searched from row 1, one row below."""
    n = legal_moves(st, 0, ru, moves, 0)
    live = live_cards(st, 0)
    prev = -1
    guess = -1
    for i in range(n):
        move = moves[i]
        if prev >= 0 and move != SHOW and equivalent(st, 0, live, prev, move):
            values[i] = values[i - 1]
            prev = move
            continue
        prev = move if move != SHOW else -1
        copy_row(st, 0, W)
        apply_move(st, W, ru, move)
        values[i] = exact_value(st, 1, ru, moves, tt, fr, guess)
        guess = values[i]
    return n


def probe(st: Ints, ru: Ints, moves: Ints, tt: Ints, fr: Ints, target: int) -> int:
    """1 if the caller's side can take ``target`` card points from row 0, else 0."""
    return 1 if search(st, 0, ru, moves, tt, fr, target - 1, target) >= target else 0
