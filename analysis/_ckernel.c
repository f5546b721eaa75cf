/* The solver's search kernel in C: twentynine.analysis._ckernel.
 *
 * The same search as analysis/_kernel.py (the pure-Python path), built by setup.py at
 * install time. A position arrives as the row of ints analysis/solver.py builds
 * (position_row) and the rules as rules_row; the transposition table is a bytearray the
 * caller keeps per thread (table_size() bytes).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

/* -- a position's row, as analysis/_kernel.py numbers it ------------------------------- */
enum {
    HELD = 0, TO_PLAY = 4, LED = 5, N_TRICK = 6, TRICK_SEATS = 7, TRICK_CARDS = 11,
    TRUMP = 15, REVERSE = 16, SHOWN = 17, ASKER = 18, ASKER_MUST = 19, FACE_DOWN = 20,
    CALLER = 21, SEVENTH = 22, SEVENTH_TURN = 23, SINGLE = 24, POINTS = 25, TRICK_NO = 27,
    OVER = 28, TEAM = 29, TARGET = 30, CALL = 31, PAIR_OPEN = 32, W = 33
};
enum {
    R_SHOW = 0, R_MUST_TRUMP = 1, R_MUST_OVERTRUMP = 2, R_PAGAT = 3, R_END_DECIDED = 4,
    R_TOTAL = 5, R_BONUS = 6, R_PAIR_LOWERS_FROM = 7, R_PAIR_POINTS = 8, R_MIN_BID = 9,
    R_MAX_BID = 10, R_UNDER_HALF = 11, R_DIR = 12, R_GENERATION = 13, RW = 14
};
enum { SHOW_OPTIONAL = 0, SHOW_COMPULSORY = 1, SHOW_AUTOMATIC = 2 };
#define SHOW 32
#define NO_SUIT 4
#define INF 99
#define MAX_MOVES 10

static const int CARD_POINTS[32] = {
    3, 2, 1, 1, 0, 0, 0, 0, 3, 2, 1, 1, 0, 0, 0, 0,
    3, 2, 1, 1, 0, 0, 0, 0, 3, 2, 1, 1, 0, 0, 0, 0,
};
static const uint32_t SUIT_MASK[4] = {0xFFu, 0xFF00u, 0xFF0000u, 0xFF000000u};

/* What a deal's play never changes, and the rules. */
typedef struct {
    int show, must_trump, must_overtrump, pagat, end_decided, total, bonus;
    int pair_lowers_from, pair_points, min_bid, max_bid, under_half, dir;
    uint64_t generation;
    int trump, reverse, caller, seventh, single, team, target, call, pair_open;
    /* After the show: how strongly each card stands in a trick led in each suit (0: it
     * cannot win), for the plain loops. */
    uint8_t strength[4][32];
    /* Whether a position with no trump left plays alike shown or not (no rule that the show
     * moves besides the trumps' power: no early end, Pair, single hand, reverse, seventh card
     * or face-down card). */
    int plain_show;
} Game;

typedef struct {
    uint32_t held[4];
    int to_play, led, n_trick, shown, asker, asker_must, face_down, seventh_turn;
    int trick_no, over;
    int seats[4], cards[4];
    int points[2];
} Pos;

/* The transposition table: buckets of four 16-byte entries, one cache line each, so that a
 * look-up reads one line (the table, 1 MiB, stays in the L2 cache). An entry's first word is
 * its key (the cards by relative ranks, the leader, the show, the points where the early end
 * depends on them: 40 bits), the deal's generation (18 bits) and the best move (6 bits); the
 * second, the owners word of the key (49 bits) and the bounds of the points still to come
 * (6 bits each, 63 for none above). Then the reply table. */
#define TT_BUCKET_BITS 14
#define TT_BUCKETS (1 << TT_BUCKET_BITS)
#define KEY_BITS 40
#define GEN_BITS 18
#define GENERATIONS (1 << GEN_BITS)
#define KEY_GEN_MASK ((1ull << (KEY_BITS + GEN_BITS)) - 1)
#define OWNERS_MASK ((1ull << 49) - 1)
#define NO_MOVE 63
#define NO_BOUND 63
#define REPLY_BITS 14
#define REPLY_SIZE (1 << REPLY_BITS)

typedef struct {
    uint64_t key;
    uint64_t owners;
} Entry;

typedef struct {
    int64_t key;
    int64_t move;
} Reply;

/* The cache of two-trick endings: each word holds the ending (each hand's two cards, the
 * leader, and what of the rules decides it) and its exact value for N-S. */
#define ENDINGS_BITS 14
#define ENDINGS_SIZE (1 << ENDINGS_BITS)

typedef struct {
    Game g;
    Entry *tt;
    Reply *reply;
    uint64_t *endings;
    uint64_t rules_bits; /* trump, reverse, direction and bonus, for the endings' keys */
    int64_t nodes;
    int killer[9][2]; /* by trick and side (1 the caller's): the lead that last made a cut */
} Ctx;

/* Bits set, without the library call __builtin_popcount makes where the build may not
 * assume the popcnt instruction. */
static inline int popcount(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
static inline int lowest_index(uint32_t x) { return __builtin_ctz(x); }
static inline int team_of(int seat) { return seat & 1; }
static inline int imax(int a, int b) { return a > b ? a : b; }
static inline int imin(int a, int b) { return a < b ? a : b; }

/* The points of the low four bits of a suit's byte (J 3, 9 2, A 1, 10 1). */
static const uint8_t NIBBLE_POINTS[16] = {0, 3, 2, 5, 1, 4, 3, 6, 1, 4, 3, 6, 2, 5, 4, 7};

/* PAIR_POINTS[byte]: the points of two suits' low four bits, side by side (filled once). */
static uint8_t PAIR_POINTS[256];

static inline int mask_points(uint32_t mask) {
    uint32_t m = mask & 0x0F0F0F0Fu;
    return PAIR_POINTS[(m | m >> 4) & 0xFF] + PAIR_POINTS[(m >> 16 | m >> 20) & 0xFF];
}

/* Tables for the keys of the table and the endings, filled once when the module loads
 * (read-only after):
 * CANON_BYTE[byte] the byte of a suit's live cards by relative ranks (the Jack and the nine in
 * place, the Ace-ten and the King-to-seven groups moved up to the top of their group);
 * COMPRESS6[m][x] the bits of x at the places set in m, packed down (six bits each, the
 * places 2 to 7 of a suit); SPREAD6[x] bit i of x moved to bit 2i. */
static uint8_t CANON_BYTE[256];
static uint8_t COMPRESS6[64][64];
static uint16_t SPREAD6[64];
/* LOW_RUNS[hand << 4 | live], of the four places King to seven of one suit: the cards of the
 * hand whose next stronger live card of those places is not the hand's. */
static uint8_t LOW_RUNS[256];
/* POP6[x]: the bits set in x (six bits): a suit's places 2 to 7, counted in every key. */
static uint8_t POP6[64];

static void fill_tables(void) {
    for (int byte = 0; byte < 256; byte++) {
        int aces = __builtin_popcount(byte & 0x0C), low = __builtin_popcount(byte & 0xF0);
        CANON_BYTE[byte] = (uint8_t)((byte & 3) | (((1 << aces) - 1) << 2) | (((1 << low) - 1) << 4));
    }
    for (int m = 0; m < 64; m++)
        for (int x = 0; x < 64; x++) {
            int out = 0, at = 0;
            for (int bit = 0; bit < 6; bit++)
                if (m >> bit & 1) out |= (x >> bit & 1) << at++;
            COMPRESS6[m][x] = (uint8_t)out;
        }
    for (int x = 0; x < 64; x++) POP6[x] = (uint8_t)__builtin_popcount(x);
    for (int x = 0; x < 256; x++)
        PAIR_POINTS[x] = (uint8_t)(NIBBLE_POINTS[x & 15] + NIBBLE_POINTS[x >> 4]);
    for (int x = 0; x < 64; x++) {
        int out = 0;
        for (int bit = 0; bit < 6; bit++) out |= (x >> bit & 1) << (2 * bit);
        SPREAD6[x] = (uint16_t)out;
    }
    for (int hand = 0; hand < 16; hand++)
        for (int live = 0; live < 16; live++) {
            int out = 0, prev_held = 0;
            for (int bit = 0; bit < 4; bit++) {
                if (!((hand | live) >> bit & 1)) continue;
                int held = hand >> bit & 1;
                if (held && !prev_held) out |= 1 << bit;
                prev_held = held;
            }
            LOW_RUNS[hand << 4 | live] = (uint8_t)out;
        }
}

/* -- the rules of play, as in replay.deal ---------------------------------------------- */
static inline uint32_t face_down_mask(const Game *g, const Pos *p, int seat) {
    int fd = p->face_down;
    if (seat != g->caller || fd < 0 || p->shown) return 0;
    if (popcount(p->held[seat]) <= 1) return 0;
    return 1u << fd;
}

static inline int show_possible(const Game *g, const Pos *p) {
    return p->shown == 0 && g->single < 0 && p->led >= 0;
}

static inline int seventh_exempt(const Game *g, int seat) {
    return g->pagat && g->seventh && seat == g->caller;
}

static inline int follows_first(const Pos *p, int seat, int card) {
    int led = p->led;
    if (led < 0 || card >> 3 == led) return 1;
    int fd = p->face_down;
    uint32_t fdm = fd >= 0 ? 1u << fd : 0;
    return (p->held[seat] & SUIT_MASK[led] & ~fdm) != 0;
}

static inline int card_key(const Game *g, const Pos *p, int card, int shown) {
    int trump = (shown && g->single < 0) ? g->trump : -1;
    int place = card & 7;
    int strength = (shown && g->reverse) ? place : 7 - place;
    int suit = card >> 3;
    if (suit == trump) return 17 + strength;
    if (suit == p->led) return 1 + strength;
    return 0;
}

static inline int winning(const Game *g, const Pos *p, int shown) {
    int best = -1, best_key = 0;
    for (int i = 0; i < p->n_trick; i++) {
        int key = card_key(g, p, p->cards[i], shown);
        if (key > best_key) {
            best_key = key;
            best = i;
        }
    }
    return best;
}

static inline uint32_t higher_trumps(const Game *g, int card) {
    int suit = card >> 3, place = card & 7;
    if (g->reverse) return ((0xFFu >> (place + 1)) << (place + 1)) << (suit * 8);
    return ((1u << place) - 1) << (suit * 8);
}

static inline int asks_now(const Game *g, const Pos *p, int seat) {
    if (p->asker_must && seat == p->asker) return 1;
    if (g->show != SHOW_AUTOMATIC || !g->must_trump) return 0;
    if (!show_possible(g, p)) return 0;
    return (p->held[seat] & SUIT_MASK[p->led] & ~face_down_mask(g, p, seat)) == 0;
}

static int card_legal(const Game *g, const Pos *p, int seat, int card) {
    uint32_t bit = 1u << card;
    uint32_t held = p->held[seat];
    uint32_t fdm = face_down_mask(g, p, seat);
    if (fdm & bit) return 0;
    int led = p->led;
    if (led >= 0 && card >> 3 != led) {
        if (held & SUIT_MASK[led] & ~fdm) return 0; /* must follow */
        if (g->show == SHOW_COMPULSORY && show_possible(g, p) && !seventh_exempt(g, seat))
            return 0; /* must ask first */
    }
    int fd = p->face_down;
    if (p->seventh_turn && seat == g->caller && fd >= 0 && card != fd &&
        !follows_first(p, seat, card))
        return 0; /* the turned-up seventh card is the card played */
    int trump = g->trump;
    if (trump >= 0 && trump < 4 && asks_now(g, p, seat) && !follows_first(p, seat, card)) {
        uint32_t playable = held & ~fdm;
        uint32_t trumps = playable & SUIT_MASK[trump];
        if (card >> 3 != trump) {
            if (trumps) return 0; /* must trump */
        } else if (g->must_overtrump) {
            int slot = winning(g, p, 1);
            if (slot >= 0) {
                int win_seat = p->seats[slot], win_card = p->cards[slot];
                if (team_of(win_seat) != team_of(seat) && win_card >> 3 == trump) {
                    uint32_t higher = higher_trumps(g, win_card);
                    if ((higher & playable) && !(higher & bit))
                        return 0; /* must beat the opponent's trump */
                }
            }
        }
    }
    return 1;
}

static inline int show_legal(const Game *g, const Pos *p) {
    if (g->show == SHOW_AUTOMATIC || !show_possible(g, p)) return 0;
    int seat = p->to_play;
    return (p->held[seat] & SUIT_MASK[p->led] & ~face_down_mask(g, p, seat)) == 0;
}

/* The legal moves in the engine's order; their count. */
static int legal_moves(const Game *g, const Pos *p, int *out) {
    int seat = p->to_play;
    uint32_t hand = p->held[seat];
    int led = p->led;
    uint32_t fdm = face_down_mask(g, p, seat);
    int n = 0;
    if (led < 0) {
        hand &= ~fdm;
    } else if (hand & SUIT_MASK[led] & ~fdm) {
        hand &= SUIT_MASK[led] & ~fdm;
    } else {
        if (show_legal(g, p)) out[n++] = SHOW;
        while (hand) {
            int card = lowest_index(hand);
            hand &= hand - 1;
            if (card_legal(g, p, seat, card)) out[n++] = card;
        }
        return n;
    }
    while (hand) {
        out[n++] = lowest_index(hand);
        hand &= hand - 1;
    }
    return n;
}

/* -- applying a move --------------------------------------------------------------------- */
static inline int pair_teams(const Game *g, const Pos *p) {
    int trump = g->trump;
    if (trump < 0 || trump >= 4) return 0;
    uint32_t king = 1u << (trump * 8 + 4), queen = 1u << (trump * 8 + 5);
    for (int seat = 0; seat < 4; seat++) {
        uint32_t held = p->held[seat];
        if ((held & king) && (held & queen)) return 1 << team_of(seat);
    }
    return 0;
}

static void check_decided(const Game *g, Pos *p) {
    if (!g->end_decided || p->over || !p->shown || g->single >= 0) return;
    int team = team_of(g->caller);
    int mine = p->points[team];
    int remaining = g->total - p->points[0] - p->points[1];
    int target = g->target;
    int lo = target, hi = target;
    if (g->pair_open) {
        int teams = pair_teams(g, p);
        if ((teams >> team & 1) && g->call >= g->pair_lowers_from)
            lo = imax(g->min_bid, target - g->pair_points);
        if (teams >> (1 - team) & 1) hi = imin(g->max_bid, target + g->pair_points);
    }
    if (mine >= hi) {
        p->over = 1;
    } else if (mine + remaining < lo) {
        int call = g->call;
        if (!(g->under_half && mine * 2 < call && call <= (mine + remaining) * 2)) p->over = 1;
    }
}

static inline void reveal(const Game *g, Pos *p, int seat) {
    p->shown = 1;
    p->asker = seat;
    p->asker_must = g->must_trump;
    p->seventh_turn = (seventh_exempt(g, seat) && p->face_down >= 0) ? 1 : 0;
}

static void end_trick(const Game *g, Pos *p) {
    int n = p->n_trick;
    int slot = winning(g, p, p->shown);
    int winner = p->seats[slot];
    int points = 0;
    for (int i = 0; i < n; i++) points += CARD_POINTS[p->cards[i]];
    p->n_trick = 0;
    p->led = -1;
    p->asker_must = 0;
    int number = p->trick_no + 1;
    p->trick_no = number;
    if (number == 8) points += g->bonus;
    p->points[team_of(winner)] += points;
    p->to_play = winner;
    if (g->single >= 0 && winner != g->single) p->over = 1;
    if (number >= 8) {
        p->over = 1;
        return;
    }
    if (p->shown) check_decided(g, p);
}

static void apply_move(const Game *g, Pos *p, int move) {
    int seat = p->to_play;
    if (move == SHOW) {
        reveal(g, p, seat);
        check_decided(g, p);
        return;
    }
    int card = move;
    int led = p->led;
    if (led >= 0 && card >> 3 != led && g->show == SHOW_AUTOMATIC && show_possible(g, p)) {
        reveal(g, p, seat);
        check_decided(g, p);
    }
    if (p->asker_must && seat == p->asker) p->asker_must = 0;
    if (seat == g->caller) p->seventh_turn = 0;
    p->held[seat] ^= 1u << card;
    if (card == p->face_down && seat == g->caller && !p->shown) p->face_down = -1;
    if (led < 0) p->led = card >> 3;
    int n = p->n_trick;
    p->seats[n] = seat;
    p->cards[n] = card;
    n++;
    p->n_trick = n;
    int single = g->single;
    if (n >= (single >= 0 ? 3 : 4)) {
        end_trick(g, p);
        return;
    }
    if (p->shown) check_decided(g, p);
    int step = g->dir;
    int nxt = (seat + step) & 3;
    for (;;) {
        int taken = single >= 0 && nxt == ((single + 2) & 3);
        for (int i = 0; i < n; i++)
            if (p->seats[i] == nxt) taken = 1;
        if (!taken) break;
        nxt = (nxt + step) & 3;
    }
    p->to_play = nxt;
}

/* -- the search's helpers ------------------------------------------------------------------ */
static inline uint32_t live_cards(const Pos *p) {
    uint32_t live = p->held[0] | p->held[1] | p->held[2] | p->held[3];
    for (int i = 0; i < p->n_trick; i++) live |= 1u << p->cards[i];
    return live;
}

static inline int equivalent(const Game *g, const Pos *p, uint32_t live, int low, int high) {
    if (low >> 3 != high >> 3 || CARD_POINTS[low] != CARD_POINTS[high]) return 0;
    uint32_t between = (uint32_t)(((1ull << high) - 1) & ~((2ull << low) - 1));
    if (live & between) return 0;
    int fd = p->face_down;
    if (fd == low || fd == high) return 0;
    if (g->pair_open) {
        int trump = g->trump;
        if (low >> 3 == trump && ((low & 7) == 4 || (low & 7) == 5)) return 0;
        if (high >> 3 == trump && ((high & 7) == 4 || (high & 7) == 5)) return 0;
    }
    return 1;
}

static int sure_trumps(const Game *g, const Pos *p, int table_counted) {
    int trump = g->trump;
    uint32_t table = 0;
    int table_points = 0;
    uint32_t side_one = p->held[1] | p->held[3];
    for (int i = 0; i < p->n_trick; i++) {
        int card = p->cards[i];
        table |= 1u << card;
        if (team_of(p->seats[i])) side_one |= 1u << card;
        table_points += CARD_POINTS[card];
    }
    uint32_t trumps = live_cards(p) & SUIT_MASK[trump];
    if (trumps == 0) return 0;
    int side = -1, points = 0;
    for (int step = 0; step < 8; step++) {
        int place = g->reverse ? 7 - step : step;
        uint32_t bit = 1u << (trump * 8 + place);
        if (!(trumps & bit)) continue;
        int team = (side_one & bit) ? 1 : 0;
        if (side < 0)
            side = team;
        else if (team != side)
            break;
        if (!(table & bit))
            points += CARD_POINTS[trump * 8 + place];
        else if (!table_counted) {
            points += table_points;
            table_points = 0;
        }
    }
    return points << 2 | side << 1 | 1;
}

static inline int top_trumps(const Game *g, uint32_t live, uint32_t side_one) {
    int trump = g->trump;
    if (trump >= NO_SUIT || (live & SUIT_MASK[trump]) == 0) return 0;
    int side = -1, points = 0;
    for (int step = 0; step < 8; step++) {
        int card = trump * 8 + (g->reverse ? 7 - step : step);
        if (!(live >> card & 1)) continue;
        int team = side_one >> card & 1;
        if (side < 0)
            side = team;
        else if (team != side)
            break;
        points += CARD_POINTS[card];
    }
    return points << 2 | side << 1 | 1;
}

static int trick_taken(const Game *g, const Pos *p) {
    int slot = winning(g, p, 1);
    int card = p->cards[slot];
    int side = team_of(p->seats[slot]);
    int trump = g->trump;
    uint32_t beats = higher_trumps(g, card);
    if (card >> 3 != trump) beats |= SUIT_MASK[trump];
    uint32_t to_come = 0;
    for (int seat = 0; seat < 4; seat++)
        if (team_of(seat) != side) to_come |= p->held[seat];
    for (int i = 0; i < p->n_trick; i++) {
        int seat = p->seats[i];
        if (team_of(seat) != side) to_come &= ~p->held[seat];
    }
    return (to_come & beats) ? 0 : side + 1;
}

static int last_trick(const Game *g, const Pos *p, int team) {
    int leader = p->to_play;
    int led = lowest_index(p->held[leader]) >> 3;
    int trump = g->single < 0 ? g->trump : -1;
    int points = g->bonus;
    int best_key = -1, winner = leader;
    for (int seat = 0; seat < 4; seat++) {
        uint32_t held = p->held[seat];
        if (held == 0) continue;
        int card = lowest_index(held);
        points += CARD_POINTS[card];
        int place = card & 7;
        int rank = g->reverse ? place : 7 - place;
        int key = card >> 3 == trump ? 17 + rank : (card >> 3 == led ? 1 + rank : 0);
        if (key > best_key) {
            best_key = key;
            winner = seat;
        }
    }
    return team_of(winner) == team ? points : 0;
}

static inline int trick_key(const Game *g, int card, int led) { return g->strength[led][card]; }

static void fill_strengths(Game *g) {
    for (int led = 0; led < 4; led++)
        for (int card = 0; card < 32; card++) {
            int place = card & 7;
            int rank = g->reverse ? place : 7 - place;
            int key = card >> 3 == g->trump ? 17 + rank : (card >> 3 == led ? 1 + rank : 0);
            g->strength[led][card] = (uint8_t)key;
        }
}

static inline uint32_t follow(uint32_t hand, int led) {
    uint32_t suit = hand & SUIT_MASK[led];
    return suit ? suit : hand;
}

/* The cards of ``hand`` that play differently in the plain loops: of each run of cards of
 * one suit that score alike with no other live card between them, the first (the
 * strongest). The Jack and the nine score alone; the ten goes with an Ace of the same hand;
 * the King to the seven, by LOW_RUNS. */
static inline uint32_t distinct_cards(uint32_t hand, uint32_t live) {
    uint32_t out = hand & 0x03030303u;
    out |= hand & 0x0C0C0C0Cu & ~((hand & 0x04040404u) << 1);
    for (int shift = 4; shift < 32; shift += 8)
        out |= (uint32_t)LOW_RUNS[(hand >> shift & 15) << 4 | (live >> shift & 15)] << shift;
    return out;
}

static inline int next_card(uint32_t left, uint32_t first) {
    uint32_t preferred = left & first;
    return lowest_index(preferred ? preferred : left);
}

/* The lead to try next in the plain loops: those of ``first`` (a mask), then the strongest
 * card, whatever its suit. */
static inline int next_lead(uint32_t left, uint32_t first, int reversed) {
    uint32_t preferred = left & first;
    if (preferred) return lowest_index(preferred);
    for (int step = 0; step < 8; step++) {
        int place = reversed ? 7 - step : step;
        uint32_t m = left & (0x01010101u << place);
        if (m) return lowest_index(m);
    }
    return lowest_index(left);
}

/* The last seat's card to try next in the plain loops: with the partner winning the trick,
 * the card with the most points; else the cheapest card that takes the trick, or failing
 * that the one with the fewest points. */
static inline int next_last(const Game *g, uint32_t left, int led, int win_key, int partner) {
    int best = -1, best_score = -1000;
    for (uint32_t rest = left; rest; rest &= rest - 1) {
        int card = lowest_index(rest);
        int key = g->strength[led][card];
        int score;
        if (partner)
            score = CARD_POINTS[card] * 32 - key;
        else if (key > win_key)
            score = 500 - key;
        else
            score = -CARD_POINTS[card] * 32 - key;
        if (score > best_score) {
            best_score = score;
            best = card;
        }
    }
    return best;
}

static inline int trick_winner(const Game *g, int seat0, int c0, int c1, int c2, int c3) {
    int led = c0 >> 3;
    int win = 0;
    int best_key = trick_key(g, c0, led);
    int key = trick_key(g, c1, led);
    if (key > best_key) {
        best_key = key;
        win = 1;
    }
    key = trick_key(g, c2, led);
    if (key > best_key) {
        best_key = key;
        win = 2;
    }
    if (trick_key(g, c3, led) > best_key) win = 3;
    return (seat0 + win * g->dir) & 3;
}

/* 1 + the winner, times 64, plus the points of the trick that go to ``team``. */
static inline int trick_points(const Game *g, int team, int seat0, int c0, int c1, int c2,
                               int c3) {
    int winner = trick_winner(g, seat0, c0, c1, c2, c3);
    int points = CARD_POINTS[c0] + CARD_POINTS[c1] + CARD_POINTS[c2] + CARD_POINTS[c3];
    return (winner + 1) * 64 + (team_of(winner) == team ? points : 0);
}

static int two_tricks(const Game *g, int team, int seat0, const uint32_t *hands, int alpha,
                      int beta) {
    uint32_t live = hands[0] | hands[1] | hands[2] | hands[3];
    int most = mask_points(live) + g->bonus;
    if (most <= alpha) return most;
    if (beta <= 0) return 0;
    int step = g->dir;
    int seat1 = (seat0 + step) & 3, seat2 = (seat1 + step) & 3, seat3 = (seat2 + step) & 3;
    uint32_t hand1 = distinct_cards(hands[seat1], live);
    uint32_t hand2 = distinct_cards(hands[seat2], live);
    uint32_t hand3 = distinct_cards(hands[seat3], live);
    int max0 = team_of(seat0) == team, max1 = !max0;
    int best0 = max0 ? -INF : INF;
    int low0 = alpha, high0 = beta;
    uint32_t left0 = distinct_cards(hands[seat0], live);
    while (left0 && low0 < high0) {
        int card0 = lowest_index(left0);
        left0 &= left0 - 1;
        int led = card0 >> 3;
        int best1 = max1 ? -INF : INF;
        int low1 = low0, high1 = high0;
        uint32_t left1 = follow(hand1, led);
        while (left1 && low1 < high1) {
            int card1 = lowest_index(left1);
            left1 &= left1 - 1;
            int best2 = max0 ? -INF : INF;
            int low2 = low1, high2 = high1;
            uint32_t left2 = follow(hand2, led);
            while (left2 && low2 < high2) {
                int card2 = lowest_index(left2);
                left2 &= left2 - 1;
                int best3 = max1 ? -INF : INF;
                int low3 = low2, high3 = high2;
                uint32_t left3 = follow(hand3, led);
                while (left3 && low3 < high3) {
                    int card3 = lowest_index(left3);
                    left3 &= left3 - 1;
                    int won = trick_points(g, team, seat0, card0, card1, card2, card3);
                    int leader = (won >> 6) - 1;
                    uint32_t played = (1u << card0) | (1u << card1) | (1u << card2) | (1u << card3);
                    int c0 = lowest_index(hands[leader] & ~played);
                    int c1 = lowest_index(hands[(leader + step) & 3] & ~played);
                    int c2 = lowest_index(hands[(leader + 2 * step) & 3] & ~played);
                    int c3 = lowest_index(hands[(leader + 3 * step) & 3] & ~played);
                    int last = trick_points(g, team, leader, c0, c1, c2, c3);
                    int value = (won & 63) + (last & 63);
                    if (team_of((last >> 6) - 1) == team) value += g->bonus;
                    if (max1) {
                        best3 = imax(best3, value);
                        low3 = imax(low3, value);
                    } else {
                        best3 = imin(best3, value);
                        high3 = imin(high3, value);
                    }
                }
                if (max0) {
                    best2 = imax(best2, best3);
                    low2 = imax(low2, best3);
                } else {
                    best2 = imin(best2, best3);
                    high2 = imin(high2, best3);
                }
            }
            if (max1) {
                best1 = imax(best1, best2);
                low1 = imax(low1, best2);
            } else {
                best1 = imin(best1, best2);
                high1 = imin(high1, best2);
            }
        }
        if (max0) {
            best0 = imax(best0, best1);
            low0 = imax(low0, best1);
        } else {
            best0 = imin(best0, best1);
            high0 = imin(high0, best1);
        }
    }
    return best0;
}

static int after_trick(Ctx *c, int team, int seat0, const uint32_t *hands, int alpha, int beta,
                       int tricks);

/* :func:`two_tricks`' exact value, through the cache of endings (the same in any deal with
 * the same rules bits: the key holds all that decides it). Called only where every card is
 * played, so at the lead of the seventh trick each hand holds two cards. */
static int two_cached(Ctx *c, int team, int seat0, const uint32_t *hands, int alpha, int beta) {
    const Game *g = &c->g;
    uint32_t live = hands[0] | hands[1] | hands[2] | hands[3];
    if (g->bonus > 1) return two_tricks(g, team, seat0, hands, alpha, beta);
    int most = mask_points(live) + g->bonus;
    if (most <= alpha) return most;
    if (beta <= 0) return 0;
    /* Each hand's two cards (lowest and highest index, five bits each) make the key, with
     * the leader and what of the rules decides the ending. */
    uint64_t key = (uint64_t)seat0 << 40 | c->rules_bits << 42;
    for (int seat = 0; seat < 4; seat++) {
        uint32_t h = hands[seat];
        key |= (uint64_t)(lowest_index(h) | (31 - __builtin_clz(h)) << 5) << (10 * seat);
    }
    uint64_t *slot = c->endings + (((key * 0x9E3779B97F4A7C15ull) >> (64 - ENDINGS_BITS)));
    int north_south;
    if ((*slot & ((1ull << 56) - 1)) == key && *slot)
        north_south = (int)(*slot >> 56);
    else {
        north_south = two_tricks(g, 0, seat0, hands, -INF, INF);
        *slot = key | (uint64_t)north_south << 56;
    }
    return team == 0 ? north_south : mask_points(live) + g->bonus - north_south;
}

/* The last ``tricks`` (3 to 5) tricks after the show trick by plain loops over the next
 * trick's lines: value * 64 + the best lead. */
static int64_t tricks_loop(Ctx *c, int tricks, int team, int seat0, const uint32_t *hands,
                           int alpha, int beta, uint32_t first) {
    const Game *g = &c->g;
    int step = g->dir;
    int seat1 = (seat0 + step) & 3, seat2 = (seat1 + step) & 3, seat3 = (seat2 + step) & 3;
    int max0 = team_of(seat0) == team, max1 = !max0;
    uint32_t trumps = g->trump < NO_SUIT ? SUIT_MASK[g->trump] : 0;
    uint32_t live = hands[0] | hands[1] | hands[2] | hands[3];
    uint32_t hand1 = distinct_cards(hands[seat1], live);
    uint32_t hand2 = distinct_cards(hands[seat2], live);
    uint32_t hand3 = distinct_cards(hands[seat3], live);
    int best0 = max0 ? -INF : INF;
    int best_lead = -1;
    int low0 = alpha, high0 = beta;
    uint32_t left0 = distinct_cards(hands[seat0], live);
    while (left0 && low0 < high0) {
        int card0 = next_lead(left0, first, g->reverse);
        left0 &= ~(1u << card0);
        int led = card0 >> 3;
        int best1 = max1 ? -INF : INF;
        int low1 = low0, high1 = high0;
        uint32_t left1 = follow(hand1, led);
        while (left1 && low1 < high1) {
            int card1 = next_card(left1, trumps);
            left1 &= ~(1u << card1);
            int best2 = max0 ? -INF : INF;
            int low2 = low1, high2 = high1;
            uint32_t left2 = follow(hand2, led);
            while (left2 && low2 < high2) {
                int card2 = next_card(left2, trumps);
                left2 &= ~(1u << card2);
                int best3 = max1 ? -INF : INF;
                int low3 = low2, high3 = high2;
                uint32_t left3 = follow(hand3, led);
                int k0 = g->strength[led][card0], k1 = g->strength[led][card1];
                int k2 = g->strength[led][card2];
                int win_key = imax(k0, imax(k1, k2));
                int partner_wins = k1 > k0 && k1 > k2; /* seat1 is seat3's partner */
                while (left3 && low3 < high3) {
                    int card3 = next_last(g, left3, led, win_key, partner_wins);
                    left3 &= ~(1u << card3);
                    int won = trick_points(g, team, seat0, card0, card1, card2, card3);
                    uint32_t played =
                        ~((1u << card0) | (1u << card1) | (1u << card2) | (1u << card3));
                    uint32_t rest[4] = {hands[0] & played, hands[1] & played, hands[2] & played,
                                        hands[3] & played};
                    int sub;
                    if (tricks == 3)
                        sub = two_cached(c, team, (won >> 6) - 1, rest, low3 - (won & 63),
                                         high3 - (won & 63));
                    else
                        sub = after_trick(c, team, (won >> 6) - 1, rest, low3 - (won & 63),
                                          high3 - (won & 63), tricks - 1);
                    int value = (won & 63) + sub;
                    if (max1) {
                        best3 = imax(best3, value);
                        low3 = imax(low3, value);
                    } else {
                        best3 = imin(best3, value);
                        high3 = imin(high3, value);
                    }
                }
                if (max0) {
                    best2 = imax(best2, best3);
                    low2 = imax(low2, best3);
                } else {
                    best2 = imin(best2, best3);
                    high2 = imin(high2, best3);
                }
            }
            if (max1) {
                best1 = imax(best1, best2);
                low1 = imax(low1, best2);
            } else {
                best1 = imin(best1, best2);
                high1 = imin(high1, best2);
            }
        }
        if (best_lead < 0 || (max0 ? best1 > best0 : best1 < best0)) best_lead = card0;
        if (max0) {
            best0 = imax(best0, best1);
            low0 = imax(low0, best1);
        } else {
            best0 = imin(best0, best1);
            high0 = imin(high0, best1);
        }
    }
    return (int64_t)best0 * 64 + (best_lead & 63);
}

/* -- the transposition table ------------------------------------------------------------- */
/* ``key`` is the 40-bit key with the generation above it. */
static inline Entry *tt_bucket(Entry *tt, uint64_t key, uint64_t owners) {
    uint64_t mixed = key ^ (owners << 13) ^ (owners >> 29);
    return tt + ((mixed * 0x5851F42D4C957F2Dull) >> (64 - TT_BUCKET_BITS)) * 4;
}

static inline Entry *tt_lookup(Entry *tt, uint64_t key, uint64_t owners) {
    Entry *e = tt_bucket(tt, key, owners);
    for (int i = 0; i < 4; i++)
        if ((e[i].key & KEY_GEN_MASK) == key && (e[i].owners & OWNERS_MASK) == owners)
            return e + i;
    return NULL;
}

static inline int entry_low(const Entry *e) { return (int)(e->owners >> 50 & 63); }
static inline int entry_high(const Entry *e) {
    int high = (int)(e->owners >> 56 & 63);
    return high == NO_BOUND ? INF : high;
}
static inline int entry_move(const Entry *e) {
    int move = (int)(e->key >> 58);
    return move == NO_MOVE ? -1 : move;
}

/* The entry to write ``key`` to: its own; else one of another deal (or empty); else the one
 * with the fewest cards left, the cheapest to search again. */
static inline Entry *tt_place(Entry *tt, uint64_t key, uint64_t owners) {
    Entry *e = tt_bucket(tt, key, owners);
    uint64_t generation = key >> KEY_BITS;
    Entry *victim = NULL;
    int fewest = 99;
    for (int i = 0; i < 4; i++) {
        uint64_t other = e[i].key & KEY_GEN_MASK;
        if (other == key && (e[i].owners & OWNERS_MASK) == owners) return e + i;
        if (other >> KEY_BITS != generation) {
            if (fewest >= 0) {
                victim = e + i;
                fewest = -1;
            }
            continue;
        }
        int cards = popcount((uint32_t)other);
        if (cards < fewest) {
            fewest = cards;
            victim = e + i;
        }
    }
    victim->key = 0;
    victim->owners = 0;
    return victim;
}

static void tt_store(Entry *tt, uint64_t key, uint64_t owners, int best, int mine, int low,
                     int high, int move) {
    Entry *e = tt_place(tt, key, owners);
    int lo = 0, hi = INF;
    if ((e->key & KEY_GEN_MASK) == key) {
        lo = entry_low(e);
        hi = entry_high(e);
    }
    int rel = best - mine;
    if (best <= low)
        hi = imin(hi, rel);
    else if (best >= high)
        lo = imax(lo, rel);
    else
        lo = hi = rel;
    e->key = key | (uint64_t)(move < 0 ? NO_MOVE : move) << 58;
    e->owners = owners | (uint64_t)lo << 50 | (uint64_t)imin(hi, NO_BOUND) << 56;
}

/* The cards left by their relative ranks: positions that differ only in which of the cards
 * that score alike (the Ace and the ten; the King, Queen, eight and seven) have gone play
 * alike and get one key. In each suit the live cards of those two groups move up to the top
 * of their group (the Jack and the nine stay); their owners, in order, two bits each, make
 * the second word, with a flag bit (1 << 48) that keeps these keys apart from the plain
 * ones. */
static inline void canonical_cards(const uint32_t *hands, uint64_t *mask_out,
                                   uint64_t *owners_out) {
    uint32_t live = hands[0] | hands[1] | hands[2] | hands[3];
    uint32_t odd = hands[1] | hands[3];
    uint32_t high = hands[2] | hands[3];
    uint32_t mask = 0;
    uint64_t owners = 0;
    for (int suit = 0; suit < 4; suit++) {
        int shift = suit * 8;
        int byte = live >> shift & 0xFF;
        mask |= (uint32_t)CANON_BYTE[byte] << shift;
        int group = byte >> 2; /* places 2 to 7 */
        if (!group) continue;
        int code = SPREAD6[COMPRESS6[group][odd >> (shift + 2) & 63]] |
                   SPREAD6[COMPRESS6[group][high >> (shift + 2) & 63]] << 1;
        owners = owners << (2 * POP6[group]) | (uint64_t)code;
    }
    *mask_out = mask;
    *owners_out = owners | (uint64_t)1 << 48;
}

static inline void tt_key(const Game *g, const Pos *p, uint64_t *key_out, uint64_t *owners_out) {
    uint64_t key = p->held[0] | p->held[1] | p->held[2] | p->held[3];
    uint64_t owners = 0;
    if ((p->shown || p->face_down < 0) && !(g->pair_open && g->end_decided))
        canonical_cards(p->held, &key, &owners);
    key |= (uint64_t)p->to_play << 32;
    key |= (uint64_t)p->shown << 34;
    if (g->end_decided) key |= (uint64_t)p->points[g->team] << 35;
    *key_out = key | (g->generation << KEY_BITS);
    *owners_out = owners;
}

static int after_trick(Ctx *c, int team, int seat0, const uint32_t *hands, int alpha, int beta,
                       int tricks) {
    const Game *g = &c->g;
    uint32_t live = hands[0] | hands[1] | hands[2] | hands[3];
    int least = 0;
    int most = mask_points(live) + g->bonus;
    int sure = top_trumps(g, live, hands[1] | hands[3]);
    if (sure > 0) {
        if ((sure >> 1 & 1) == team)
            least = sure >> 2;
        else
            most -= sure >> 2;
    }
    if (least >= beta || least == most) return least;
    if (most <= alpha) return most;
    uint64_t mask, owners;
    canonical_cards(hands, &mask, &owners);
    uint64_t key = mask | (uint64_t)seat0 << 32 | (uint64_t)1 << 34 | g->generation << KEY_BITS;
    Entry *e = tt_lookup(c->tt, key, owners);
    uint32_t first = 0;
    if (e) {
        int lo = entry_low(e), hi = entry_high(e);
        if (lo >= beta || lo == hi) return lo;
        if (hi <= alpha) return hi;
        alpha = imax(alpha, lo);
        beta = imin(beta, hi);
        if (entry_move(e) >= 0) first = 1u << entry_move(e);
    }
    int64_t found = tricks_loop(c, tricks, team, seat0, hands, alpha, beta, first);
    int value = (int)(found >> 6);
    tt_store(c->tt, key, owners, value, 0, alpha, beta, (int)(found & 63));
    return value;
}

/* The last trick from its lead, one card in each hand: what it brings ``team``. */
static inline int last_of_hands(const Game *g, int team, int leader, const uint32_t *hands) {
    int step = g->dir;
    int c0 = lowest_index(hands[leader]), c1 = lowest_index(hands[(leader + step) & 3]);
    int c2 = lowest_index(hands[(leader + 2 * step) & 3]);
    int c3 = lowest_index(hands[(leader + 3 * step) & 3]);
    int last = trick_points(g, team, leader, c0, c1, c2, c3);
    return (last & 63) + (team_of((last >> 6) - 1) == team ? g->bonus : 0);
}

/* After the show, inside a trick from the third on, where the plain loops take the tricks
 * after it: the rest of the trick by plain loops over the cards of the seats still to play
 * (``options`` the legal cards of the seat to play, ``live`` every card in hands or on the
 * table), then the tricks after it. The points still to come for ``team``, this trick's
 * included, fail-soft within (alpha, beta). */
static int rest_of_trick(Ctx *c, int team, uint32_t *hands, int *cards, int n, int seat0,
                         int trick_no, uint32_t options, uint32_t live, int alpha, int beta) {
    const Game *g = &c->g;
    int step = g->dir;
    int led = cards[0] >> 3;
    int seat = (seat0 + n * step) & 3;
    int maximize = team_of(seat) == team;
    int best = maximize ? -INF : INF;
    uint32_t trumps = g->trump < NO_SUIT ? SUIT_MASK[g->trump] : 0;
    uint32_t left = distinct_cards(options, live);
    int win_key = 0, partner = 0;
    if (n == 3) {
        int k0 = g->strength[led][cards[0]], k1 = g->strength[led][cards[1]];
        int k2 = g->strength[led][cards[2]];
        win_key = imax(k0, imax(k1, k2));
        partner = k1 > k0 && k1 > k2; /* seat1 is seat3's partner */
    }
    while (left && alpha < beta) {
        int card = n == 3 ? next_last(g, left, led, win_key, partner) : next_card(left, trumps);
        left &= ~(1u << card);
        int value;
        hands[seat] ^= 1u << card;
        cards[n] = card;
        if (n < 3) {
            value = rest_of_trick(c, team, hands, cards, n + 1, seat0, trick_no,
                                  follow(hands[(seat + step) & 3], led), live, alpha, beta);
        } else {
            int won = trick_points(g, team, seat0, cards[0], cards[1], cards[2], cards[3]);
            int points = won & 63, leader = (won >> 6) - 1;
            int next = trick_no + 1;
            if (next >= 8)
                value = points + (team_of(leader) == team ? g->bonus : 0);
            else if (next == 7)
                value = points + last_of_hands(g, team, leader, hands);
            else if (next == 6)
                value = points + two_cached(c, team, leader, hands, alpha - points, beta - points);
            else
                value = points + after_trick(c, team, leader, hands, alpha - points,
                                             beta - points, 8 - next);
        }
        hands[seat] ^= 1u << card;
        if (maximize) {
            if (value > best) best = value;
            if (best > alpha) alpha = best;
        } else {
            if (value < best) best = value;
            if (best < beta) beta = best;
        }
    }
    return best;
}

/* -- the reply table and move ordering ----------------------------------------------------- */
static inline int64_t reply_key(const Pos *p) {
    int64_t table = 0;
    for (int i = 0; i < p->n_trick; i++) table |= (int64_t)1 << p->cards[i];
    int64_t held = p->held[p->to_play];
    return ((table ^ (held << 29)) | ((int64_t)p->shown << 61)) + 1;
}

static inline Reply *reply_slot(Ctx *c, int64_t key) {
    return c->reply + ((key ^ (key >> 17) ^ (key >> 35)) & (REPLY_SIZE - 1));
}

static inline int64_t move_score(const Game *g, const Pos *p, int move, int best_move,
                                 int killer, int win_key, int partner) {
    if (move == best_move) return (int64_t)1 << 40;
    if (move == killer) return (int64_t)1 << 39;
    if (move == SHOW) return 1000;
    int place = move & 7;
    int rank = (p->shown && g->reverse) ? place : 7 - place;
    int points = CARD_POINTS[move];
    if (win_key == 0) {
        /* A lead: one that takes the trick (the highest card of its suit left, no opponent
         * able to ruff) first, then a low lead to the partner's highest card, then the rest
         * strongest first. */
        int seat = p->to_play, suit = move >> 3;
        uint32_t suit_mask = SUIT_MASK[suit];
        uint32_t trumps = g->trump < NO_SUIT && suit != g->trump ? SUIT_MASK[g->trump] : 0;
        int ruff = 0;
        for (int other = 1; other < 4; other += 2) {
            uint32_t h = p->held[(seat + other) & 3];
            if (!(h & suit_mask) && (h & trumps)) ruff = 1;
        }
        if (!ruff && !(p->shown && g->reverse)) {
            uint32_t higher = suit_mask & ((1u << move) - 1);
            uint32_t opp = p->held[(seat + 1) & 3] | p->held[(seat + 3) & 3];
            uint32_t partner_cards = p->held[(seat + 2) & 3];
            if (!(higher & (opp | partner_cards))) return 400 + points * 16 + rank;
            uint32_t opp_suit = opp & suit_mask, part_suit = partner_cards & suit_mask;
            if (part_suit && (!opp_suit || (part_suit & -part_suit) < (opp_suit & -opp_suit)))
                return 200 + points * 16 - rank;
        }
        return rank * 4 + points;
    }
    int key = card_key(g, p, move, p->shown);
    if (key <= win_key) {
        if (partner) return points * 8 - rank;
        return -points * 8 - rank;
    }
    return key * 4 + points;
}

static int order_moves(const Game *g, const Pos *p, uint32_t live, int *moves, int n,
                       int best_move, int killer) {
    int kept = 0, prev = -1;
    for (int i = 0; i < n; i++) {
        int move = moves[i];
        if (prev >= 0 && move != SHOW && equivalent(g, p, live, prev, move)) {
            prev = move;
            continue;
        }
        prev = move != SHOW ? move : -1;
        moves[kept++] = move;
    }
    if (kept < 2) return kept;
    int win_key = 0, partner = 0;
    if (p->n_trick) {
        int slot = winning(g, p, p->shown);
        win_key = card_key(g, p, p->cards[slot], p->shown);
        partner = team_of(p->seats[slot]) == team_of(p->to_play) ? 1 : 0;
    }
    int64_t scores[MAX_MOVES];
    for (int i = 0; i < kept; i++)
        scores[i] = move_score(g, p, moves[i], best_move, killer, win_key, partner);
    for (int i = 1; i < kept; i++) {
        int move = moves[i];
        int64_t score = scores[i];
        int j = i - 1;
        while (j >= 0 && scores[j] < score) {
            moves[j + 1] = moves[j];
            scores[j + 1] = scores[j];
            j--;
        }
        moves[j + 1] = move;
        scores[j + 1] = score;
    }
    return kept;
}

/* -- the search ----------------------------------------------------------------------------- */
/* The caller's side's final card points at ``pos``, fail-soft within (alpha, beta). */
static int search(Ctx *c, const Pos *pos, int alpha, int beta) {
    const Game *g = &c->g;
    c->nodes++;
    Pos p = *pos;
    int team = g->team;
    int moves[MAX_MOVES];
    int n;
    uint64_t key, owners;
    int best_move;
    uint32_t live;
    int mine;
    for (;;) {
        mine = p.points[team];
        if (p.over || mine >= beta) return mine;
        live = p.held[0] | p.held[1] | p.held[2] | p.held[3];
        if (!p.shown && g->plain_show && !((live_cards(&p)) & SUIT_MASK[g->trump])) {
            /* No trump left in hands or on the table: showing changes nothing, so the
             * position plays as if shown (the plain loops and the shown entries serve it). */
            p.shown = 1;
            p.asker_must = 0;
        }
        int most = mine + mask_points(live);
        for (int i = 0; i < p.n_trick; i++) most += CARD_POINTS[p.cards[i]];
        if (p.trick_no < 8) most += g->bonus;
        int least = mine;
        if (p.shown && g->single < 0 && !g->end_decided && g->trump < 4) {
            int taken = p.n_trick ? trick_taken(g, &p) : 0;
            if (taken) {
                int table = 0;
                for (int i = 0; i < p.n_trick; i++) table += CARD_POINTS[p.cards[i]];
                if (taken - 1 == team)
                    least += table;
                else
                    most -= table;
            }
            int sure = sure_trumps(g, &p, taken);
            if (sure > 0) {
                if ((sure >> 1 & 1) == team)
                    least += sure >> 2;
                else
                    most -= sure >> 2;
            }
        } else if (g->single < 0 && !g->end_decided && g->trump < 4 && p.face_down < 0 &&
                   !g->reverse) {
            int sure = sure_trumps(g, &p, 1);
            if (sure > 0) {
                if ((sure >> 1 & 1) == team)
                    least += sure >> 2;
                else
                    most -= sure >> 2;
            }
        }
        if (least >= beta) return least;
        if (most <= alpha) return most;
        if (most == least) return least;
        beta = imin(beta, most);
        alpha = imax(alpha, least);
        if (p.n_trick == 0 && p.shown) {
            if (p.trick_no == 7) return mine + last_trick(g, &p, team);
            if (p.trick_no == 6 && g->single < 0 && !g->end_decided)
                return mine + two_cached(c, team, p.to_play, p.held, alpha - mine, beta - mine);
        }
        key = 0;
        owners = 0;
        best_move = -1;
        if (p.n_trick == 0) {
            tt_key(g, &p, &key, &owners);
            Entry *e = tt_lookup(c->tt, key, owners);
            if (e) {
                int lo = entry_low(e) + mine, hi = entry_high(e) + mine;
                if (lo >= beta || lo == hi) return lo;
                if (hi <= alpha) return hi;
                alpha = imax(alpha, lo);
                beta = imin(beta, hi);
                best_move = entry_move(e);
            }
            int plain = p.shown && g->single < 0 && !g->end_decided;
            if (plain && p.trick_no >= 3 && p.trick_no <= 5) {
                uint32_t first = best_move >= 0 ? 1u << best_move : 0;
                int64_t found = tricks_loop(c, 8 - p.trick_no, team, p.to_play, p.held,
                                            alpha - mine, beta - mine, first);
                int value = mine + (int)(found >> 6);
                tt_store(c->tt, key, owners, value, mine, alpha, beta, (int)(found & 63));
                return value;
            }
        }
        n = legal_moves(g, &p, moves);
        if (n == 0) return mine;
        if (p.n_trick && p.shown && p.trick_no >= 2 && g->single < 0 && !g->end_decided &&
            !p.seventh_turn) {
            uint32_t options = 0, hands[4] = {p.held[0], p.held[1], p.held[2], p.held[3]};
            int cards[4];
            for (int i = 0; i < n; i++) options |= 1u << moves[i];
            for (int i = 0; i < p.n_trick; i++) {
                cards[i] = p.cards[i];
                live |= 1u << p.cards[i];
            }
            return mine + rest_of_trick(c, team, hands, cards, p.n_trick, p.seats[0], p.trick_no,
                                        options, live, alpha - mine, beta - mine);
        }
        if (n > 1) break;
        apply_move(g, &p, moves[0]);
    }
    for (int i = 0; i < p.n_trick; i++) live |= 1u << p.cards[i];
    int64_t reply = 0;
    Reply *reply_at = NULL;
    if (key == 0) {
        reply = reply_key(&p);
        reply_at = reply_slot(c, reply);
        if (reply_at->key == reply) best_move = (int)reply_at->move;
    }
    int maximize = team_of(p.to_play) == team;
    /* At a lead, after the table's move, the lead that last made a cut at this trick for this
     * side (inside a trick such killer moves searched more). */
    n = order_moves(g, &p, live, moves, n, best_move, key ? c->killer[p.trick_no][maximize] : -1);
    int best = maximize ? -INF : INF;
    int low = alpha, high = beta;
    int best_found = moves[0];
    for (int i = 0; i < n; i++) {
        Pos child = p;
        apply_move(g, &child, moves[i]);
        int value = search(c, &child, alpha, beta);
        if (maximize) {
            if (value > best) {
                best = value;
                best_found = moves[i];
                alpha = imax(alpha, best);
            }
        } else if (value < best) {
            best = value;
            best_found = moves[i];
            beta = imin(beta, best);
        }
        if (alpha >= beta) {
            if (key) c->killer[p.trick_no][maximize] = moves[i];
            break;
        }
    }
    if (key)
        tt_store(c->tt, key, owners, best, mine, low, high, best_found);
    else {
        reply_at->key = reply;
        reply_at->move = best_found;
    }
    return best;
}

static int exact_value(Ctx *c, const Pos *p, int guess) {
    const Game *g = &c->g;
    int lower = p->points[g->team];
    int upper = lower + mask_points(live_cards(p)) + g->bonus;
    int steps = guess >= 0 ? 4 : 0;
    int test = guess >= 0 ? imin(imax(guess, lower + 1), upper) : (lower + upper + 1) / 2;
    while (lower < upper) {
        int value = search(c, p, test - 1, test);
        if (value >= test) {
            lower = value;
            test = lower + 1;
        } else {
            upper = value;
            test = upper;
        }
        steps--;
        if (steps < 0) test = (lower + upper + 1) / 2;
    }
    return lower;
}

static int solve_root(Ctx *c, const Pos *p, int *moves, int *values) {
    const Game *g = &c->g;
    int n = legal_moves(g, p, moves);
    uint32_t live = live_cards(p);
    int prev = -1, guess = -1;
    for (int i = 0; i < n; i++) {
        int move = moves[i];
        if (prev >= 0 && move != SHOW && equivalent(g, p, live, prev, move)) {
            values[i] = values[i - 1];
            prev = move;
            continue;
        }
        prev = move != SHOW ? move : -1;
        Pos child = *p;
        apply_move(g, &child, move);
        values[i] = exact_value(c, &child, guess);
        guess = values[i];
    }
    return n;
}

/* -- Python glue ------------------------------------------------------------------------------ */
static int read_ints(PyObject *seq, long *out, Py_ssize_t want, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != want) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd ints", what, want);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < want; i++) {
        out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

static int read_position(PyObject *row_obj, PyObject *rules_obj, Game *g, Pos *p) {
    long row[W], ru[RW];
    if (read_ints(row_obj, row, W, "position row") < 0) return -1;
    if (read_ints(rules_obj, ru, RW, "rules row") < 0) return -1;
    memset(g, 0, sizeof *g);
    memset(p, 0, sizeof *p);
    g->show = (int)ru[R_SHOW];
    g->must_trump = (int)ru[R_MUST_TRUMP];
    g->must_overtrump = (int)ru[R_MUST_OVERTRUMP];
    g->pagat = (int)ru[R_PAGAT];
    g->end_decided = (int)ru[R_END_DECIDED];
    g->total = (int)ru[R_TOTAL];
    g->bonus = (int)ru[R_BONUS];
    g->pair_lowers_from = (int)ru[R_PAIR_LOWERS_FROM];
    g->pair_points = (int)ru[R_PAIR_POINTS];
    g->min_bid = (int)ru[R_MIN_BID];
    g->max_bid = (int)ru[R_MAX_BID];
    g->under_half = (int)ru[R_UNDER_HALF];
    g->dir = (int)ru[R_DIR];
    g->generation = (uint64_t)ru[R_GENERATION];
    g->trump = (int)row[TRUMP];
    g->reverse = (int)row[REVERSE];
    g->caller = (int)row[CALLER];
    g->seventh = (int)row[SEVENTH];
    g->single = (int)row[SINGLE];
    g->team = (int)row[TEAM];
    g->target = (int)row[TARGET];
    g->call = (int)row[CALL];
    g->pair_open = (int)row[PAIR_OPEN];
    fill_strengths(g);
    for (int s = 0; s < 4; s++) p->held[s] = (uint32_t)row[HELD + s];
    g->plain_show = g->trump >= 0 && g->trump < NO_SUIT && !g->end_decided && !g->pair_open &&
                    g->single < 0 && !g->reverse && !g->seventh && !g->pagat &&
                    (int)row[FACE_DOWN] < 0;
    p->to_play = (int)row[TO_PLAY];
    p->led = (int)row[LED];
    p->n_trick = (int)row[N_TRICK];
    for (int i = 0; i < 4; i++) {
        p->seats[i] = (int)row[TRICK_SEATS + i];
        p->cards[i] = (int)row[TRICK_CARDS + i];
    }
    p->shown = (int)row[SHOWN];
    p->asker = (int)row[ASKER];
    p->asker_must = (int)row[ASKER_MUST];
    p->face_down = (int)row[FACE_DOWN];
    p->seventh_turn = (int)row[SEVENTH_TURN];
    p->points[0] = (int)row[POINTS];
    p->points[1] = (int)row[POINTS + 1];
    p->trick_no = (int)row[TRICK_NO];
    p->over = (int)row[OVER];
    if (p->n_trick < 0 || p->n_trick > 3 || p->to_play < 0 || p->to_play > 3 || g->dir < 0) {
        PyErr_SetString(PyExc_ValueError, "position row out of range");
        return -1;
    }
    return 0;
}

#define TT_BYTES ((Py_ssize_t)TT_BUCKETS * 4 * (Py_ssize_t)sizeof(Entry))
#define REPLY_BYTES ((Py_ssize_t)REPLY_SIZE * (Py_ssize_t)sizeof(Reply))
#define TABLE_BYTES (64 + TT_BYTES + REPLY_BYTES + (Py_ssize_t)ENDINGS_SIZE * 8)

static int take_table(PyObject *table, Py_buffer *view, Ctx *c) {
    if (PyObject_GetBuffer(table, view, PyBUF_WRITABLE) < 0) return -1;
    if (view->len < TABLE_BYTES) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "the table needs %zd bytes", TABLE_BYTES);
        return -1;
    }
    char *aligned = (char *)(((uintptr_t)view->buf + 63) & ~(uintptr_t)63);
    c->tt = (Entry *)aligned;
    c->reply = (Reply *)(aligned + TT_BYTES);
    c->endings = (uint64_t *)(aligned + TT_BYTES + REPLY_BYTES);
    c->rules_bits = (uint64_t)c->g.trump | (uint64_t)(c->g.reverse != 0) << 3 |
                    (uint64_t)(c->g.dir == 1) << 4 | (uint64_t)(c->g.bonus != 0) << 5;
    if (c->g.generation <= 0 || c->g.generation >= GENERATIONS) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "the generation is out of range");
        return -1;
    }
    c->nodes = 0;
    memset(c->killer, 0xff, sizeof c->killer);
    return 0;
}

static PyObject *py_table_size(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    return PyLong_FromSsize_t(TABLE_BYTES);
}

#ifndef KERNEL_SOURCE_SHA256
#define KERNEL_SOURCE_SHA256 ""
#endif

static PyObject *py_source_sha256(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    return PyUnicode_FromString(KERNEL_SOURCE_SHA256);
}

static PyObject *py_generations(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    return PyLong_FromLong(GENERATIONS);
}

static PyObject *py_legal_moves(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *row, *rules;
    if (!PyArg_ParseTuple(args, "OO", &row, &rules)) return NULL;
    Game g;
    Pos p;
    if (read_position(row, rules, &g, &p) < 0) return NULL;
    int moves[MAX_MOVES];
    int n = legal_moves(&g, &p, moves);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(moves[i]));
    return out;
}

/* solve_root(row, rules, table) -> (moves, values, nodes) */
static PyObject *py_solve_root(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *row, *rules, *table;
    if (!PyArg_ParseTuple(args, "OOO", &row, &rules, &table)) return NULL;
    Ctx c;
    Pos p;
    if (read_position(row, rules, &c.g, &p) < 0) return NULL;
    Py_buffer view;
    if (take_table(table, &view, &c) < 0) return NULL;
    int moves[MAX_MOVES], values[MAX_MOVES];
    int n;
    Py_BEGIN_ALLOW_THREADS
    n = solve_root(&c, &p, moves, values);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    PyObject *m = PyList_New(n), *v = PyList_New(n);
    if (!m || !v) {
        Py_XDECREF(m);
        Py_XDECREF(v);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        PyList_SET_ITEM(m, i, PyLong_FromLong(moves[i]));
        PyList_SET_ITEM(v, i, PyLong_FromLong(values[i]));
    }
    return Py_BuildValue("NNL", m, v, (long long)c.nodes);
}

/* exact_value(row, rules, table) -> (value, nodes) */
static PyObject *py_exact_value(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *row, *rules, *table;
    if (!PyArg_ParseTuple(args, "OOO", &row, &rules, &table)) return NULL;
    Ctx c;
    Pos p;
    if (read_position(row, rules, &c.g, &p) < 0) return NULL;
    Py_buffer view;
    if (take_table(table, &view, &c) < 0) return NULL;
    int value;
    Py_BEGIN_ALLOW_THREADS
    value = exact_value(&c, &p, -1);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    return Py_BuildValue("iL", value, (long long)c.nodes);
}

/* probe(row, rules, table, target) -> (reached, nodes) */
static PyObject *py_probe(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *row, *rules, *table;
    int target;
    if (!PyArg_ParseTuple(args, "OOOi", &row, &rules, &table, &target)) return NULL;
    Ctx c;
    Pos p;
    if (read_position(row, rules, &c.g, &p) < 0) return NULL;
    Py_buffer view;
    if (take_table(table, &view, &c) < 0) return NULL;
    int value;
    Py_BEGIN_ALLOW_THREADS
    value = search(&c, &p, target - 1, target);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    return Py_BuildValue("OL", value >= target ? Py_True : Py_False, (long long)c.nodes);
}

static PyMethodDef methods[] = {
    {"table_size", py_table_size, METH_NOARGS, "Bytes of the table the searches take."},
    {"source_sha256", py_source_sha256, METH_NOARGS,
     "The SHA-256 of the source this kernel was built from (empty if the build named none)."},
    {"generations", py_generations, METH_NOARGS,
     "Deals a table tells apart: generations run from 1 to this less one."},
    {"legal_moves", py_legal_moves, METH_VARARGS, "The legal moves at a position row."},
    {"solve_root", py_solve_root, METH_VARARGS,
     "Every legal move with its exact value: (moves, values, nodes)."},
    {"exact_value", py_exact_value, METH_VARARGS, "The exact value: (value, nodes)."},
    {"probe", py_probe, METH_VARARGS, "Whether the caller's side reaches a target: (bool, nodes)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ckernel", "The solver's search kernel, compiled.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__ckernel(void) {
    fill_tables();
    return PyModule_Create(&module);
}
