/* An in-run peer for arbor's raw Breakthrough playout (issue 14, point 5): the smallest C
 * program that plays the same uniformly random 8x8 games, for `benches/breakthrough_peer.rs`
 * to time beside arbor in one run (this machine's speed drifts from day to day, so only
 * figures from one run compare).
 *
 * It is written for the comparison, from the rules, with nothing but two bitboards: the
 * moves are three destination sets (straight onto an empty cell, the two diagonals onto a
 * cell without an own pawn), counted with POPCNT; the k-th move in the order straight, left,
 * right, each by ascending destination, is found with PDEP. It draws k as arbor does
 * (xorshift128 as `rand_xorshift` steps it, a multiply-high draw with rejection), so from the
 * same generator state it plays the very same games: the bench checks the plies' sum.
 *
 * Usage: breakthrough_peer GAMES X Y Z W
 * (X..W: the generator's four 32-bit words). Prints `plies P white_wins N ns NS`: the sum
 * of the games' plies, White's wins and the nanoseconds the games took (CLOCK_MONOTONIC). */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c99 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <immintrin.h>

struct rng {
    uint32_t x, y, z, w;
};

static inline uint32_t next_u32(struct rng *r) {
    uint32_t t = r->x ^ (r->x << 11);
    r->x = r->y;
    r->y = r->z;
    r->z = r->w;
    r->w = r->w ^ (r->w >> 19) ^ (t ^ (t >> 8));
    return r->w;
}

/* Uniform over 0..n-1 for n >= 1: the high half of a 32x32-bit product, rejecting the low
 * halves that would favour some results. */
static inline uint32_t below(struct rng *r, uint32_t n) {
    uint64_t product = (uint64_t)next_u32(r) * n;
    if ((uint32_t)product < n) {
        uint32_t threshold = (0u - n) % n;
        while ((uint32_t)product < threshold) product = (uint64_t)next_u32(r) * n;
    }
    return (uint32_t)(product >> 32);
}

#define FILE_A 0x0101010101010101ull
#define FILE_H 0x8080808080808080ull
#define WHITE_GOAL 0xFF00000000000000ull
#define BLACK_GOAL 0x00000000000000FFull

/* One move of the side owning `own`, moving by +8 (White) or -8 (Black). Returns 1 if the
 * mover won, -1 if it had no move (it lost), 0 otherwise. */
static inline __attribute__((always_inline)) int ply(struct rng *r, uint64_t *own, uint64_t *opp, int white) {
    uint64_t empty = ~(*own | *opp), open = ~*own;
    uint64_t sets[3];
    if (white) {
        sets[0] = (*own << 8) & empty;
        sets[1] = ((*own & ~FILE_A) << 7) & open;
        sets[2] = ((*own & ~FILE_H) << 9) & open;
    } else {
        sets[0] = (*own >> 8) & empty;
        sets[1] = ((*own & ~FILE_A) >> 9) & open;
        sets[2] = ((*own & ~FILE_H) >> 7) & open;
    }
    uint32_t c0 = (uint32_t)_mm_popcnt_u64(sets[0]);
    uint32_t c1 = (uint32_t)_mm_popcnt_u64(sets[1]);
    uint32_t n = c0 + c1 + (uint32_t)_mm_popcnt_u64(sets[2]);
    if (n == 0) return -1;
    uint32_t k = below(r, n);
    /* The direction by masks, not branches: in random games it is a coin toss. */
    uint32_t past_straight = k >= c0, past_left = k >= c0 + c1;
    uint64_t m1 = 0 - (uint64_t)past_straight, m2 = 0 - (uint64_t)past_left;
    uint64_t set = (sets[0] & ~m1) | (sets[1] & m1 & ~m2) | (sets[2] & m2);
    uint32_t skipped = (c0 & (uint32_t)m1 & ~(uint32_t)m2) | ((c0 + c1) & (uint32_t)m2);
    uint64_t to = _pdep_u64(1ull << (k - skipped), set);
    /* Back from the destination: White came from 8, 7 or 9 cells lower, Black from 8, 9
     * or 7 cells higher. */
    uint64_t from = white ? to >> (8 - past_straight + 2 * past_left)
                          : to << (8 + past_straight - 2 * past_left);
    *own ^= from | to;
    *opp &= ~to;
    return (to & (white ? WHITE_GOAL : BLACK_GOAL)) != 0 || *opp == 0;
}

/* One game from the start (two full rows each, White to move); returns its plies and sets
 * *white_won. */
static inline __attribute__((always_inline)) uint32_t playout(struct rng *rng, int *white_won) {
    uint64_t white_pawns = 0xFFFFull, black_pawns = 0xFFFFull << 48;
    uint32_t plies = 0;
    for (;;) {
        int result;
        plies++;
        result = ply(rng, &white_pawns, &black_pawns, 1);
        if (result) { *white_won = result > 0; return plies; }
        plies++;
        result = ply(rng, &black_pawns, &white_pawns, 0);
        if (result) { *white_won = result < 0; return plies; }
    }
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s GAMES X Y Z W\n", argv[0]);
        return 2;
    }
    long games = strtol(argv[1], NULL, 10);
    struct rng rng = {
        (uint32_t)strtoul(argv[2], NULL, 10), (uint32_t)strtoul(argv[3], NULL, 10),
        (uint32_t)strtoul(argv[4], NULL, 10), (uint32_t)strtoul(argv[5], NULL, 10),
    };
    if (games <= 0 || (rng.x | rng.y | rng.z | rng.w) == 0) {
        fprintf(stderr, "GAMES must be positive and the generator state not all zero\n");
        return 2;
    }
    struct timespec start, end;
    uint64_t plies = 0, white_wins = 0;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (long i = 0; i < games; i++) {
        int white_won = 0;
        plies += playout(&rng, &white_won);
        white_wins += (uint64_t)white_won;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    long long ns = (long long)(end.tv_sec - start.tv_sec) * 1000000000LL +
                   (end.tv_nsec - start.tv_nsec);
    printf("plies %llu white_wins %llu ns %lld\n", (unsigned long long)plies,
           (unsigned long long)white_wins, ns);
    return 0;
}
