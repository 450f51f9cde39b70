/* The Breakthrough solver through the C ABI: a client sizes a table with
 * arbor_breakthrough_solve_bytes, solves small boards in it, reads the outcome, the winning
 * move and the statistics, tells "ran out of table" from "ran out of budget", and hits each
 * error. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arbor.h"
#include "check.h"

static arbor_status solve_with(const char *text, void *buffer, size_t bytes, uint64_t budget,
                               uint32_t options, arbor_breakthrough_solve_result *result) {
    return arbor_breakthrough_solve((const uint8_t *)text, strlen(text), buffer, bytes, budget,
                                    options, result, NULL);
}

static arbor_status solve(const char *text, void *buffer, size_t bytes, uint64_t budget,
                          arbor_breakthrough_solve_result *result) {
    return solve_with(text, buffer, bytes, budget, 0, result);
}

static void test_sizes(void) {
    size_t bytes = 0;
    CHECK(sizeof(arbor_breakthrough_solve_result) == ARBOR_BREAKTHROUGH_SOLVE_RESULT_BYTES);
    CHECK(ARBOR_BREAKTHROUGH_SOLVE_ALIGN == 16);
    CHECK_STATUS(arbor_breakthrough_solve_bytes(4, &bytes), ARBOR_OK);
    CHECK(bytes == 7 * 16);
    CHECK_STATUS(arbor_breakthrough_solve_bytes((size_t)1 << 16, &bytes), ARBOR_OK);
    CHECK(bytes == (((size_t)1 << 16) + 3) * 16);
    bytes = 5;
    CHECK_STATUS(arbor_breakthrough_solve_bytes(0, &bytes), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_solve_bytes(2, &bytes), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_solve_bytes(12, &bytes), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_solve_bytes((SIZE_MAX >> 1) + 1, &bytes), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_solve_bytes((size_t)1 << 60, &bytes), ARBOR_INVALID_ARGUMENT);
    CHECK(bytes == 5);
    CHECK_STATUS(arbor_breakthrough_solve_bytes(16, NULL), ARBOR_NULL_POINTER);
}

int main(void) {
    const size_t entries = (size_t)1 << 16;
    size_t bytes = 0;
    void *buffer;
    arbor_breakthrough_solve_result result, untouched;

    test_sizes();
    CHECK_STATUS(arbor_breakthrough_solve_bytes(entries, &bytes), ARBOR_OK);
    buffer = malloc(bytes); /* malloc's alignment is enough */
    CHECK(buffer != NULL);
    if (buffer == NULL) return check_report("solve");
    memset(buffer, 0xA5, bytes); /* scratch: any contents will do */

    /* 4x4 start: solved, with statistics. */
    memset(&result, 0xFF, sizeof result);
    CHECK_STATUS(solve("BBBB/BBBB/WWWW/WWWW w", buffer, bytes, UINT64_MAX, &result), ARBOR_OK);
    CHECK(result.outcome == ARBOR_BREAKTHROUGH_SOLVE_WIN || result.outcome == ARBOR_BREAKTHROUGH_SOLVE_LOSS);
    CHECK(result.expanded > 0 && result.touched >= result.expanded);
    CHECK(result.table_entries == entries);
    CHECK(result.peak_entries > 0 && result.peak_entries <= result.table_entries);
    CHECK((result.outcome == ARBOR_BREAKTHROUGH_SOLVE_WIN) == (result.best_move != ARBOR_BREAKTHROUGH_NO_MOVE));
    CHECK(result.reserved == 0);

    /* 4x5 start is a second-player win (the paper's result). */
    CHECK_STATUS(solve("BBBB/BBBB/..../WWWW/WWWW w", buffer, bytes, UINT64_MAX, &result), ARBOR_OK);
    CHECK(result.outcome == ARBOR_BREAKTHROUGH_SOLVE_LOSS);
    CHECK(result.best_move == ARBOR_BREAKTHROUGH_NO_MOVE);

    /* The same with race patterns: the same answer in fewer expansions. */
    {
        arbor_breakthrough_solve_result plain, patterned;
        CHECK_STATUS(solve("BBBB/BBBB/..../WWWW/WWWW w", buffer, bytes, UINT64_MAX, &plain), ARBOR_OK);
        CHECK_STATUS(solve_with("BBBB/BBBB/..../WWWW/WWWW w", buffer, bytes, UINT64_MAX,
                                ARBOR_BREAKTHROUGH_SOLVE_PATTERNS, &patterned), ARBOR_OK);
        CHECK(patterned.outcome == ARBOR_BREAKTHROUGH_SOLVE_LOSS);
        CHECK(patterned.expanded < plain.expanded);
        /* Scratch: the same call again in the used table gives the same answer and work. */
        CHECK_STATUS(solve("BBBB/BBBB/..../WWWW/WWWW w", buffer, bytes, UINT64_MAX, &result), ARBOR_OK);
        CHECK(result.expanded == plain.expanded && result.touched == plain.touched);
    }

    /* A white pawn one step from the goal: White wins, and the move reaches rank 4. */
    CHECK_STATUS(solve("B.../.W../..../.... w", buffer, bytes, UINT64_MAX, &result), ARBOR_OK);
    CHECK(result.outcome == ARBOR_BREAKTHROUGH_SOLVE_WIN);
    CHECK(result.best_move != ARBOR_BREAKTHROUGH_NO_MOVE && ((result.best_move >> 6) & 63) / 8 == 3);

    /* A budget too small, in a roomy table: the budget is what ran out. */
    CHECK_STATUS(solve("BBBB/BBBB/..../WWWW/WWWW w", buffer, bytes, 10, &result), ARBOR_OK);
    CHECK(result.outcome == ARBOR_BREAKTHROUGH_SOLVE_BUDGET_SPENT);
    CHECK(result.expanded <= 10 && result.peak_entries < result.table_entries);
    CHECK(result.best_move == ARBOR_BREAKTHROUGH_NO_MOVE);

    /* A table of 16 entries for the 4x5 start: it fills up, and the result says so. */
    {
        size_t small = 0;
        CHECK_STATUS(arbor_breakthrough_solve_bytes(16, &small), ARBOR_OK);
        CHECK_STATUS(solve("BBBB/BBBB/..../WWWW/WWWW w", buffer, small, 20000, &result), ARBOR_OK);
        CHECK(result.outcome == ARBOR_BREAKTHROUGH_SOLVE_TABLE_FULL);
        CHECK(result.table_entries == 16 && result.peak_entries == 16);
        CHECK(result.expanded <= 20000);
        /* A length between powers of two uses the power below; 4 entries are the least. */
        CHECK_STATUS(solve("BBBB/BBBB/WWWW/WWWW w", buffer, small + 16 * 8, 100, &result), ARBOR_OK);
        CHECK(result.table_entries == 16);
        CHECK_STATUS(solve("BBBB/BBBB/WWWW/WWWW w", buffer, 64, 100, &result), ARBOR_OK);
        CHECK(result.table_entries == 4);
    }

    /* Errors: nothing written. */
    memset(&result, 0x3C, sizeof result);
    untouched = result;
    CHECK_STATUS(solve("BBBB/BBBB/WWWW/WWWW w", NULL, bytes, 100, &result), ARBOR_NULL_POINTER);
    CHECK_STATUS(solve("BBBB/BBBB/WWWW/WWWW w", NULL, 0, 100, &result), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_breakthrough_solve(NULL, 5, buffer, bytes, 100, 0, &result, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(solve("BBBB/BBBB/WWWW/WWWW w", buffer, bytes, 100, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(solve("\xff\xfe", buffer, bytes, 100, &result), ARBOR_INVALID_UTF8);
    CHECK_STATUS(solve("BBBB/BBBB/WWWW/WWWW w", buffer, 63, 100, &result), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(solve("BBBB/BBBB/WWWW/WWWW w", buffer, SIZE_MAX, 100, &result), ARBOR_INVALID_LENGTH);
    CHECK_STATUS(arbor_breakthrough_solve((const uint8_t *)"x", SIZE_MAX, buffer, bytes, 100, 0, &result, NULL),
                 ARBOR_INVALID_LENGTH);
    CHECK_STATUS(solve_with("BBBB/BBBB/WWWW/WWWW w", buffer, bytes, 100, 2, &result), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(solve("BBBB/BBBB/WWWW/WWWW w", (uint8_t *)buffer + 1, bytes - 1, 100, &result),
                 ARBOR_MISALIGNED);
    CHECK_STATUS(solve("BBBB/BBBB/WWWW/WWWW w", (uint8_t *)buffer + 8, bytes - 8, 100, &result),
                 ARBOR_MISALIGNED);
    {
        arbor_parse_error error;
        memset(&error, 0xAB, sizeof error);
        CHECK_STATUS(arbor_breakthrough_solve((const uint8_t *)"not a position", 14, buffer, bytes, 100, 0,
                                              &result, &error),
                     ARBOR_PARSE_ERROR);
        CHECK(error.line == 1 && error.column == 1);
        CHECK(strcmp((const char *)error.message,
                     "expected a cell ('W', 'B' or '.'), '/' between rows, or a space before the side") == 0);
        CHECK_STATUS(solve("not a position", buffer, bytes, 100, &result), ARBOR_PARSE_ERROR);
    }
    CHECK(memcmp(&result, &untouched, sizeof result) == 0);

    /* Any 16-byte aligned start works (the buckets then start where a cache line does). */
    CHECK_STATUS(solve("BBBB/BBBB/WWWW/WWWW w", (uint8_t *)buffer + 16, bytes - 16, UINT64_MAX, &result),
                 ARBOR_OK);
    CHECK(result.outcome == ARBOR_BREAKTHROUGH_SOLVE_WIN || result.outcome == ARBOR_BREAKTHROUGH_SOLVE_LOSS);

    free(buffer);
    return check_report("solve");
}
