/* A plain-C peer for arbor's light playout (issue 16), written for arbor's benches from the
 * rules alone: light playouts from the empty board, one core.
 *
 *   go_light_peer PLAYOUTS SEED
 *   -> playouts 100000 stones 107.031 black 41.900 seconds 0.850000
 *
 * Rules (the reference): each move is uniform over the empty points that are legal
 * under simple ko (suicide illegal) and do not fill the mover's own eye (all four neighbours
 * own or edge, and fewer than two opponent diagonals, the edge counting as one); a pass only
 * when no such point is left; two passes in a row or 3 * SIZE * SIZE turns (243 on 9x9) end
 * the playout, which is scored by stones plus empty points whose neighbours (the edge aside)
 * are all of one colour, with komi 7.5 for White.
 *
 * The engine is the classic kind: a padded one-dimensional board, strings as circular lists
 * of stones with pseudo-liberties (one per stone-empty adjacency) and their sum and sum of
 * squares, which tell atari without a walk (the string has one liberty exactly when
 * count * sum_of_squares == sum * sum), merging the smaller string into the larger; a list of
 * the empty points from which a candidate is drawn and a rejected one swapped out of the
 * drawing range; Marsaglia's xorshift128. The seconds printed are the playouts' own, start-up
 * excluded. SIZE is a compile-time constant (9 unless -DSIZE=n, 5 to 19). */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef SIZE
#define SIZE 9
#endif
#if SIZE < 5 || SIZE > 19
#error "SIZE must be from 5 to 19"
#endif

#define STRIDE (SIZE + 1)
#define CELLS (STRIDE * (SIZE + 2) + 1)
#define POINTS (SIZE * SIZE)
#define MAX_TURNS (3 * POINTS)
#define KOMI 7.5

enum { EMPTY = 0, BLACK = 1, WHITE = 2, EDGE = 3 };

typedef struct {
    uint8_t color[CELLS];
    /* Per stone: its string's id (a stone of the string) and the next stone of the string. */
    int16_t string[CELLS];
    int16_t next[CELLS];
    /* Per string id: stones, pseudo-liberties, their sum and sum of squares. */
    int32_t stones[CELLS];
    int32_t libs[CELLS];
    int32_t lib_sum[CELLS];
    int64_t lib_squares[CELLS];
    int16_t empties[POINTS];
    int16_t empty_at[CELLS];
    int empty_count;
    int ko; /* the simple-ko point, or 0 (always an edge cell) */
} Board;

static uint32_t rng_x, rng_y, rng_z, rng_w;

static void rng_seed(uint64_t seed) {
    /* SplitMix64 spreads the seed over the four words (never all zero). */
    uint32_t *words[4] = {&rng_x, &rng_y, &rng_z, &rng_w};
    for (int i = 0; i < 4; i++) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        *words[i] = (uint32_t)(z ^ (z >> 31)) | (i == 0);
    }
}

static inline uint32_t rng_next(void) {
    uint32_t t = rng_x ^ (rng_x << 11);
    rng_x = rng_y;
    rng_y = rng_z;
    rng_z = rng_w;
    rng_w = rng_w ^ (rng_w >> 19) ^ t ^ (t >> 8);
    return rng_w;
}

/* Uniform in 0..n-1 (n small): the high word of a 32x32-bit product. */
static inline int rng_below(int n) { return (int)(((uint64_t)rng_next() * (uint32_t)n) >> 32); }

static const int DIRS[4] = {-1, 1, -STRIDE, STRIDE};
static const int DIAGONALS[4] = {-STRIDE - 1, -STRIDE + 1, STRIDE - 1, STRIDE + 1};

static void board_clear(Board *b) {
    memset(b, 0, sizeof *b);
    memset(b->color, EDGE, sizeof b->color);
    for (int row = 1; row <= SIZE; row++) {
        for (int col = 1; col <= SIZE; col++) {
            int p = row * STRIDE + col;
            b->color[p] = EMPTY;
            b->empty_at[p] = (int16_t)b->empty_count;
            b->empties[b->empty_count++] = (int16_t)p;
        }
    }
}

static inline int in_atari(const Board *b, int s) {
    return (int64_t)b->libs[s] * b->lib_squares[s] == (int64_t)b->lib_sum[s] * b->lib_sum[s];
}

static inline void add_liberty(Board *b, int s, int p) {
    b->libs[s]++;
    b->lib_sum[s] += p;
    b->lib_squares[s] += p * p;
}

static inline void take_liberty(Board *b, int s, int p) {
    b->libs[s]--;
    b->lib_sum[s] -= p;
    b->lib_squares[s] -= p * p;
}

static inline void remove_empty(Board *b, int p) {
    int i = b->empty_at[p];
    int last = b->empties[--b->empty_count];
    b->empties[i] = (int16_t)last;
    b->empty_at[last] = (int16_t)i;
}

static inline void add_empty(Board *b, int p) {
    b->empty_at[p] = (int16_t)b->empty_count;
    b->empties[b->empty_count++] = (int16_t)p;
}

/* The own eye a light playout does not fill. */
static int is_own_eye(const Board *b, int p, int own) {
    for (int d = 0; d < 4; d++) {
        int c = b->color[p + DIRS[d]];
        if (c != own && c != EDGE) return 0;
    }
    int bad = 0, edge = 0;
    for (int d = 0; d < 4; d++) {
        int c = b->color[p + DIAGONALS[d]];
        bad += c == (own ^ 3);
        edge |= c == EDGE;
    }
    return bad + edge < 2;
}

/* Whether `own` may play on the empty point p that has no empty neighbour, ko aside: it
 * joins a string with another liberty, or captures a string in atari. */
static int is_legal_surrounded(const Board *b, int p, int own) {
    for (int d = 0; d < 4; d++) {
        int n = p + DIRS[d];
        int c = b->color[n];
        if (c == own && !in_atari(b, b->string[n])) return 1;
        if (c == (own ^ 3) && in_atari(b, b->string[n])) return 1;
    }
    return 0;
}

/* Merges the distinct strings a and b of one colour: the smaller joins the larger. Returns
 * the id of the result. */
static int merge(Board *b, int a, int s) {
    if (b->stones[a] < b->stones[s]) {
        int t = a;
        a = s;
        s = t;
    }
    int r = s;
    do {
        b->string[r] = (int16_t)a;
        r = b->next[r];
    } while (r != s);
    int t = b->next[a];
    b->next[a] = b->next[s];
    b->next[s] = (int16_t)t;
    b->stones[a] += b->stones[s];
    b->libs[a] += b->libs[s];
    b->lib_sum[a] += b->lib_sum[s];
    b->lib_squares[a] += b->lib_squares[s];
    return a;
}

/* Removes the captured string s; returns its stones. */
static int capture(Board *b, int s) {
    int removed = b->stones[s];
    int capturer = b->color[s] ^ 3;
    int r = s;
    do {
        int next = b->next[r];
        b->color[r] = EMPTY;
        add_empty(b, r);
        for (int d = 0; d < 4; d++) {
            int n = r + DIRS[d];
            /* Stones of the captured colour beside r belong to s and go too. */
            if (b->color[n] == capturer) add_liberty(b, b->string[n], r);
        }
        r = next;
    } while (r != s);
    return removed;
}

/* Plays `own` on the empty legal point p and sets the ko point. */
static void place(Board *b, int p, int own) {
    remove_empty(b, p);
    b->color[p] = (uint8_t)own;
    b->string[p] = (int16_t)p;
    b->next[p] = (int16_t)p;
    b->stones[p] = 1;
    b->libs[p] = b->lib_sum[p] = 0;
    b->lib_squares[p] = 0;
    int id = p;
    for (int d = 0; d < 4; d++) {
        int n = p + DIRS[d];
        int c = b->color[n];
        if (c == EMPTY) {
            add_liberty(b, id, n);
        } else if (c != EDGE) {
            take_liberty(b, b->string[n], p);
        }
    }
    int captured = 0, ko = 0;
    for (int d = 0; d < 4; d++) {
        int n = p + DIRS[d];
        int c = b->color[n];
        if (c == own) {
            int s = b->string[n];
            if (s != id) id = merge(b, id, s);
        } else if (c == (own ^ 3) && b->libs[b->string[n]] == 0) {
            captured += capture(b, b->string[n]);
            ko = n;
        }
    }
    /* A single stone that took a single stone and has one liberty, the taken point. */
    b->ko = (captured == 1 && b->stones[id] == 1 && b->libs[id] == 1) ? ko : 0;
}

/* Plays one light move for `own`; returns 1 for a stone, 0 for a pass. */
static int play_light_move(Board *b, int own) {
    int range = b->empty_count;
    while (range > 0) {
        int i = rng_below(range);
        int p = b->empties[i];
        int open = (b->color[p - 1] == EMPTY) | (b->color[p + 1] == EMPTY) |
                   (b->color[p - STRIDE] == EMPTY) | (b->color[p + STRIDE] == EMPTY);
        if (open || (p != b->ko && !is_own_eye(b, p, own) && is_legal_surrounded(b, p, own))) {
            place(b, p, own);
            return 1;
        }
        /* Swap the rejected point out of the drawing range. */
        range--;
        int q = b->empties[range];
        b->empties[range] = (int16_t)p;
        b->empties[i] = (int16_t)q;
        b->empty_at[p] = (int16_t)range;
        b->empty_at[q] = (int16_t)i;
    }
    b->ko = 0;
    return 0;
}

/* Black's score minus White's, komi aside. */
static int score(const Board *b) {
    int margin = 0;
    for (int row = 1; row <= SIZE; row++) {
        for (int col = 1; col <= SIZE; col++) {
            int p = row * STRIDE + col;
            int c = b->color[p];
            if (c == EMPTY) {
                int seen = 0;
                for (int d = 0; d < 4; d++) seen |= 1 << b->color[p + DIRS[d]];
                seen &= ~(1 << EDGE);
                c = seen == (1 << BLACK) ? BLACK : seen == (1 << WHITE) ? WHITE : EMPTY;
            }
            margin += (c == BLACK) - (c == WHITE);
        }
    }
    return margin;
}

int main(int argc, char **argv) {
    char *end1 = NULL, *end2 = NULL;
    long long playouts = argc == 3 ? strtoll(argv[1], &end1, 10) : -1;
    unsigned long long seed = argc == 3 ? strtoull(argv[2], &end2, 10) : 0;
    if (argc != 3 || *end1 || *end2 || playouts <= 0) {
        fprintf(stderr, "usage: %s PLAYOUTS SEED (PLAYOUTS > 0)\n", argv[0]);
        return 2;
    }
    rng_seed(seed);
    static Board empty, board;
    board_clear(&empty);
    struct timespec start, stop;
    clock_gettime(CLOCK_MONOTONIC, &start);
    long long stones = 0, black_wins = 0;
    for (long long i = 0; i < playouts; i++) {
        memcpy(&board, &empty, sizeof board);
        int own = BLACK, passes = 0;
        for (int turn = 0; turn < MAX_TURNS && passes < 2; turn++) {
            if (play_light_move(&board, own)) {
                stones++;
                passes = 0;
            } else {
                passes++;
            }
            own ^= 3;
        }
        black_wins += score(&board) > KOMI;
    }
    clock_gettime(CLOCK_MONOTONIC, &stop);
    double seconds = (double)(stop.tv_sec - start.tv_sec) + 1e-9 * (double)(stop.tv_nsec - start.tv_nsec);
    printf("playouts %lld stones %.3f black %.3f seconds %.6f\n", playouts,
           (double)stones / (double)playouts, 100.0 * (double)black_wins / (double)playouts, seconds);
    return 0;
}
