/* MCTS over Breakthrough through the C ABI: a caller buffer sized by arbor_mcts_bytes, a
 * config struct, searches with seeds and statistics, and the error paths. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arbor.h"
#include "check.h"

static arbor_breakthrough parsed(const char *text) {
    arbor_breakthrough state;
    memset(&state, 0, sizeof state);
    CHECK_STATUS(arbor_breakthrough_parse(text, strlen(text), &state), ARBOR_OK);
    return state;
}

static int is_legal(const arbor_breakthrough *state, uint16_t mv) {
    arbor_breakthrough copy = *state;
    return arbor_breakthrough_play(&copy, mv) == ARBOR_OK;
}

static void test_sizes_and_config(void) {
    arbor_mcts_config config;
    CHECK(arbor_mcts_bytes(0) == 0);
    CHECK(arbor_mcts_bytes(1) > 0);
    CHECK(arbor_mcts_bytes(1001) - arbor_mcts_bytes(1000) == 40);
    CHECK_STATUS(arbor_mcts_default_config(ARBOR_MCTS_UCT, &config), ARBOR_OK);
    CHECK(config.policy == ARBOR_MCTS_UCT && config.solver == 1);
    CHECK(config.c > 0.7 && config.c < 0.71);
    CHECK(config.playout_cutoff == ARBOR_MCTS_NO_CUTOFF);
    CHECK_STATUS(arbor_mcts_default_config(ARBOR_MCTS_MOGO, &config), ARBOR_OK);
    CHECK(config.policy == ARBOR_MCTS_MOGO && config.c2 > 0.0);
    CHECK_STATUS(arbor_mcts_default_config(3, &config), ARBOR_INVALID_ARGUMENT);
    CHECK(config.policy == ARBOR_MCTS_MOGO);
    CHECK_STATUS(arbor_mcts_default_config(ARBOR_MCTS_UCT, NULL), ARBOR_NULL_POINTER);
}

static void test_search(void) {
    const uint32_t iterations = 2000;
    const uint32_t capacity = 48 * iterations + 1;
    size_t bytes = arbor_mcts_bytes(capacity);
    void *buf = malloc(bytes);
    arbor_mcts_config config;
    arbor_mcts_stats stats, again;
    arbor_breakthrough state;
    uint16_t mv = 0, mv2 = 0;
    uint32_t got = 0;
    uint32_t policy;
    char text[ARBOR_BREAKTHROUGH_MOVE_TEXT_MAX];
    CHECK(buf != NULL);
    if (buf == NULL) return;

    CHECK_STATUS(arbor_breakthrough_init(&state, 6, 5), ARBOR_OK);
    for (policy = ARBOR_MCTS_UCT; policy <= ARBOR_MCTS_MOGO; policy++) {
        CHECK_STATUS(arbor_mcts_default_config(policy, &config), ARBOR_OK);
        CHECK_STATUS(arbor_mcts_init(buf, bytes, &config, &got), ARBOR_OK);
        CHECK(got == capacity);
        CHECK_STATUS(arbor_mcts_search(buf, bytes, &state, iterations, 42, &mv, &stats), ARBOR_OK);
        CHECK(is_legal(&state, mv));
        CHECK(stats.iterations == iterations);
        CHECK(stats.nodes_used > 1 && stats.nodes_used <= capacity);
        CHECK(stats.storage_full == 0);
        CHECK(stats.max_depth >= 1);
        CHECK(stats.root_proof == ARBOR_MCTS_PROOF_UNKNOWN);
        /* Same seed, same answer. */
        CHECK_STATUS(arbor_mcts_search(buf, bytes, &state, iterations, 42, &mv2, &again), ARBOR_OK);
        CHECK(mv2 == mv && memcmp(&stats, &again, sizeof stats) == 0);
    }

    /* A win in one is found and proven; out_stats may be NULL. */
    state = parsed("B..../..W../...../....B/..... w");
    CHECK_STATUS(arbor_mcts_default_config(ARBOR_MCTS_UCT, &config), ARBOR_OK);
    CHECK_STATUS(arbor_mcts_init(buf, bytes, &config, NULL), ARBOR_OK);
    CHECK_STATUS(arbor_mcts_search(buf, bytes, &state, 500, 1, &mv, &stats), ARBOR_OK);
    CHECK_STATUS(arbor_breakthrough_move_print(mv, text, sizeof text), ARBOR_OK);
    CHECK(text[4] == '5');
    CHECK(stats.root_proof == ARBOR_MCTS_PROOF_WIN);
    CHECK(stats.iterations <= 500);
    CHECK_STATUS(arbor_mcts_search(buf, bytes, &state, 500, 1, &mv, NULL), ARBOR_OK);

    /* A small buffer fills up: the search goes on and says so. */
    {
        size_t small = arbor_mcts_bytes(100);
        CHECK_STATUS(arbor_breakthrough_init(&state, 8, 8), ARBOR_OK);
        CHECK_STATUS(arbor_mcts_init(buf, small, &config, &got), ARBOR_OK);
        CHECK(got == 100);
        CHECK_STATUS(arbor_mcts_search(buf, small, &state, 300, 3, &mv, &stats), ARBOR_OK);
        CHECK(is_legal(&state, mv));
        CHECK(stats.storage_full == 1 && stats.iterations == 300 && stats.nodes_used <= 100);
        /* Zero iterations still give a legal move. */
        CHECK_STATUS(arbor_mcts_search(buf, small, &state, 0, 3, &mv, &stats), ARBOR_OK);
        CHECK(is_legal(&state, mv) && stats.iterations == 0);
    }
    free(buf);
}

static void test_errors(void) {
    size_t bytes = arbor_mcts_bytes(1000);
    /* uint64_t storage keeps the buffer 8-byte aligned. */
    uint64_t *storage = calloc(bytes / 8 + 2, 8);
    void *buf = storage;
    arbor_mcts_config config, bad;
    arbor_mcts_stats stats;
    arbor_breakthrough state, over;
    uint16_t mv = 777;
    CHECK(storage != NULL);
    if (storage == NULL) return;
    CHECK_STATUS(arbor_breakthrough_init(&state, 8, 8), ARBOR_OK);
    CHECK_STATUS(arbor_mcts_default_config(ARBOR_MCTS_RAVE, &config), ARBOR_OK);

    /* Searching a buffer that was never initialised is refused. */
    CHECK_STATUS(arbor_mcts_search(buf, bytes, &state, 10, 1, &mv, &stats), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_mcts_init(NULL, bytes, &config, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_mcts_init(buf, bytes, NULL, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_mcts_init((char *)buf + 4, bytes - 8, &config, NULL), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_mcts_init(buf, 8, &config, NULL), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_mcts_init(buf, arbor_mcts_bytes(1) - 1, &config, NULL), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_mcts_init(buf, (size_t)-1, &config, NULL), ARBOR_INVALID_LENGTH);
    bad = config;
    bad.policy = 7;
    CHECK_STATUS(arbor_mcts_init(buf, bytes, &bad, NULL), ARBOR_INVALID_ARGUMENT);
    bad = config;
    bad.c = -1.0;
    CHECK_STATUS(arbor_mcts_init(buf, bytes, &bad, NULL), ARBOR_INVALID_ARGUMENT);
    bad = config;
    bad.solver = 2;
    CHECK_STATUS(arbor_mcts_init(buf, bytes, &bad, NULL), ARBOR_INVALID_ARGUMENT);

    CHECK_STATUS(arbor_mcts_init(buf, bytes, &config, NULL), ARBOR_OK);
    CHECK_STATUS(arbor_mcts_search(NULL, bytes, &state, 10, 1, &mv, &stats), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_mcts_search(buf, bytes, NULL, 10, 1, &mv, &stats), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_mcts_search(buf, bytes, &state, 10, 1, NULL, &stats), ARBOR_NULL_POINTER);
    /* A shorter length than at init, and a misaligned pointer. */
    CHECK_STATUS(arbor_mcts_search(buf, arbor_mcts_bytes(10), &state, 10, 1, &mv, &stats), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_mcts_search((char *)buf + 1, bytes - 8, &state, 10, 1, &mv, &stats), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_mcts_search(buf, 4, &state, 10, 1, &mv, &stats), ARBOR_BUFFER_TOO_SMALL);
    /* An invalid position, and a game that is over. */
    over = state;
    over.columns = 12;
    CHECK_STATUS(arbor_mcts_search(buf, bytes, &over, 10, 1, &mv, &stats), ARBOR_INVALID_ARGUMENT);
    over = parsed("..W./..../..../B... b");
    CHECK_STATUS(arbor_mcts_search(buf, bytes, &over, 10, 1, &mv, &stats), ARBOR_INVALID_ARGUMENT);
    /* A header scribbled over by the caller is detected. */
    memset(buf, 0xAB, 16);
    CHECK_STATUS(arbor_mcts_search(buf, bytes, &state, 10, 1, &mv, &stats), ARBOR_INVALID_ARGUMENT);
    CHECK(mv == 777); /* no error wrote a move */
    /* Garbage in the node area is harmless: each search starts a fresh tree. */
    CHECK_STATUS(arbor_mcts_init(buf, bytes, &config, NULL), ARBOR_OK);
    memset((char *)buf + 64, 0xCD, bytes - 64);
    CHECK_STATUS(arbor_mcts_search(buf, bytes, &state, 50, 1, &mv, &stats), ARBOR_OK);
    CHECK(is_legal(&state, mv));
    free(storage);
}

static void test_threads(void) {
    const uint32_t iterations = 1000;
    const uint32_t capacity = 2 * (48 * iterations + 1);
    size_t bytes = arbor_mcts_bytes(capacity);
    void *buf = malloc(bytes);
    arbor_mcts_config config;
    arbor_mcts_stats serial, one, two, again;
    arbor_breakthrough state;
    uint16_t mv = 0, mv1 = 0, mv2 = 0, mv3 = 777;
    CHECK(buf != NULL);
    if (buf == NULL) return;
    CHECK_STATUS(arbor_breakthrough_init(&state, 6, 5), ARBOR_OK);
    CHECK_STATUS(arbor_mcts_default_config(ARBOR_MCTS_MOGO, &config), ARBOR_OK);
    CHECK_STATUS(arbor_mcts_init(buf, bytes, &config, NULL), ARBOR_OK);

    /* One thread is the plain search, bit for bit. */
    CHECK_STATUS(arbor_mcts_search(buf, bytes, &state, iterations, 5, &mv, &serial), ARBOR_OK);
    CHECK_STATUS(arbor_mcts_search_threads(buf, bytes, &state, iterations, 1, 5, &mv1, &one), ARBOR_OK);
    CHECK(mv1 == mv && memcmp(&serial, &one, sizeof one) == 0);

    /* A no_std build has no threads: it says so and refuses more than one. */
    if (arbor_mcts_max_threads() == 1) {
        mv3 = 777;
        CHECK_STATUS(arbor_mcts_search_threads(buf, bytes, &state, iterations, 2, 5, &mv3, &two),
                     ARBOR_INVALID_ARGUMENT);
        CHECK(mv3 == 777);
        free(buf);
        return;
    }
    CHECK(arbor_mcts_max_threads() == ARBOR_MCTS_MAX_THREADS);

    /* Two threads: twice the iterations, the same answer for the same seed. */
    CHECK_STATUS(arbor_mcts_search_threads(buf, bytes, &state, iterations, 2, 5, &mv2, &two), ARBOR_OK);
    CHECK(is_legal(&state, mv2));
    CHECK(two.iterations == 2 * iterations && two.storage_full == 0);
    CHECK(two.nodes_used > serial.nodes_used && two.nodes_used <= capacity);
    CHECK_STATUS(arbor_mcts_search_threads(buf, bytes, &state, iterations, 2, 5, &mv3, &again), ARBOR_OK);
    CHECK(mv3 == mv2 && memcmp(&two, &again, sizeof two) == 0);

    /* A win in one is proven and played with four threads. */
    state = parsed("B..../..W../...../....B/..... w");
    CHECK_STATUS(arbor_mcts_search_threads(buf, bytes, &state, 300, 4, 1, &mv, &two), ARBOR_OK);
    CHECK(two.root_proof == ARBOR_MCTS_PROOF_WIN);
    {
        char text[ARBOR_BREAKTHROUGH_MOVE_TEXT_MAX];
        CHECK_STATUS(arbor_breakthrough_move_print(mv, text, sizeof text), ARBOR_OK);
        CHECK(text[4] == '5');
    }

    /* A buffer too small for the threads' trees still gives a legal move. */
    CHECK_STATUS(arbor_breakthrough_init(&state, 8, 8), ARBOR_OK);
    CHECK_STATUS(arbor_mcts_init(buf, arbor_mcts_bytes(40), &config, NULL), ARBOR_OK);
    CHECK_STATUS(arbor_mcts_search_threads(buf, arbor_mcts_bytes(40), &state, 50, 8, 2, &mv, &two), ARBOR_OK);
    CHECK(is_legal(&state, mv) && two.storage_full == 1);

    /* Thread counts outside 1..ARBOR_MCTS_MAX_THREADS are refused; nothing is written. */
    mv3 = 777;
    CHECK_STATUS(arbor_mcts_search_threads(buf, bytes, &state, 10, 0, 1, &mv3, &two), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_mcts_search_threads(buf, bytes, &state, 10, ARBOR_MCTS_MAX_THREADS + 1, 1, &mv3, &two),
                 ARBOR_INVALID_ARGUMENT);
    CHECK(mv3 == 777);
    CHECK_STATUS(arbor_mcts_search_threads(buf, bytes, &state, 10, 2, 1, NULL, &two), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_mcts_search_threads(NULL, bytes, &state, 10, 2, 1, &mv3, &two), ARBOR_NULL_POINTER);
    /* The buffer and state checks of arbor_mcts_search hold on this path too. */
    CHECK_STATUS(arbor_mcts_search_threads(buf, bytes, NULL, 10, 1, 1, &mv3, &two), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_mcts_search_threads(buf, 4, &state, 10, 1, 1, &mv3, &two), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_mcts_search_threads((char *)buf + 1, bytes - 8, &state, 10, 1, 1, &mv3, &two),
                 ARBOR_INVALID_ARGUMENT);
    memset(buf, 0xA5, bytes);
    CHECK_STATUS(arbor_mcts_search_threads(buf, bytes, &state, 10, 1, 1, &mv3, &two), ARBOR_INVALID_ARGUMENT);
    CHECK(mv3 == 777);
    free(buf);
}

int main(void) {
    test_sizes_and_config();
    test_search();
    test_threads();
    test_errors();
    return check_report("mcts");
}
