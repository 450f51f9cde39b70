/* Breakthrough through the C ABI as a game client would use it: a position held by value,
 * text in and out, legal moves, play, status, hash, and every error path. */
#include <stdint.h>
#include <string.h>

#include "arbor.h"
#include "check.h"

static arbor_breakthrough parsed(const char *text) {
    arbor_breakthrough state;
    memset(&state, 0, sizeof state);
    CHECK_STATUS(arbor_breakthrough_parse(text, strlen(text), &state), ARBOR_OK);
    return state;
}

static uint16_t move_of(const char *text) {
    uint16_t mv = 0xFFFF;
    CHECK_STATUS(arbor_breakthrough_move_parse(text, strlen(text), &mv), ARBOR_OK);
    return mv;
}

static void test_init_print_parse(void) {
    arbor_breakthrough state, again;
    char text[ARBOR_BREAKTHROUGH_TEXT_MAX];
    CHECK(sizeof(arbor_breakthrough) == 32);
    CHECK_STATUS(arbor_breakthrough_init(&state, 5, 5), ARBOR_OK);
    CHECK(state.columns == 5 && state.rows == 5 && state.turn == 0);
    CHECK(state.white == 0x1F1Full);
    CHECK_STATUS(arbor_breakthrough_print(&state, text, sizeof text), ARBOR_OK);
    CHECK(strcmp(text, "BBBBB/BBBBB/...../WWWWW/WWWWW w") == 0);
    again = parsed(text);
    CHECK(memcmp(&again, &state, sizeof state) == 0);

    /* The 8x8 text needs the whole buffer: 73 characters and the NUL. */
    CHECK_STATUS(arbor_breakthrough_init(&state, 8, 8), ARBOR_OK);
    CHECK_STATUS(arbor_breakthrough_print(&state, text, 74), ARBOR_OK);
    CHECK(strlen(text) == 73);
    memset(text, 'z', sizeof text);
    CHECK_STATUS(arbor_breakthrough_print(&state, text, 73), ARBOR_BUFFER_TOO_SMALL);
    CHECK(text[0] == 'z'); /* nothing written */
    CHECK_STATUS(arbor_breakthrough_print(&state, NULL, 74), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_print(NULL, text, 74), ARBOR_NULL_POINTER);

    /* Sizes out of range, NULL, and bad text leave the state alone. */
    again = state;
    CHECK_STATUS(arbor_breakthrough_init(&state, 9, 8), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_init(&state, 1, 8), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_init(&state, 5, 3), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_init(&state, 0x105, 5), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_init(NULL, 5, 5), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_parse("BBB/... w", 9, &state), ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_breakthrough_parse("BB/BB/../WW/WW x", 16, &state), ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_breakthrough_parse("BB/BB/../WW/WW w ", 17, &state), ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_breakthrough_parse("BB/BB/../WW/WW w", 15, &state), ARBOR_PARSE_ERROR);
    /* White already on the last rank with White to move: an invalid position. */
    CHECK_STATUS(arbor_breakthrough_parse("W./../../.B w", 12, &state), ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_breakthrough_parse("", 0, &state), ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_breakthrough_parse(NULL, 0, &state), ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_breakthrough_parse(NULL, 5, &state), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_parse("BB/BB/../WW/WW w", 16, NULL), ARBOR_NULL_POINTER);
    CHECK(memcmp(&again, &state, sizeof state) == 0);
}

static void test_moves_and_play(void) {
    arbor_breakthrough state, before;
    uint16_t moves[ARBOR_BREAKTHROUGH_MAX_MOVES];
    uint16_t few[3] = {7, 7, 7};
    size_t count = 0;
    uint64_t hash = 0, start_hash = 0;
    uint32_t status = 99;
    char text[ARBOR_BREAKTHROUGH_MOVE_TEXT_MAX];

    CHECK_STATUS(arbor_breakthrough_init(&state, 8, 8), ARBOR_OK);
    CHECK_STATUS(arbor_breakthrough_legal_moves(&state, moves, ARBOR_BREAKTHROUGH_MAX_MOVES, &count), ARBOR_OK);
    CHECK(count == 22);
    CHECK_STATUS(arbor_breakthrough_move_print(moves[0], text, sizeof text), ARBOR_OK);
    CHECK(strcmp(text, "a2-a3") == 0);
    /* Too small: the count says how many are needed, the array is untouched. */
    count = 0;
    CHECK_STATUS(arbor_breakthrough_legal_moves(&state, few, 3, &count), ARBOR_BUFFER_TOO_SMALL);
    CHECK(count == 22 && few[0] == 7);
    CHECK_STATUS(arbor_breakthrough_legal_moves(&state, NULL, 0, &count), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_breakthrough_legal_moves(&state, NULL, 5, &count), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_legal_moves(&state, moves, 48, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_legal_moves(NULL, moves, 48, &count), ARBOR_NULL_POINTER);
    {
        /* A misaligned move array is refused. */
        uint16_t storage[4];
        uint16_t *odd = (uint16_t *)((char *)storage + 1);
        CHECK_STATUS(arbor_breakthrough_legal_moves(&state, odd, 2, &count), ARBOR_INVALID_ARGUMENT);
    }

    CHECK_STATUS(arbor_breakthrough_hash(&state, &start_hash), ARBOR_OK);
    CHECK(start_hash == state.hash);
    CHECK_STATUS(arbor_breakthrough_play(&state, move_of("c2-c3")), ARBOR_OK);
    CHECK(state.turn == 1);
    CHECK_STATUS(arbor_breakthrough_hash(&state, &hash), ARBOR_OK);
    CHECK(hash != start_hash && hash == state.hash);

    /* Illegal moves: wrong side, wrong capture mark, backwards, junk bits. */
    before = state;
    CHECK_STATUS(arbor_breakthrough_play(&state, move_of("c3-c4")), ARBOR_ILLEGAL_MOVE);
    CHECK_STATUS(arbor_breakthrough_play(&state, move_of("a7xa6")), ARBOR_ILLEGAL_MOVE);
    CHECK_STATUS(arbor_breakthrough_play(&state, move_of("a6-a7")), ARBOR_ILLEGAL_MOVE);
    CHECK_STATUS(arbor_breakthrough_play(&state, 0xFFFF), ARBOR_ILLEGAL_MOVE);
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
    CHECK_STATUS(arbor_breakthrough_hash(&state, NULL), ARBOR_NULL_POINTER);
}

static void test_a_game_to_the_end(void) {
    /* Black to move wins by reaching rank 1; afterwards nothing is legal. */
    arbor_breakthrough state = parsed("..../..../.B../..W. b");
    uint16_t moves[ARBOR_BREAKTHROUGH_MAX_MOVES];
    size_t count = 0;
    uint32_t status = 99;
    CHECK_STATUS(arbor_breakthrough_play(&state, move_of("b2-b1")), ARBOR_OK);
    CHECK_STATUS(arbor_breakthrough_status(&state, &status), ARBOR_OK);
    CHECK(status == ARBOR_BREAKTHROUGH_BLACK_WON);
    CHECK_STATUS(arbor_breakthrough_legal_moves(&state, moves, 48, &count), ARBOR_OK);
    CHECK(count == 0);
    CHECK_STATUS(arbor_breakthrough_play(&state, move_of("c1-c2")), ARBOR_ILLEGAL_MOVE);

    /* Play the first legal move until someone wins: games always end. */
    CHECK_STATUS(arbor_breakthrough_init(&state, 6, 5), ARBOR_OK);
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
    }
}

static void test_move_text(void) {
    uint16_t mv = 1234;
    char text[ARBOR_BREAKTHROUGH_MOVE_TEXT_MAX];
    mv = move_of("b4xa3");
    CHECK_STATUS(arbor_breakthrough_move_print(mv, text, sizeof text), ARBOR_OK);
    CHECK(strcmp(text, "b4xa3") == 0);
    mv = 1234;
    CHECK_STATUS(arbor_breakthrough_move_parse("b4?a3", 5, &mv), ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_breakthrough_move_parse("i4-a3", 5, &mv), ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_breakthrough_move_parse("b4-a3 ", 6, &mv), ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_breakthrough_move_parse("b4-a", 4, &mv), ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_breakthrough_move_parse(NULL, 5, &mv), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_breakthrough_move_parse("b4-a3", 5, NULL), ARBOR_NULL_POINTER);
    CHECK(mv == 1234);
    CHECK_STATUS(arbor_breakthrough_move_print(0xE000, text, sizeof text), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_breakthrough_move_print(0, text, 5), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_breakthrough_move_print(0, NULL, 6), ARBOR_NULL_POINTER);
}

int main(void) {
    test_init_print_parse();
    test_moves_and_play();
    test_a_game_to_the_end();
    test_move_text();
    return check_report("breakthrough");
}
