/* The Breakthrough solver through the C ABI: a client solves small boards in its own
 * buffer, reads the outcome, the winning move and the statistics, and hits each error. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arbor.h"
#include "check.h"

static arbor_status solve_with(const char *text, void *buffer, size_t bytes, uint64_t budget,
                               uint32_t options, uint32_t *outcome, uint16_t *move,
                               arbor_solve_stats *stats) {
    return arbor_breakthrough_solve(text, strlen(text), (uint8_t *)buffer, bytes, budget,
                                    options, outcome, move, stats);
}

static arbor_status solve(const char *text, void *buffer, size_t bytes, uint64_t budget,
                          uint32_t *outcome, uint16_t *move, arbor_solve_stats *stats) {
    return solve_with(text, buffer, bytes, budget, 0, outcome, move, stats);
}

int main(void) {
    size_t entry = arbor_solve_entry_bytes();
    size_t bytes = entry * ((size_t)1 << 16);
    void *buffer = malloc(bytes);
    uint32_t outcome = 99;
    uint16_t move = 0;
    arbor_solve_stats stats;
    CHECK(entry >= 16 && entry <= 64);
    CHECK(buffer != NULL);

    /* 4x4 start: solved, with statistics. */
    memset(&stats, 0, sizeof stats);
    CHECK_STATUS(solve("BBBB/BBBB/WWWW/WWWW w", buffer, bytes, UINT64_MAX, &outcome, &move,
                       &stats), ARBOR_OK);
    CHECK(outcome == ARBOR_SOLVE_WIN || outcome == ARBOR_SOLVE_LOSS);
    CHECK(stats.expanded > 0 && stats.touched >= stats.expanded);
    CHECK(stats.peak_entries > 0 && stats.peak_entries <= (1u << 16));
    CHECK((outcome == ARBOR_SOLVE_WIN) == (move != 0xFFFF));

    /* 4x5 start is a second-player win (the paper's result). */
    CHECK_STATUS(solve("BBBB/BBBB/..../WWWW/WWWW w", buffer, bytes, UINT64_MAX, &outcome,
                       &move, NULL), ARBOR_OK);
    CHECK(outcome == ARBOR_SOLVE_LOSS);
    CHECK(move == 0xFFFF);

    /* The same with race patterns: the same answer in fewer expansions. */
    {
        arbor_solve_stats plain, patterned;
        CHECK_STATUS(solve("BBBB/BBBB/..../WWWW/WWWW w", buffer, bytes, UINT64_MAX, &outcome,
                           &move, &plain), ARBOR_OK);
        CHECK_STATUS(solve_with("BBBB/BBBB/..../WWWW/WWWW w", buffer, bytes, UINT64_MAX,
                                ARBOR_SOLVE_PATTERNS, &outcome, &move, &patterned), ARBOR_OK);
        CHECK(outcome == ARBOR_SOLVE_LOSS);
        CHECK(patterned.expanded < plain.expanded);
    }

    /* A white pawn one step from the goal: White wins, and the move reaches rank 4. */
    CHECK_STATUS(solve("B.../.W../..../.... w", buffer, bytes, UINT64_MAX, &outcome, &move,
                       NULL), ARBOR_OK);
    CHECK(outcome == ARBOR_SOLVE_WIN);
    CHECK(move != 0xFFFF && ((move >> 6) & 63) / 8 == 3);

    /* A budget too small: unknown, not an error. */
    CHECK_STATUS(solve("BBBB/BBBB/..../WWWW/WWWW w", buffer, bytes, 10, &outcome, &move,
                       &stats), ARBOR_OK);
    CHECK(outcome == ARBOR_SOLVE_UNKNOWN);
    CHECK(stats.expanded <= 10);

    /* Errors. */
    CHECK_STATUS(solve("BBBB/BBBB/WWWW/WWWW w", NULL, bytes, 100, &outcome, &move, NULL),
                 ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_solve(NULL, 0, (uint8_t *)buffer, bytes, 100, 0, &outcome,
                                          &move, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(solve("BBBB/BBBB/WWWW/WWWW w", buffer, bytes, 100, NULL, &move, NULL),
                 ARBOR_NULL_POINTER);
    CHECK_STATUS(solve("BBBB/BBBB/WWWW/WWWW w", buffer, bytes, 100, &outcome, NULL, NULL),
                 ARBOR_NULL_POINTER);
    CHECK_STATUS(solve("not a position", buffer, bytes, 100, &outcome, &move, NULL),
                 ARBOR_PARSE_ERROR);
    CHECK_STATUS(solve("\xff\xfe", buffer, bytes, 100, &outcome, &move, NULL),
                 ARBOR_INVALID_UTF8);
    CHECK_STATUS(solve("BBBB/BBBB/WWWW/WWWW w", buffer, entry * 2, 100, &outcome, &move,
                       NULL), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(solve_with("BBBB/BBBB/WWWW/WWWW w", buffer, bytes, 100, 2, &outcome, &move,
                            NULL), ARBOR_INVALID_ARGUMENT);
    /* An unaligned buffer is accepted: its aligned part is used. */
    CHECK_STATUS(solve("BBBB/BBBB/WWWW/WWWW w", (uint8_t *)buffer + 1, bytes - 1, UINT64_MAX,
                       &outcome, &move, NULL), ARBOR_OK);
    CHECK(outcome == ARBOR_SOLVE_WIN || outcome == ARBOR_SOLVE_LOSS);

    free(buffer);
    return check_report("solve");
}
