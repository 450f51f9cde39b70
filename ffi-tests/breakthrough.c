/* Breakthrough through the C ABI as a game client would use it: a position held by value,
 * text in and out, legal moves, play, status, hash, and every error path (NULL pointers,
 * short buffers, foreign and other-version structs, game over, bad text with its line,
 * column and message). */
#include <stdint.h>
#include <string.h>

#include "arbor.h"
#include "check.h"

static arbor_status parse(const char *text, size_t len, arbor_breakthrough *state) {
    return arbor_breakthrough_parse((const uint8_t *)text, len, state, NULL);
}

static arbor_breakthrough parsed(const char *text) {
    arbor_breakthrough state;
    memset(&state, 0, sizeof state);
    CHECK_STATUS(parse(text, strlen(text), &state), ARBOR_OK);
    return state;
}

static uint16_t move_of(const char *text) {
    uint16_t mv = 0xFFFF;
    CHECK_STATUS(arbor_breakthrough_move_parse((const uint8_t *)text, strlen(text), &mv, NULL),
                 ARBOR_OK);
    return mv;
}

/* A parse of `text` fails at `column` with `message`, and writes nothing else. */
static void check_parse_error(const char *text, uint32_t column, const char *message) {
    arbor_breakthrough state, before;
    arbor_parse_error error;
    memset(&state, 0x5A, sizeof state);
    before = state;
    memset(&error, 0xAB, sizeof error);
    CHECK_STATUS(arbor_breakthrough_parse((const uint8_t *)text, strlen(text), &state, &error),
                 ARBOR_PARSE_ERROR);
    CHECK(memcmp(&state, &before, sizeof state) == 0);
    CHECK(error.line == 1 && error.column == column && error.reserved == 0);
    CHECK(error.message_len == strlen(message));
    CHECK(strcmp((const char *)error.message, message) == 0);
    if (error.column != column || strcmp((const char *)error.message, message) != 0)
        fprintf(stderr, "  %s: column %u, message %s\n", text, (unsigned)error.column,
                (const char *)error.message);
}

static void check_move_parse_error(const char *text, uint32_t column, const char *message) {
    uint16_t mv = 1234;
    arbor_parse_error error;
    memset(&error, 0xAB, sizeof error);
    CHECK_STATUS(arbor_breakthrough_move_parse((const uint8_t *)text, strlen(text), &mv, &error),
                 ARBOR_PARSE_ERROR);
    CHECK(mv == 1234);
    CHECK(error.line == 1 && error.column == column);
    CHECK(strcmp((const char *)error.message, message) == 0);
}

static void test_init_format_parse(void) {
    arbor_breakthrough state, again;
    char text[ARBOR_BREAKTHROUGH_TEXT_MAX];
    size_t len = 0;
    CHECK(sizeof(arbor_breakthrough) == ARBOR_BREAKTHROUGH_BYTES);
    CHECK(ARBOR_BREAKTHROUGH_BYTES == 40);
    CHECK_STATUS(arbor_breakthrough_init(5, 5, &state), ARBOR_OK);
    CHECK(state.magic == 0x53505442u); /* "BTPS" little-endian */
    CHECK(state.version == ARBOR_ABI_VERSION);
    CHECK(state.columns == 5 && state.rows == 5 && state.turn == 0);
    CHECK(state.white == 0x1F1Full);
    CHECK(state.reserved[0] == 0 && state.reserved[4] == 0);
    CHECK_STATUS(arbor_breakthrough_format(&state, text, sizeof text, &len), ARBOR_OK);
    CHECK(strcmp(text, "BBBBB/BBBBB/...../WWWWW/WWWWW w") == 0 && len == 31);
    again = parsed(text);
    CHECK(memcmp(&again, &state, sizeof state) == 0);

    /* The 8x8 text needs the whole buffer: 73 characters and the NUL. */
    CHECK_STATUS(arbor_breakthrough_init(8, 8, &state), ARBOR_OK);
    CHECK_STATUS(arbor_breakthrough_format(&state, text, 74, NULL), ARBOR_OK);
    CHECK(strlen(text) == 73);
    memset(text, 'z', sizeof text);
    len = 0;
    CHECK_STATUS(arbor_breakthrough_format(&state, text, 73, &len), ARBOR_BUFFER_TOO_SMALL);
    CHECK(text[0] == 'z' && len == 73); /* nothing written, the length reported */
    len = 0;
    CHECK_STATUS(arbor_breakthrough_format(&state, NULL, 0, &len), ARBOR_BUFFER_TOO_SMALL);
    CHECK(len == 73);
    CHECK_STATUS(arbor_breakthrough_format(&state, NULL, 74, &len), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_format(NULL, text, 74, &len), ARBOR_NULL_POINTER);

    /* Sizes out of range, NULL, and bad text leave the state alone. */
    again = state;
    CHECK_STATUS(arbor_breakthrough_init(9, 8, &state), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_init(1, 8, &state), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_init(5, 3, &state), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_init(0x105, 5, &state), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_init(5, 5, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(parse("BBB/... w", 9, &state), ARBOR_PARSE_ERROR);
    CHECK_STATUS(parse("BB/BB/../WW/WW w ", 17, &state), ARBOR_PARSE_ERROR);
    CHECK_STATUS(parse("BB/BB/../WW/WW w", 15, &state), ARBOR_PARSE_ERROR);
    CHECK_STATUS(parse("", 0, &state), ARBOR_PARSE_ERROR);
    CHECK_STATUS(parse(NULL, 0, &state), ARBOR_PARSE_ERROR); /* NULL, 0 is the empty text */
    CHECK_STATUS(parse(NULL, 5, &state), ARBOR_NULL_POINTER);
    CHECK_STATUS(parse("BB/BB/../WW/WW w", 16, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(parse("BB/BB/../WW/WW \xff", 16, &state), ARBOR_INVALID_UTF8);
    CHECK_STATUS(parse("BB/BB/../WW/WW w", SIZE_MAX, &state), ARBOR_INVALID_LENGTH);
    CHECK(memcmp(&again, &state, sizeof state) == 0);

    /* The parse error says where and why, in the core's words. */
    check_parse_error("BB/BB/../WW/WW x", 16, "the side to move must be 'w' or 'b'");
    check_parse_error("BB/B/../WW/WW w", 5, "every row must be as long as the first");
    check_parse_error("BB/BB/../WW/WW w ", 17, "unexpected text after the end");
    check_parse_error("BB/BB/../WW/WW", 15, "expected a space and the side to move ('w' or 'b')");
    check_parse_error("", 1, "expected a space and the side to move ('w' or 'b')");
    check_parse_error("BQ/BB/../WW/WW w", 2,
                      "expected a cell ('W', 'B' or '.'), '/' between rows, or a space before the side");
    check_parse_error("B/B/./W/W w", 2, "a board has 2 to 8 columns");
    check_parse_error("BB/BB/WW w", 9, "a board has 4 to 8 rows");
    /* Well formed but not a position (White already on the last rank, White to move):
     * column 0, the whole text. */
    check_parse_error("W./../../.B w", 0,
                      "the side to move has already won, so the game would have ended");
}

static void test_moves_and_play(void) {
    arbor_breakthrough state, before;
    uint16_t moves[ARBOR_BREAKTHROUGH_MAX_MOVES];
    uint16_t few[3] = {7, 7, 7};
    size_t count = 0, len = 0;
    uint64_t hash = 0, start_hash = 0;
    uint32_t status = 99;
    char text[ARBOR_BREAKTHROUGH_MOVE_TEXT_MAX];

    CHECK_STATUS(arbor_breakthrough_init(8, 8, &state), ARBOR_OK);
    CHECK_STATUS(arbor_breakthrough_legal_moves(&state, moves, ARBOR_BREAKTHROUGH_MAX_MOVES, &count), ARBOR_OK);
    CHECK(count == 22);
    CHECK_STATUS(arbor_breakthrough_move_format(moves[0], text, sizeof text, &len), ARBOR_OK);
    CHECK(strcmp(text, "a2-a3") == 0 && len == 5);
    /* Too small: nothing written (ARBOR_BREAKTHROUGH_MAX_MOVES always suffices). */
    count = 99;
    CHECK_STATUS(arbor_breakthrough_legal_moves(&state, few, 3, &count), ARBOR_BUFFER_TOO_SMALL);
    CHECK(count == 99 && few[0] == 7 && few[2] == 7);
    CHECK_STATUS(arbor_breakthrough_legal_moves(&state, NULL, 0, &count), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_breakthrough_legal_moves(&state, NULL, 5, &count), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_legal_moves(&state, moves, 48, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_legal_moves(NULL, moves, 48, &count), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_legal_moves(&state, moves, SIZE_MAX, &count), ARBOR_INVALID_LENGTH);
    CHECK(count == 99);
    {
        /* A misaligned move array is refused. */
        uint16_t storage[4];
        uint16_t *odd = (uint16_t *)(void *)((char *)storage + 1);
        CHECK_STATUS(arbor_breakthrough_legal_moves(&state, odd, 2, &count), ARBOR_MISALIGNED);
    }

    CHECK_STATUS(arbor_breakthrough_hash(&state, &start_hash), ARBOR_OK);
    CHECK(start_hash == state.hash);
    CHECK_STATUS(arbor_breakthrough_play(&state, move_of("c2-c3")), ARBOR_OK);
    CHECK(state.turn == 1);
    CHECK_STATUS(arbor_breakthrough_hash(&state, &hash), ARBOR_OK);
    CHECK(hash != start_hash && hash == state.hash);

    /* Illegal moves: wrong side, wrong capture mark, backwards; junk bits are out of range. */
    before = state;
    CHECK_STATUS(arbor_breakthrough_play(&state, move_of("c3-c4")), ARBOR_ILLEGAL_MOVE);
    CHECK_STATUS(arbor_breakthrough_play(&state, move_of("a7xa6")), ARBOR_ILLEGAL_MOVE);
    CHECK_STATUS(arbor_breakthrough_play(&state, move_of("a6-a7")), ARBOR_ILLEGAL_MOVE);
    CHECK_STATUS(arbor_breakthrough_play(&state, 0xFFFF), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_play(NULL, move_of("a7-a6")), ARBOR_NULL_POINTER);
    CHECK(memcmp(&before, &state, sizeof state) == 0);

    /* A tampered struct is refused, never trusted. */
    before.white |= before.black;
    CHECK_STATUS(arbor_breakthrough_play(&before, move_of("a7-a6")), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_status(&before, &status), ARBOR_INVALID_ARGUMENT);
    CHECK(status == 99);
    before = state;
    before.turn = 2;
    CHECK_STATUS(arbor_breakthrough_hash(&before, &hash), ARBOR_INVALID_ARGUMENT);
    before = state;
    before.rows = 9;
    CHECK_STATUS(arbor_breakthrough_legal_moves(&before, moves, 48, &count), ARBOR_INVALID_ARGUMENT);
    before = state;
    before.hash ^= 1; /* a wrong hash field is simply recomputed */
    CHECK_STATUS(arbor_breakthrough_hash(&before, &hash), ARBOR_OK);
    CHECK(hash == state.hash);

    CHECK_STATUS(arbor_breakthrough_status(&state, &status), ARBOR_OK);
    CHECK(status == ARBOR_BREAKTHROUGH_ONGOING);
    CHECK_STATUS(arbor_breakthrough_status(&state, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_status(NULL, &status), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_hash(&state, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_hash(NULL, &hash), ARBOR_NULL_POINTER);
}

/* Every function that reads a position refuses one from another version (the magic kept)
 * and one never filled by arbor (another magic), and writes nothing. */
static void test_foreign_structs(void) {
    arbor_breakthrough good, other_version, foreign, copy;
    uint16_t moves[ARBOR_BREAKTHROUGH_MAX_MOVES] = {0};
    size_t count = 77, len = 77;
    uint64_t hash = 77;
    uint32_t status = 77;
    char text[ARBOR_BREAKTHROUGH_TEXT_MAX] = "z";
    int i;
    CHECK_STATUS(arbor_breakthrough_init(6, 5, &good), ARBOR_OK);
    other_version = good;
    other_version.version ^= 1;
    foreign = good;
    foreign.magic = 0;
    for (i = 0; i < 2; i++) {
        const arbor_breakthrough *bad = i == 0 ? &other_version : &foreign;
        arbor_status expected = i == 0 ? ARBOR_WRONG_VERSION : ARBOR_NOT_INITIALISED;
        copy = *bad;
        CHECK_STATUS(arbor_breakthrough_format(bad, text, sizeof text, &len), expected);
        CHECK_STATUS(arbor_breakthrough_legal_moves(bad, moves, 48, &count), expected);
        CHECK_STATUS(arbor_breakthrough_play(&copy, move_of("a2-a3")), expected);
        CHECK_STATUS(arbor_breakthrough_status(bad, &status), expected);
        CHECK_STATUS(arbor_breakthrough_hash(bad, &hash), expected);
        CHECK(memcmp(&copy, bad, sizeof copy) == 0);
    }
    CHECK(count == 77 && len == 77 && hash == 77 && status == 77 && text[0] == 'z' && moves[0] == 0);
    /* A zeroed struct was never prepared. */
    memset(&copy, 0, sizeof copy);
    CHECK_STATUS(arbor_breakthrough_hash(&copy, &hash), ARBOR_NOT_INITIALISED);
    /* A memcpy'd one is as good as the original. */
    memcpy(&copy, &good, sizeof copy);
    CHECK_STATUS(arbor_breakthrough_hash(&copy, &hash), ARBOR_OK);
    CHECK(hash == good.hash);
}

static void test_a_game_to_the_end(void) {
    /* Black to move wins by reaching rank 1; afterwards the game is over. */
    arbor_breakthrough state = parsed("..../..../.B../..W. b");
    arbor_breakthrough over;
    uint16_t moves[ARBOR_BREAKTHROUGH_MAX_MOVES];
    size_t count = 0;
    uint32_t status = 99;
    CHECK_STATUS(arbor_breakthrough_play(&state, move_of("b2-b1")), ARBOR_OK);
    CHECK_STATUS(arbor_breakthrough_status(&state, &status), ARBOR_OK);
    CHECK(status == ARBOR_BREAKTHROUGH_BLACK_WON);
    CHECK_STATUS(arbor_breakthrough_legal_moves(&state, moves, 48, &count), ARBOR_OK);
    CHECK(count == 0);
    CHECK_STATUS(arbor_breakthrough_legal_moves(&state, NULL, 0, &count), ARBOR_OK);
    over = state;
    CHECK_STATUS(arbor_breakthrough_play(&state, move_of("c1-c2")), ARBOR_GAME_OVER);
    CHECK(memcmp(&over, &state, sizeof state) == 0);

    /* Play the first legal move until someone wins: games always end. */
    CHECK_STATUS(arbor_breakthrough_init(6, 5, &state), ARBOR_OK);
    {
        int plies = 0;
        for (;;) {
            CHECK_STATUS(arbor_breakthrough_legal_moves(&state, moves, 48, &count), ARBOR_OK);
            if (count == 0 || plies > 100) break;
            CHECK_STATUS(arbor_breakthrough_play(&state, moves[0]), ARBOR_OK);
            plies++;
        }
        CHECK(plies > 0 && plies <= 60);
        CHECK_STATUS(arbor_breakthrough_status(&state, &status), ARBOR_OK);
        CHECK(status == ARBOR_BREAKTHROUGH_WHITE_WON || status == ARBOR_BREAKTHROUGH_BLACK_WON);
        CHECK_STATUS(arbor_breakthrough_play(&state, moves[0]), ARBOR_GAME_OVER);
    }
}

static void test_move_text(void) {
    uint16_t mv = 1234;
    char text[ARBOR_BREAKTHROUGH_MOVE_TEXT_MAX];
    size_t len = 0;
    mv = move_of("b4xa3");
    CHECK_STATUS(arbor_breakthrough_move_format(mv, text, sizeof text, &len), ARBOR_OK);
    CHECK(strcmp(text, "b4xa3") == 0 && len == 5);
    check_move_parse_error("b4?a3", 3, "expected '-' for a move or 'x' for a capture");
    check_move_parse_error("i4-a3", 1, "expected a square: a file 'a'-'h', then a rank '1'-'8'");
    check_move_parse_error("b4-a3 ", 6, "unexpected text after the end");
    check_move_parse_error("b4-a", 5, "expected a square: a file 'a'-'h', then a rank '1'-'8'");
    mv = 1234;
    CHECK_STATUS(arbor_breakthrough_move_parse(NULL, 5, &mv, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_move_parse(NULL, 0, &mv, NULL), ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_breakthrough_move_parse((const uint8_t *)"b4-a3", 5, NULL, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_move_parse((const uint8_t *)"b4-\xff" "3", 5, &mv, NULL), ARBOR_INVALID_UTF8);
    CHECK(mv == 1234);
    len = 0;
    CHECK_STATUS(arbor_breakthrough_move_format(0xE000, text, sizeof text, &len), ARBOR_INVALID_ARGUMENT);
    CHECK(len == 0);
    memset(text, 'z', sizeof text);
    CHECK_STATUS(arbor_breakthrough_move_format(0, text, 5, &len), ARBOR_BUFFER_TOO_SMALL);
    CHECK(len == 5 && text[0] == 'z');
    CHECK_STATUS(arbor_breakthrough_move_format(0, NULL, 0, &len), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_breakthrough_move_format(0, NULL, 6, &len), ARBOR_NULL_POINTER);
}

int main(void) {
    test_init_format_parse();
    test_moves_and_play();
    test_foreign_structs();
    test_a_game_to_the_end();
    test_move_text();
    return check_report("breakthrough");
}
