/* The anytime Breakthrough search handle through the C ABI: sizes and settings, runs in
 * steps that equal one run, a cancel from another thread, a deadline, tree reuse after a
 * move, threads, and every error path. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arbor.h"
#include "check.h"
#include "clock.h"

/* The Breakthrough calls this test needs, in one place. */
static arbor_breakthrough start_position(uint32_t columns, uint32_t rows) {
    arbor_breakthrough state;
    memset(&state, 0, sizeof state);
    CHECK_STATUS(arbor_breakthrough_init(columns, rows, &state), ARBOR_OK);
    return state;
}

static arbor_breakthrough parsed(const char *text) {
    arbor_breakthrough state;
    memset(&state, 0, sizeof state);
    CHECK_STATUS(arbor_breakthrough_parse((const uint8_t *)text, strlen(text), &state, NULL), ARBOR_OK);
    return state;
}

static int is_legal(const arbor_breakthrough *state, uint32_t mv) {
    arbor_breakthrough copy = *state;
    return mv <= 0xFFFF && arbor_breakthrough_play(&copy, (uint16_t)mv) == ARBOR_OK;
}

/* A build without std (one thread at most) has no clock of its own. */
static int has_own_clock(void) {
    return arbor_breakthrough_search_max_threads() > 1;
}

/* A handle of `nodes` nodes (for one thread) in a fresh 8-aligned allocation. */
typedef struct {
    void *buf;
    size_t len;
} handle;

static handle make(uint32_t nodes, uint32_t threads, uint32_t policy, const arbor_breakthrough *position,
                   uint64_t seed) {
    handle h = {NULL, 0};
    arbor_breakthrough_search_config config;
    CHECK_STATUS(arbor_breakthrough_search_bytes(nodes, threads, &h.len), ARBOR_OK);
    h.buf = malloc(h.len);
    CHECK(h.buf != NULL);
    if (h.buf == NULL) exit(1);
    CHECK_STATUS(arbor_breakthrough_search_default_config(policy, &config), ARBOR_OK);
    CHECK_STATUS(arbor_breakthrough_search_init(h.buf, h.len, &config, position, seed), ARBOR_OK);
    return h;
}

static arbor_search_limits limits_of(uint32_t iterations) {
    arbor_search_limits limits;
    CHECK_STATUS(arbor_search_limits_init(iterations, &limits), ARBOR_OK);
    return limits;
}

static arbor_search_progress run(handle h, uint32_t iterations, uint32_t threads) {
    arbor_search_limits limits = limits_of(iterations);
    arbor_search_progress progress;
    memset(&progress, 0, sizeof progress);
    CHECK_STATUS(arbor_breakthrough_search_run(h.buf, h.len, &limits, threads, &progress), ARBOR_OK);
    return progress;
}

static void test_sizes_and_config(void) {
    arbor_breakthrough_search_config config;
    arbor_breakthrough start = start_position(8, 8), small = start_position(6, 5);
    arbor_breakthrough over = parsed("..W./..../..../B... b");
    size_t bytes = 0, more = 0;
    uint32_t nodes = 0, policy;

    CHECK_STATUS(arbor_breakthrough_search_bytes(1, 1, &bytes), ARBOR_OK);
    CHECK(bytes == ARBOR_BREAKTHROUGH_SEARCH_HEAD_BYTES + ARBOR_BREAKTHROUGH_SEARCH_NODE_BYTES);
    CHECK_STATUS(arbor_breakthrough_search_bytes(1000, 1, &bytes), ARBOR_OK);
    CHECK_STATUS(arbor_breakthrough_search_bytes(1001, 1, &more), ARBOR_OK);
    CHECK(more - bytes == 40);
    if (arbor_breakthrough_search_max_threads() > 1) {
        CHECK_STATUS(arbor_breakthrough_search_bytes(1000, 2, &more), ARBOR_OK);
        CHECK(more == ARBOR_BREAKTHROUGH_SEARCH_HEAD_BYTES + 2000 * 40);
    }
    bytes = 7;
    CHECK_STATUS(arbor_breakthrough_search_bytes(0, 1, &bytes), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_search_bytes(10, 0, &bytes), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_search_bytes(10, arbor_breakthrough_search_max_threads() + 1, &bytes),
                 ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_search_bytes(UINT32_MAX, 1, &bytes), ARBOR_OK);
    if (arbor_breakthrough_search_max_threads() > 1)
        CHECK_STATUS(arbor_breakthrough_search_bytes(UINT32_MAX / 2 + 1, 2, &bytes), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_search_bytes(10, 1, NULL), ARBOR_NULL_POINTER);

    /* The bound of a fresh root: 1 + N * 3 * pawns. */
    CHECK_STATUS(arbor_breakthrough_search_nodes_for_iterations(&start, 1000, &nodes), ARBOR_OK);
    CHECK(nodes == 48 * 1000 + 1);
    CHECK_STATUS(arbor_breakthrough_search_nodes_for_iterations(&small, 1000, &nodes), ARBOR_OK);
    CHECK(nodes == 36 * 1000 + 1);
    nodes = 5;
    CHECK_STATUS(arbor_breakthrough_search_nodes_for_iterations(&start, UINT32_MAX, &nodes),
                 ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_search_nodes_for_iterations(&over, 10, &nodes), ARBOR_GAME_OVER);
    CHECK_STATUS(arbor_breakthrough_search_nodes_for_iterations(NULL, 10, &nodes), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_search_nodes_for_iterations(&start, 10, NULL), ARBOR_NULL_POINTER);
    CHECK(nodes == 5);

    for (policy = ARBOR_BREAKTHROUGH_SEARCH_UCT; policy <= ARBOR_BREAKTHROUGH_SEARCH_MOGO; policy++) {
        CHECK_STATUS(arbor_breakthrough_search_default_config(policy, &config), ARBOR_OK);
        CHECK(config.policy == policy && config.solver == 1 && config.version == ARBOR_ABI_VERSION);
        CHECK(config.playout_cutoff == ARBOR_BREAKTHROUGH_SEARCH_NO_CUTOFF && config.expand_threshold == 0);
    }
    CHECK(config.c2 > 0.0);
    CHECK_STATUS(arbor_breakthrough_search_default_config(ARBOR_BREAKTHROUGH_SEARCH_UCT, &config), ARBOR_OK);
    CHECK(config.c > 0.7 && config.c < 0.71);
    CHECK_STATUS(arbor_breakthrough_search_default_config(3, &config), ARBOR_INVALID_ARGUMENT);
    CHECK(config.policy == ARBOR_BREAKTHROUGH_SEARCH_UCT);
    CHECK_STATUS(arbor_breakthrough_search_default_config(0, NULL), ARBOR_NULL_POINTER);
}

/* k runs of n iterations are one run of k * n: same progress, same tree, byte for byte. */
static void test_steps_are_one_run(void) {
    arbor_breakthrough start = start_position(8, 8);
    uint32_t policy;
    for (policy = ARBOR_BREAKTHROUGH_SEARCH_UCT; policy <= ARBOR_BREAKTHROUGH_SEARCH_MOGO; policy++) {
        handle steps = make(30000, 1, policy, &start, 11);
        handle once = make(30000, 1, policy, &start, 11);
        arbor_search_progress p, q, best;
        int k;
        for (k = 0; k < 5; k++) {
            p = run(steps, 200, 1);
            CHECK(p.iterations == (uint64_t)(k + 1) * 200);
            CHECK(p.iterations_this_call == 200 && p.stop_reason == ARBOR_STOP_ITERATIONS);
        }
        q = run(once, 1000, 1);
        CHECK(q.iterations == 1000 && q.iterations_this_call == 1000);
        CHECK(p.best_move == q.best_move && p.best_visits == q.best_visits);
        CHECK(p.best_value == q.best_value && p.root_visits == q.root_visits);
        CHECK(is_legal(&start, p.best_move));
        CHECK(p.best_value > 0.0 && p.best_value < 1.0 && p.best_visits > 0);
        CHECK(memcmp((char *)steps.buf + ARBOR_BREAKTHROUGH_SEARCH_HEAD_BYTES,
                     (char *)once.buf + ARBOR_BREAKTHROUGH_SEARCH_HEAD_BYTES,
                     steps.len - ARBOR_BREAKTHROUGH_SEARCH_HEAD_BYTES) == 0);
        /* _best reads the same progress without searching. */
        CHECK_STATUS(arbor_breakthrough_search_best(once.buf, once.len, &best), ARBOR_OK);
        CHECK(memcmp(&best, &q, sizeof q) == 0);
        free(steps.buf);
        free(once.buf);
    }
}

/* A fresh handle: no move yet; zero iterations keep it so. */
static void test_fresh_and_small(void) {
    arbor_breakthrough start = start_position(8, 8);
    handle h = make(1, 1, ARBOR_BREAKTHROUGH_SEARCH_UCT, &start, 1);
    arbor_search_progress p;
    arbor_breakthrough_search_stats stats;
    CHECK_STATUS(arbor_breakthrough_search_best(h.buf, h.len, &p), ARBOR_OK);
    CHECK(p.best_move == ARBOR_SEARCH_NO_MOVE && p.iterations == 0 && p.stop_reason == 0 && p.root_visits == 0);
    /* One node: the root alone, no room for its children; the search goes on and says so. */
    p = run(h, 50, 1);
    CHECK(p.iterations == 50 && p.best_move == ARBOR_SEARCH_NO_MOVE && p.root_visits == 50);
    CHECK_STATUS(arbor_breakthrough_search_tree_stats(h.buf, h.len, &stats), ARBOR_OK);
    CHECK(stats.nodes_used == 1 && stats.capacity_nodes == 1 && stats.storage_full == 1);
    CHECK(stats.root_proof == ARBOR_BREAKTHROUGH_SEARCH_PROOF_UNKNOWN);
    free(h.buf);

    h = make(2000, 1, ARBOR_BREAKTHROUGH_SEARCH_RAVE, &start, 1);
    p = run(h, 300, 1);
    CHECK(is_legal(&start, p.best_move));
    CHECK_STATUS(arbor_breakthrough_search_tree_stats(h.buf, h.len, &stats), ARBOR_OK);
    CHECK(stats.storage_full == 1 && stats.nodes_used <= 2000 && stats.capacity_nodes == 2000);
    free(h.buf);
}

/* A win in one is proven: the run stops early with ARBOR_STOP_DONE, plays the win, and the
 * game is then over for every call that chooses or plays. */
static void test_proven_and_game_over(void) {
    arbor_breakthrough win = parsed("B..../..W../...../....B/..... w");
    handle h = make(5000, 1, ARBOR_BREAKTHROUGH_SEARCH_UCT, &win, 3);
    arbor_search_progress p, again;
    arbor_breakthrough_search_stats stats;
    arbor_search_limits limits = limits_of(100);
    p = run(h, 500, 1);
    CHECK(p.stop_reason == ARBOR_STOP_DONE && p.iterations_this_call < 500);
    CHECK(p.best_value == 1.0);
    CHECK_STATUS(arbor_breakthrough_search_tree_stats(h.buf, h.len, &stats), ARBOR_OK);
    CHECK(stats.root_proof == ARBOR_BREAKTHROUGH_SEARCH_PROOF_WIN);
    /* A proven root stays done. */
    again = run(h, 500, 1);
    CHECK(again.stop_reason == ARBOR_STOP_DONE && again.iterations_this_call == 0);
    CHECK(again.best_move == p.best_move && again.iterations == p.iterations);

    CHECK_STATUS(arbor_breakthrough_search_play(h.buf, h.len, (uint16_t)p.best_move), ARBOR_OK);
    memset(&again, 0x77, sizeof again);
    CHECK_STATUS(arbor_breakthrough_search_run(h.buf, h.len, &limits, 1, &again), ARBOR_GAME_OVER);
    CHECK_STATUS(arbor_breakthrough_search_best(h.buf, h.len, &again), ARBOR_GAME_OVER);
    CHECK_STATUS(arbor_breakthrough_search_play(h.buf, h.len, (uint16_t)p.best_move), ARBOR_GAME_OVER);
    CHECK(again.iterations == 0x7777777777777777u); /* nothing written on error */
    CHECK_STATUS(arbor_breakthrough_search_tree_stats(h.buf, h.len, &stats), ARBOR_OK);
    free(h.buf);
}

/* _play keeps the subtree below the move, with its visits, for either side's move. */
static void test_tree_reuse(void) {
    arbor_breakthrough start = start_position(6, 5), after;
    handle h = make(100000, 1, ARBOR_BREAKTHROUGH_SEARCH_MOGO, &start, 9);
    arbor_search_progress p, kept, more, reply;
    arbor_breakthrough_search_stats before, now;
    p = run(h, 3000, 1);
    CHECK(is_legal(&start, p.best_move) && p.best_visits > 100);
    CHECK_STATUS(arbor_breakthrough_search_tree_stats(h.buf, h.len, &before), ARBOR_OK);
    CHECK_STATUS(arbor_breakthrough_search_play(h.buf, h.len, (uint16_t)p.best_move), ARBOR_OK);
    CHECK_STATUS(arbor_breakthrough_search_best(h.buf, h.len, &kept), ARBOR_OK);
    CHECK(kept.root_visits == p.best_visits && kept.iterations == 0 && kept.iterations_this_call == 0);
    CHECK(kept.best_move != ARBOR_SEARCH_NO_MOVE && kept.best_visits > 0);
    CHECK_STATUS(arbor_breakthrough_search_tree_stats(h.buf, h.len, &now), ARBOR_OK);
    CHECK(now.nodes_used > 1 && now.nodes_used < before.nodes_used);
    /* The search goes on from the kept subtree. */
    more = run(h, 500, 1);
    CHECK(more.iterations == 500 && more.root_visits == kept.root_visits + 500);
    after = start;
    CHECK_STATUS(arbor_breakthrough_play(&after, (uint16_t)p.best_move), ARBOR_OK);
    CHECK(is_legal(&after, more.best_move));
    /* The opponent's move (here the search's own choice for it) keeps its subtree too. */
    CHECK_STATUS(arbor_breakthrough_search_play(h.buf, h.len, (uint16_t)more.best_move), ARBOR_OK);
    CHECK_STATUS(arbor_breakthrough_search_best(h.buf, h.len, &reply), ARBOR_OK);
    CHECK(reply.root_visits == more.best_visits);
    /* A move the tree never expanded clears it; the search starts afresh. */
    free(h.buf);
    h = make(100000, 1, ARBOR_BREAKTHROUGH_SEARCH_UCT, &start, 9);
    CHECK_STATUS(arbor_breakthrough_search_play(h.buf, h.len, (uint16_t)p.best_move), ARBOR_OK);
    CHECK_STATUS(arbor_breakthrough_search_best(h.buf, h.len, &kept), ARBOR_OK);
    CHECK(kept.root_visits == 0 && kept.best_move == ARBOR_SEARCH_NO_MOVE);
    more = run(h, 100, 1);
    CHECK(more.root_visits == 100 && is_legal(&after, more.best_move));
    free(h.buf);
}

typedef struct {
    void *buf;
    size_t len;
    uint64_t cancelled_at;
    arbor_status status;
} canceller;

static void *cancel_later(void *arg) {
    canceller *c = arg;
    struct timespec wait = {0, 50 * 1000 * 1000};
    nanosleep(&wait, NULL);
    c->cancelled_at = now_us();
    c->status = arbor_breakthrough_search_cancel(c->buf, c->len);
    return NULL;
}

/* A cancel from another thread ends a run that would take seconds within a millisecond
 * (the best of three tries, against the scheduler's noise on a loaded machine). */
static void test_cancel(void) {
    arbor_breakthrough start = start_position(8, 8);
    /* A small tree: it fills, and the run goes on without growing. */
    handle h = make(20000, 1, ARBOR_BREAKTHROUGH_SEARCH_UCT, &start, 4);
    arbor_search_limits limits = limits_of(0);
    arbor_search_progress p;
    uint64_t best = UINT64_MAX;
    int attempt;
    limits.deadline_us = 20u * 1000 * 1000; /* a guard: never reached unless cancel fails */
    limits.now_us = monotonic_clock;
    for (attempt = 0; attempt < 3; attempt++) {
        canceller c;
        pthread_t thread;
        uint64_t returned;
        c.buf = h.buf;
        c.len = h.len;
        c.cancelled_at = 0;
        c.status = ARBOR_NULL_POINTER;
        CHECK(pthread_create(&thread, NULL, cancel_later, &c) == 0);
        CHECK_STATUS(arbor_breakthrough_search_run(h.buf, h.len, &limits, 1, &p), ARBOR_OK);
        returned = now_us();
        CHECK(pthread_join(thread, NULL) == 0);
        CHECK_STATUS(c.status, ARBOR_OK);
        CHECK(p.stop_reason == ARBOR_STOP_CANCELLED && p.iterations_this_call > 0);
        CHECK(is_legal(&start, p.best_move));
        if (returned - c.cancelled_at < best) best = returned - c.cancelled_at;
    }
    printf("cancel: the run returned %llu us after the flag was set (best of 3)\n", (unsigned long long)best);
    /* Bounds a cancel that is not heard at all (the guard is 20 s), not the scheduler: a
     * loaded machine took 1.7 ms to hand a cancelled search its core in another test. */
    CHECK(best < 50000);

    /* The run that reported the cancel cleared it: the next run is not cancelled. */
    p = run(h, 10, 1);
    CHECK(p.stop_reason == ARBOR_STOP_ITERATIONS && p.iterations_this_call == 10);
    /* A cancel made before a run is kept for it: it returns at once. */
    CHECK_STATUS(arbor_breakthrough_search_cancel(h.buf, h.len), ARBOR_OK);
    CHECK_STATUS(arbor_breakthrough_search_cancel(h.buf, h.len), ARBOR_OK);
    p = run(h, 10, 1);
    CHECK(p.stop_reason == ARBOR_STOP_CANCELLED && p.iterations_this_call == 0);
    p = run(h, 10, 1);
    CHECK(p.stop_reason == ARBOR_STOP_ITERATIONS && p.iterations_this_call == 10);

    /* Errors: nothing is set. */
    CHECK_STATUS(arbor_breakthrough_search_cancel(NULL, h.len), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_search_cancel((char *)h.buf + 4, h.len - 8), ARBOR_MISALIGNED);
    CHECK_STATUS(arbor_breakthrough_search_cancel(h.buf, 8), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_breakthrough_search_cancel(h.buf, h.len - 1), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_breakthrough_search_cancel(h.buf, (size_t)-1), ARBOR_INVALID_LENGTH);
    p = run(h, 10, 1);
    CHECK(p.stop_reason == ARBOR_STOP_ITERATIONS);
    free(h.buf);
}

/* The caller's clock: 100 us a reading, so a 1000 us deadline allows exactly 9 iterations
 * (one reading at the start, then one before each iteration). */
static uint64_t fake_clock(void *ctx) {
    uint64_t *now = ctx;
    *now += 100;
    return *now;
}

static void test_deadline(void) {
    arbor_breakthrough start = start_position(8, 8);
    handle h = make(200000, 1, ARBOR_BREAKTHROUGH_SEARCH_MOGO, &start, 8);
    arbor_search_limits limits = limits_of(0);
    arbor_search_progress p;
    uint64_t best = UINT64_MAX, fake = 0;
    int attempt;
    limits.deadline_us = 2000;
    if (!has_own_clock()) {
        /* No clock of its own: a deadline needs the caller's. */
        p.iterations = 99;
        CHECK_STATUS(arbor_breakthrough_search_run(h.buf, h.len, &limits, 1, &p), ARBOR_UNSUPPORTED);
        CHECK(p.iterations == 99);
        limits.now_us = monotonic_clock;
    }
    for (attempt = 0; attempt < 3; attempt++) {
        uint64_t began = now_us(), took;
        CHECK_STATUS(arbor_breakthrough_search_run(h.buf, h.len, &limits, 1, &p), ARBOR_OK);
        took = now_us() - began;
        CHECK(p.stop_reason == ARBOR_STOP_DEADLINE && p.iterations_this_call > 0);
        CHECK(took >= 2000);
        if (took < best) best = took;
    }
    printf("deadline: a 2000 us run took %llu us (best of 3), the last one %u iterations\n",
           (unsigned long long)best, p.iterations_this_call);
    CHECK(best < 2500);

    /* The iteration limit comes first when it is reached first. */
    p = run(h, 5, 1);
    CHECK(p.stop_reason == ARBOR_STOP_ITERATIONS && p.iterations_this_call == 5);

    limits.now_us = fake_clock;
    limits.ctx = &fake;
    limits.deadline_us = 1000;
    CHECK_STATUS(arbor_breakthrough_search_run(h.buf, h.len, &limits, 1, &p), ARBOR_OK);
    CHECK(p.stop_reason == ARBOR_STOP_DEADLINE && p.iterations_this_call == 9);
    CHECK(fake == 1100);
    /* With threads, only the calling thread reads the caller's clock. */
    if (arbor_breakthrough_search_max_threads() > 1) {
        fake = 0;
        CHECK_STATUS(arbor_breakthrough_search_run(h.buf, h.len, &limits, 2, &p), ARBOR_OK);
        CHECK(p.stop_reason == ARBOR_STOP_DEADLINE && fake == 1100);
    }
    free(h.buf);
}

static void test_threads(void) {
    arbor_breakthrough start = start_position(6, 5);
    handle a, b;
    arbor_search_progress p, q, r;
    arbor_search_limits limits = limits_of(10);
    if (arbor_breakthrough_search_max_threads() == 1) {
        handle h = make(1000, 1, ARBOR_BREAKTHROUGH_SEARCH_UCT, &start, 1);
        CHECK_STATUS(arbor_breakthrough_search_run(h.buf, h.len, &limits, 2, &p), ARBOR_INVALID_ARGUMENT);
        free(h.buf);
        return;
    }
    CHECK(arbor_breakthrough_search_max_threads() == ARBOR_BREAKTHROUGH_SEARCH_MAX_THREADS);
    a = make(40000, 2, ARBOR_BREAKTHROUGH_SEARCH_MOGO, &start, 5);
    b = make(40000, 2, ARBOR_BREAKTHROUGH_SEARCH_MOGO, &start, 5);
    p = run(a, 800, 2);
    q = run(b, 800, 2);
    CHECK(p.iterations_this_call == 1600 && p.iterations == 1600 && p.stop_reason == ARBOR_STOP_ITERATIONS);
    CHECK(memcmp(&p, &q, sizeof p) == 0);
    CHECK(is_legal(&start, p.best_move));
    /* A parallel run starts afresh and counts its own iterations. */
    p = run(a, 300, 2);
    CHECK(p.iterations == 600 && p.iterations_this_call == 600);
    /* One thread continues the kept tree (the first thread's, with the summed root). */
    r = run(a, 100, 1);
    CHECK(r.iterations == 700 && r.root_visits == p.root_visits + 100);
    free(a.buf);
    free(b.buf);
}

static void test_errors(void) {
    arbor_breakthrough start = start_position(8, 8), bad_position;
    arbor_breakthrough over = parsed("..W./..../..../B... b");
    arbor_breakthrough_search_config config, bad;
    arbor_search_limits limits = limits_of(20), bad_limits;
    arbor_search_progress p, sentinel;
    arbor_breakthrough_search_stats stats;
    size_t len = 0;
    char *buf, *copy;
    uint32_t max = arbor_breakthrough_search_max_threads();
    CHECK_STATUS(arbor_breakthrough_search_bytes(500, 1, &len), ARBOR_OK);
    buf = malloc(len);
    copy = malloc(len);
    CHECK(buf != NULL && copy != NULL);
    if (buf == NULL || copy == NULL) exit(1);
    memset(&sentinel, 0x5A, sizeof sentinel);
    CHECK_STATUS(arbor_breakthrough_search_default_config(ARBOR_BREAKTHROUGH_SEARCH_RAVE, &config), ARBOR_OK);

    /* _init: every check before anything is written. */
    memset(buf, 0xEE, len);
    CHECK_STATUS(arbor_breakthrough_search_init(NULL, len, &config, &start, 1), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_search_init(buf, len, NULL, &start, 1), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_search_init(buf, len, &config, NULL, 1), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_search_init(buf + 4, len - 8, &config, &start, 1), ARBOR_MISALIGNED);
    CHECK_STATUS(arbor_breakthrough_search_init(buf, 16, &config, &start, 1), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_breakthrough_search_init(buf, ARBOR_BREAKTHROUGH_SEARCH_HEAD_BYTES + 39, &config, &start, 1),
                 ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_breakthrough_search_init(buf, (size_t)-1, &config, &start, 1), ARBOR_INVALID_LENGTH);
    CHECK_STATUS(arbor_breakthrough_search_init(buf, len, &config, &over, 1), ARBOR_GAME_OVER);
    bad_position = start;
    bad_position.columns = 12;
    CHECK_STATUS(arbor_breakthrough_search_init(buf, len, &config, &bad_position, 1), ARBOR_INVALID_ARGUMENT);
    bad = config;
    bad.version ^= 1;
    CHECK_STATUS(arbor_breakthrough_search_init(buf, len, &bad, &start, 1), ARBOR_WRONG_VERSION);
    bad = config;
    bad.magic = 0;
    CHECK_STATUS(arbor_breakthrough_search_init(buf, len, &bad, &start, 1), ARBOR_NOT_INITIALISED);
    bad = config;
    bad.policy = 7;
    CHECK_STATUS(arbor_breakthrough_search_init(buf, len, &bad, &start, 1), ARBOR_INVALID_ARGUMENT);
    bad = config;
    bad.c = NAN;
    CHECK_STATUS(arbor_breakthrough_search_init(buf, len, &bad, &start, 1), ARBOR_INVALID_ARGUMENT);
    bad = config;
    bad.c1 = -1.0;
    CHECK_STATUS(arbor_breakthrough_search_init(buf, len, &bad, &start, 1), ARBOR_INVALID_ARGUMENT);
    bad = config;
    bad.c2 = HUGE_VAL;
    CHECK_STATUS(arbor_breakthrough_search_init(buf, len, &bad, &start, 1), ARBOR_INVALID_ARGUMENT);
    bad = config;
    bad.solver = 2;
    CHECK_STATUS(arbor_breakthrough_search_init(buf, len, &bad, &start, 1), ARBOR_INVALID_ARGUMENT);
    {
        size_t i;
        int untouched = 1;
        for (i = 0; i < len; i++) untouched &= (unsigned char)buf[i] == 0xEE;
        CHECK(untouched);
    }

    /* A buffer never prepared (random bytes) is refused by every call. */
    p = sentinel;
    CHECK_STATUS(arbor_breakthrough_search_run(buf, len, &limits, 1, &p), ARBOR_NOT_INITIALISED);
    CHECK_STATUS(arbor_breakthrough_search_best(buf, len, &p), ARBOR_NOT_INITIALISED);
    CHECK_STATUS(arbor_breakthrough_search_play(buf, len, 0), ARBOR_NOT_INITIALISED);
    CHECK_STATUS(arbor_breakthrough_search_cancel(buf, len), ARBOR_NOT_INITIALISED);
    CHECK_STATUS(arbor_breakthrough_search_tree_stats(buf, len, &stats), ARBOR_NOT_INITIALISED);
    CHECK(memcmp(&p, &sentinel, sizeof p) == 0);

    CHECK_STATUS(arbor_breakthrough_search_init(buf, len, &config, &start, 1), ARBOR_OK);
    /* _run: pointers, lengths, alignment, limits, threads; nothing written. */
    CHECK_STATUS(arbor_breakthrough_search_run(NULL, len, &limits, 1, &p), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_search_run(buf, len, NULL, 1, &p), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_search_run(buf, len, &limits, 1, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_search_run(buf + 1, len - 8, &limits, 1, &p), ARBOR_MISALIGNED);
    CHECK_STATUS(arbor_breakthrough_search_run(buf, 8, &limits, 1, &p), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_breakthrough_search_run(buf, len - 1, &limits, 1, &p), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_breakthrough_search_run(buf, (size_t)-1, &limits, 1, &p), ARBOR_INVALID_LENGTH);
    CHECK_STATUS(arbor_breakthrough_search_run(buf, len, &limits, 0, &p), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_search_run(buf, len, &limits, max + 1, &p), ARBOR_INVALID_ARGUMENT);
    bad_limits = limits;
    bad_limits.version ^= 1;
    CHECK_STATUS(arbor_breakthrough_search_run(buf, len, &bad_limits, 1, &p), ARBOR_WRONG_VERSION);
    bad_limits = limits;
    bad_limits.magic = 0;
    CHECK_STATUS(arbor_breakthrough_search_run(buf, len, &bad_limits, 1, &p), ARBOR_NOT_INITIALISED);
    CHECK(memcmp(&p, &sentinel, sizeof p) == 0);
    /* A longer length than prepared is fine (the handle uses what it was prepared with). */
    CHECK_STATUS(arbor_breakthrough_search_run(buf, len, &limits, 1, &p), ARBOR_OK);
    CHECK(p.iterations == 20);

    /* _best, _tree_stats, _play: pointers. */
    CHECK_STATUS(arbor_breakthrough_search_best(NULL, len, &p), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_search_best(buf, len, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_search_tree_stats(NULL, len, &stats), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_search_tree_stats(buf, len, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_search_play(NULL, len, 0), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_search_play(buf + 8, len - 8, 0), ARBOR_NOT_INITIALISED);

    /* Illegal moves leave the handle unchanged. */
    memcpy(copy, buf, len);
    CHECK_STATUS(arbor_breakthrough_search_play(buf, len, 0xFFFF), ARBOR_ILLEGAL_MOVE);
    CHECK_STATUS(arbor_breakthrough_search_play(buf, len, 0), ARBOR_ILLEGAL_MOVE); /* a1-a1 */
    CHECK(is_legal(&start, 8 | (16u << 6)) && !is_legal(&start, 8 | (24u << 6))); /* a2-a3, a2-a4 */
    CHECK_STATUS(arbor_breakthrough_search_play(buf, len, (uint16_t)(8 | (24u << 6))), ARBOR_ILLEGAL_MOVE);
    CHECK(memcmp(copy, buf, len) == 0);

    /* Another version's handle: the header's version word flipped. */
    memcpy(copy, buf, len);
    ((uint32_t *)(void *)copy)[1] ^= 1;
    CHECK_STATUS(arbor_breakthrough_search_run(copy, len, &limits, 1, &p), ARBOR_WRONG_VERSION);
    CHECK_STATUS(arbor_breakthrough_search_best(copy, len, &p), ARBOR_WRONG_VERSION);
    CHECK_STATUS(arbor_breakthrough_search_play(copy, len, 0), ARBOR_WRONG_VERSION);
    CHECK_STATUS(arbor_breakthrough_search_cancel(copy, len), ARBOR_WRONG_VERSION);
    CHECK_STATUS(arbor_breakthrough_search_tree_stats(copy, len, &stats), ARBOR_WRONG_VERSION);

    /* Damaged state after the header: each field is checked. The state starts at byte 24
     * with the stored settings (magic, version, c, ...). */
    {
        const size_t state = 24;
        double nan_value = NAN;
        memcpy(copy, buf, len);
        memcpy(copy + state + 8, &nan_value, sizeof nan_value); /* the stored c */
        CHECK_STATUS(arbor_breakthrough_search_run(copy, len, &limits, 1, &p), ARBOR_NOT_INITIALISED);
        memcpy(copy, buf, len);
        copy[state + 4] ^= 1; /* the stored settings' version */
        CHECK_STATUS(arbor_breakthrough_search_best(copy, len, &p), ARBOR_NOT_INITIALISED);
        memcpy(copy, buf, len);
        memset(copy + state + 48, 0xFF, 24); /* iterations, white and black pawns */
        CHECK_STATUS(arbor_breakthrough_search_run(copy, len, &limits, 1, &p), ARBOR_NOT_INITIALISED);
        memcpy(copy, buf, len);
        memset(copy + state + 80, 0, 16); /* the generator: all zeros */
        CHECK_STATUS(arbor_breakthrough_search_run(copy, len, &limits, 1, &p), ARBOR_NOT_INITIALISED);
        memcpy(copy, buf, len);
        memset(copy + state + 96, 0xFF, 4); /* the tree's length, beyond the nodes */
        CHECK_STATUS(arbor_breakthrough_search_play(copy, len, 0), ARBOR_NOT_INITIALISED);
        memcpy(copy, buf, len);
        memset(copy + state + 100, 0x07, 4); /* has_root_key neither 0 nor 1 */
        CHECK_STATUS(arbor_breakthrough_search_tree_stats(copy, len, &stats), ARBOR_NOT_INITIALISED);
        memcpy(copy, buf, len);
        copy[state + 114] = 9; /* the side to move */
        CHECK_STATUS(arbor_breakthrough_search_run(copy, len, &limits, 1, &p), ARBOR_NOT_INITIALISED);
        /* Nodes that no longer form a tree. */
        memcpy(copy, buf, len);
        memset(copy + ARBOR_BREAKTHROUGH_SEARCH_HEAD_BYTES, 0xCD, len - ARBOR_BREAKTHROUGH_SEARCH_HEAD_BYTES);
        CHECK_STATUS(arbor_breakthrough_search_run(copy, len, &limits, 1, &p), ARBOR_NOT_INITIALISED);
        CHECK_STATUS(arbor_breakthrough_search_best(copy, len, &p), ARBOR_NOT_INITIALISED);
        /* Random bytes everywhere. */
        {
            size_t i;
            uint32_t x = 12345;
            for (i = 0; i < len; i++) {
                x = x * 1103515245u + 12345u;
                copy[i] = (char)(x >> 16);
            }
        }
        CHECK_STATUS(arbor_breakthrough_search_run(copy, len, &limits, 1, &p), ARBOR_NOT_INITIALISED);
    }
    /* The handle itself still works. */
    CHECK_STATUS(arbor_breakthrough_search_run(buf, len, &limits, 1, &p), ARBOR_OK);
    CHECK(p.iterations == 40);
    free(buf);
    free(copy);
}

int main(void) {
    test_sizes_and_config();
    test_steps_are_one_run();
    test_fresh_and_small();
    test_proven_and_game_over();
    test_tree_reuse();
    test_cancel();
    test_deadline();
    test_threads();
    test_errors();
    return check_report("breakthrough_search");
}
