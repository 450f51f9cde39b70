/* Go through the C ABI as a game client uses it: a game buffer (moves, captures, ko and
 * suicide refused, legal moves, board, score, undo, diagram), SGF in and out, GTP vertices,
 * the anytime search handle (iteration budgets that continue the tree, a deadline, a cancel
 * from another thread, tree reuse after a move), and the error paths of each. */
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

typedef struct {
    void *buf;
    size_t len;
} buffer;

static buffer new_game(uint32_t size, double komi) {
    buffer g = {NULL, 0};
    CHECK_STATUS(arbor_go_game_bytes(size, &g.len), ARBOR_OK);
    g.buf = malloc(g.len);
    CHECK(g.buf != NULL);
    CHECK_STATUS(arbor_go_game_init(g.buf, g.len, size, komi), ARBOR_OK);
    return g;
}

static uint32_t vertex(uint32_t size, const char *text) {
    uint32_t mv = ARBOR_GO_NONE;
    CHECK_STATUS(arbor_go_move_parse(size, (const uint8_t *)text, strlen(text), &mv, NULL), ARBOR_OK);
    return mv;
}

static arbor_status play(buffer g, uint32_t size, const char *text) {
    return arbor_go_game_play(g.buf, g.len, vertex(size, text));
}

static uint32_t reason(buffer g, uint32_t mv) {
    uint32_t r = 99;
    CHECK_STATUS(arbor_go_game_check(g.buf, g.len, mv, &r), ARBOR_OK);
    return r;
}

static arbor_go_info info_of(buffer g) {
    arbor_go_info info;
    memset(&info, 0, sizeof info);
    CHECK_STATUS(arbor_go_game_info(g.buf, g.len, &info), ARBOR_OK);
    return info;
}

static void test_vertices(void) {
    char text[ARBOR_GO_MOVE_TEXT_MAX];
    size_t len = 0;
    uint32_t mv = 7;
    arbor_parse_error error;
    CHECK(vertex(9, "A1") == 0 && vertex(9, "B1") == 1 && vertex(9, "a2") == 9);
    CHECK(vertex(9, "J9") == 80 && vertex(19, "T19") == 360 && vertex(9, "pass") == ARBOR_GO_PASS);
    CHECK_STATUS(arbor_go_move_format(19, 360, text, sizeof text, &len), ARBOR_OK);
    CHECK(len == 3 && strcmp(text, "T19") == 0);
    CHECK_STATUS(arbor_go_move_format(9, ARBOR_GO_PASS, text, sizeof text, &len), ARBOR_OK);
    CHECK(strcmp(text, "pass") == 0);
    CHECK_STATUS(arbor_go_move_format(9, ARBOR_GO_PASS, text, 4, &len), ARBOR_BUFFER_TOO_SMALL);
    CHECK(len == 4);
    CHECK_STATUS(arbor_go_move_format(9, 81, text, sizeof text, &len), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_go_move_format(4, 0, text, sizeof text, &len), ARBOR_INVALID_ARGUMENT);
    /* I is no column; K10 is off a 9x9 board. */
    CHECK_STATUS(arbor_go_move_parse(9, (const uint8_t *)"I5", 2, &mv, &error), ARBOR_PARSE_ERROR);
    CHECK(error.line == 1 && error.column == 1 && error.message_len > 0 && mv == 7);
    CHECK_STATUS(arbor_go_move_parse(9, (const uint8_t *)"K10", 3, &mv, &error), ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_go_move_parse(25, (const uint8_t *)"A1", 2, &mv, NULL), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_go_move_parse(9, NULL, 2, &mv, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_go_move_parse(9, (const uint8_t *)"A1", 2, NULL, NULL), ARBOR_NULL_POINTER);
}

static void test_sizes_and_bad_buffers(void) {
    size_t bytes = 0;
    unsigned char raw[1024 + 8];
    void *odd = raw + 1;
    buffer g;
    CHECK_STATUS(arbor_go_game_bytes(9, &bytes), ARBOR_OK);
    CHECK(bytes == ARBOR_GO_GAME_HEAD_BYTES + 8 * 81);
    CHECK_STATUS(arbor_go_game_bytes(4, &bytes), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_go_game_bytes(25, &bytes), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_go_game_bytes(9, NULL), ARBOR_NULL_POINTER);
    g.len = bytes;
    g.buf = malloc(bytes);
    CHECK_STATUS(arbor_go_game_init(g.buf, g.len, 4, 7.5), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_go_game_init(g.buf, g.len, 25, 7.5), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_go_game_init(g.buf, g.len, 9, NAN), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_go_game_init(g.buf, g.len, 9, INFINITY), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_go_game_init(g.buf, g.len, 9, 1e6), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_go_game_init(g.buf, g.len, 19, 7.5), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_go_game_init(g.buf, g.len - 1, 9, 7.5), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_go_game_init(NULL, g.len, 9, 7.5), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_go_game_init(odd, 1024, 9, 7.5), ARBOR_MISALIGNED);
    /* Foreign bytes, and another version's buffer, are refused. */
    memset(g.buf, 0x5A, g.len);
    {
        uint32_t r = 99;
        CHECK_STATUS(arbor_go_game_check(g.buf, g.len, 0, &r), ARBOR_NOT_INITIALISED);
        CHECK(r == 99);
    }
    CHECK_STATUS(arbor_go_game_init(g.buf, g.len, 9, 7.5), ARBOR_OK);
    CHECK_STATUS(arbor_go_game_play(g.buf, g.len / 2, 0), ARBOR_BUFFER_TOO_SMALL);
    ((uint32_t *)g.buf)[1] += 1;
    CHECK_STATUS(arbor_go_game_play(g.buf, g.len, 0), ARBOR_WRONG_VERSION);
    ((uint32_t *)g.buf)[1] -= 1;
    /* A damaged entry: the first move made a point off the board. */
    CHECK_STATUS(arbor_go_game_play(g.buf, g.len, 40), ARBOR_OK);
    ((unsigned char *)g.buf)[ARBOR_GO_GAME_HEAD_BYTES] = 0xFF;
    ((unsigned char *)g.buf)[ARBOR_GO_GAME_HEAD_BYTES + 1] = 0x7E;
    CHECK_STATUS(arbor_go_game_play(g.buf, g.len, 0), ARBOR_NOT_INITIALISED);
    free(g.buf);
}

/* A game on 5x5: captures, the ko and its refusal, occupied points, suicide, the legal
 * moves, the board, two passes, undo, the score and the diagram. */
static void test_game(void) {
    buffer g = new_game(5, 0.5);
    const char *opening[] = {"B2", "C2", "A3", "D3", "B4", "C4", "C3"};
    uint32_t moves[ARBOR_GO_MAX_MOVES], c3 = vertex(5, "C3");
    uint8_t points[ARBOR_GO_MAX_POINTS];
    size_t count = 0, i, len = 0;
    arbor_go_info info;
    arbor_go_score score;
    char diagram[ARBOR_GO_DIAGRAM_TEXT_MAX];
    unsigned char *before = malloc(g.len);

    CHECK_STATUS(arbor_go_game_legal_moves(g.buf, g.len, moves, ARBOR_GO_MAX_MOVES, &count), ARBOR_OK);
    CHECK(count == 26 && moves[0] == 0 && moves[24] == 24 && moves[25] == ARBOR_GO_PASS);
    CHECK_STATUS(arbor_go_game_legal_moves(g.buf, g.len, moves, 25, &count), ARBOR_BUFFER_TOO_SMALL);
    for (i = 0; i < sizeof opening / sizeof opening[0]; i++) CHECK_STATUS(play(g, 5, opening[i]), ARBOR_OK);
    info = info_of(g);
    CHECK(info.size == 5 && info.to_move == ARBOR_GO_WHITE && info.moves == 7 && info.ko == ARBOR_GO_NONE);
    CHECK(info.last_move == c3 && info.stones_black == 4 && info.stones_white == 3 && info.komi == 0.5);
    /* White takes C3 by playing B3: a capture, and a ko Black may not retake at once. */
    CHECK_STATUS(play(g, 5, "B3"), ARBOR_OK);
    info = info_of(g);
    CHECK(info.captures_white == 1 && info.captures_black == 0 && info.stones_black == 3);
    CHECK(info.to_move == ARBOR_GO_BLACK && info.ko == c3);
    CHECK(reason(g, c3) == ARBOR_GO_KO);
    CHECK(reason(g, vertex(5, "B2")) == ARBOR_GO_OCCUPIED);
    CHECK(reason(g, vertex(5, "E5")) == ARBOR_GO_LEGAL);
    memcpy(before, g.buf, g.len);
    CHECK_STATUS(arbor_go_game_play(g.buf, g.len, c3), ARBOR_ILLEGAL_MOVE);
    CHECK_STATUS(play(g, 5, "B2"), ARBOR_ILLEGAL_MOVE);
    CHECK_STATUS(arbor_go_game_play(g.buf, g.len, 25), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_go_game_set_komi(g.buf, g.len, NAN), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_go_game_set_komi(g.buf, g.len, -INFINITY), ARBOR_INVALID_ARGUMENT);
    CHECK(memcmp(before, g.buf, g.len) == 0);
    CHECK_STATUS(arbor_go_game_legal_moves(g.buf, g.len, moves, ARBOR_GO_MAX_MOVES, &count), ARBOR_OK);
    for (i = 0; i < count; i++) CHECK(moves[i] != c3);
    CHECK_STATUS(arbor_go_game_board(g.buf, g.len, points, sizeof points, &count), ARBOR_OK);
    CHECK(count == 25 && points[c3] == ARBOR_GO_EMPTY && points[vertex(5, "B3")] == ARBOR_GO_WHITE);
    CHECK(points[vertex(5, "B2")] == ARBOR_GO_BLACK);

    /* Suicide: in a corner walled by White, a black stone has no liberty. */
    {
        buffer s = new_game(5, 7.5);
        const char *walls[] = {"E5", "A2", "E4", "B1"};
        for (i = 0; i < 4; i++) CHECK_STATUS(play(s, 5, walls[i]), ARBOR_OK);
        CHECK(reason(s, vertex(5, "A1")) == ARBOR_GO_SUICIDE);
        CHECK_STATUS(play(s, 5, "A1"), ARBOR_ILLEGAL_MOVE);
        free(s.buf);
    }

    /* Two passes end the game; undo takes the second back. */
    CHECK_STATUS(arbor_go_game_play(g.buf, g.len, ARBOR_GO_PASS), ARBOR_OK);
    CHECK_STATUS(arbor_go_game_play(g.buf, g.len, ARBOR_GO_PASS), ARBOR_OK);
    info = info_of(g);
    CHECK(info.over == 1 && info.passes == 2);
    /* Over: a third pass is refused, a stone would resume the game (tested below). */
    CHECK(reason(g, ARBOR_GO_PASS) == ARBOR_GO_OVER);
    CHECK(reason(g, vertex(5, "E5")) == ARBOR_GO_LEGAL && reason(g, vertex(5, "B2")) == ARBOR_GO_OCCUPIED);
    CHECK(reason(g, c3) == ARBOR_GO_SUPERKO);
    CHECK_STATUS(arbor_go_game_play(g.buf, g.len, ARBOR_GO_PASS), ARBOR_GAME_OVER);
    CHECK_STATUS(arbor_go_game_legal_moves(g.buf, g.len, NULL, 0, &count), ARBOR_OK);
    CHECK(count == 0);
    CHECK_STATUS(arbor_go_game_score(g.buf, g.len, &score), ARBOR_OK);
    CHECK(score.black + score.white <= 25 && score.komi == 0.5);
    CHECK(score.margin == (double)score.black - (double)score.white - 0.5);
    CHECK(score.winner == (score.margin > 0 ? ARBOR_GO_BLACK : ARBOR_GO_WHITE));
    CHECK_STATUS(arbor_go_game_undo(g.buf, g.len), ARBOR_OK);
    CHECK(info_of(g).over == 0 && info_of(g).moves == 9);
    /* A stone after two passes resumes the game (as GTP GUIs and GNU Go's cleanup phase
     * expect); undo takes it back to the finished game. */
    CHECK_STATUS(arbor_go_game_play(g.buf, g.len, ARBOR_GO_PASS), ARBOR_OK);
    CHECK(info_of(g).over == 1 && info_of(g).passes == 2);
    CHECK_STATUS(play(g, 5, "A1"), ARBOR_OK);
    info = info_of(g);
    CHECK(info.over == 0 && info.passes == 0 && info.moves == 11 && info.to_move == ARBOR_GO_WHITE);
    CHECK_STATUS(arbor_go_game_legal_moves(g.buf, g.len, NULL, 0, &count), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_go_game_undo(g.buf, g.len), ARBOR_OK);
    CHECK(info_of(g).over == 1 && info_of(g).passes == 2);
    CHECK_STATUS(arbor_go_game_undo(g.buf, g.len), ARBOR_OK);
    CHECK(info_of(g).over == 0 && info_of(g).moves == 9);

    CHECK_STATUS(arbor_go_game_format(g.buf, g.len, NULL, 0, &len), ARBOR_BUFFER_TOO_SMALL);
    CHECK(len == 6 * 13);
    CHECK_STATUS(arbor_go_game_format(g.buf, g.len, diagram, sizeof diagram, &len), ARBOR_OK);
    CHECK(strncmp(diagram, "   A B C D E\n 5 . . . . .\n 4 . X O . .\n 3 X O . O .\n", 52) == 0);
    printf("%s", diagram);

    /* Undo down to the start, then nothing is left to take back. */
    for (i = 0; i < 9; i++) CHECK_STATUS(arbor_go_game_undo(g.buf, g.len), ARBOR_OK);
    CHECK_STATUS(arbor_go_game_undo(g.buf, g.len), ARBOR_INVALID_ARGUMENT);
    CHECK(info_of(g).stones_black == 0 && info_of(g).to_move == ARBOR_GO_BLACK);
    free(before);
    free(g.buf);
}

/* The final score with dead stones removed and the status of each point: a lone white stone
 * inside Black's wall is dead; a seki in the corner of a 7x7 board (Black's A7 A6 B6 A5 and
 * White's C7 C6 C5 C4 B4 A4 share B7 and B5, and nothing else). */
static void test_final_score(void) {
    buffer g = new_game(5, 0.5);
    const char *moves[] = {"B1", "D4", "B2", "pass", "B3", "pass", "B4", "pass", "B5"};
    static const char seki[] =
        "(;SZ[7]KM[0.5]AB[aa][da][fa][ab][bb][db][eb][fb][ac][dc][fc][dd][ed][fd][ae][be][ce][de]"
        "[bf][df][ag][bg][cg][dg]AW[ca][ga][cb][gb][cc][gc][ad][bd][cd][gd][ee][fe][ge][ef][gf]"
        "[eg][fg])";
    const uint32_t seki_black[] = {42, 35, 36, 28}, seki_white[] = {44, 37, 30, 23, 22, 21};
    uint8_t status[ARBOR_GO_MAX_POINTS], again[ARBOR_GO_MAX_POINTS];
    arbor_go_score naive, final, repeat;
    size_t count = 0, i;

    for (i = 0; i < sizeof moves / sizeof moves[0]; i++) CHECK_STATUS(play(g, 5, moves[i]), ARBOR_OK);
    /* As the board stands, D4 counts for White and the right side for no one; dead, it
     * counts for Black, who owns the board. */
    CHECK_STATUS(arbor_go_game_score(g.buf, g.len, &naive), ARBOR_OK);
    CHECK(naive.black == 10 && naive.white == 1);
    CHECK_STATUS(arbor_go_game_final_score(g.buf, g.len, 7, &final), ARBOR_OK);
    CHECK(final.black == 25 && final.white == 0 && final.winner == ARBOR_GO_BLACK && final.margin == 24.5);
    CHECK_STATUS(arbor_go_game_final_score(g.buf, g.len, 7, &repeat), ARBOR_OK);
    CHECK(memcmp(&final, &repeat, sizeof final) == 0);
    CHECK_STATUS(arbor_go_game_final_status(g.buf, g.len, 7, status, sizeof status, &count), ARBOR_OK);
    CHECK(count == 25 && status[vertex(5, "D4")] == ARBOR_GO_STATUS_DEAD);
    CHECK(status[vertex(5, "B3")] == ARBOR_GO_STATUS_ALIVE && status[vertex(5, "A3")] == ARBOR_GO_STATUS_EMPTY);
    CHECK_STATUS(arbor_go_game_final_status(g.buf, g.len, 7, status, 24, &count), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_go_game_final_status(g.buf, g.len, 7, NULL, 25, &count), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_go_game_final_status(g.buf, g.len, 7, status, 25, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_go_game_final_score(g.buf, g.len, 7, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_go_game_final_score(NULL, g.len, 7, &final), ARBOR_NULL_POINTER);

    CHECK_STATUS(arbor_go_game_sgf_parse(g.buf, g.len, (const uint8_t *)seki, strlen(seki), NULL), ARBOR_OK);
    CHECK_STATUS(arbor_go_game_final_status(g.buf, g.len, 3, status, sizeof status, &count), ARBOR_OK);
    CHECK(count == 49);
    for (i = 0; i < 4; i++) CHECK(status[seki_black[i]] == ARBOR_GO_STATUS_SEKI);
    for (i = 0; i < 6; i++) CHECK(status[seki_white[i]] == ARBOR_GO_STATUS_SEKI);
    CHECK(status[45] == ARBOR_GO_STATUS_ALIVE && status[43] == ARBOR_GO_STATUS_EMPTY);
    for (i = 0; i < 49; i++) CHECK(status[i] != ARBOR_GO_STATUS_DEAD);
    CHECK_STATUS(arbor_go_game_final_status(g.buf, g.len, 3, again, sizeof again, &count), ARBOR_OK);
    CHECK(memcmp(status, again, 49) == 0);
    /* Seki stones count, their shared liberties B7 and B5 do not. */
    CHECK_STATUS(arbor_go_game_final_score(g.buf, g.len, 3, &final), ARBOR_OK);
    CHECK(final.black == 28 && final.white == 19);
    printf("final score: B+%.1f with a seki, status of A7 %u\n", final.margin, (unsigned)status[42]);
    free(g.buf);
}

/* SGF out, in again, and the same text; a malformed text and an illegal game refused with
 * the game unchanged; a 19x19 game into a buffer made for 9x9 when it fits. */
static void test_sgf(void) {
    buffer g = new_game(9, 6.5), h = new_game(19, 0);
    const char *moves[] = {"E5", "C3", "G7", "pass", "D4"};
    static char text[ARBOR_GO_SGF_TEXT_MAX], again[ARBOR_GO_SGF_TEXT_MAX];
    size_t i, len = 0, len2 = 0;
    arbor_parse_error error;
    unsigned char *before = malloc(h.len);
    const char *malformed = "(;SZ[9]\n;B[ee];W[e";
    const char *illegal = "(;SZ[9];B[ee];W[ee])";
    const char *handicap = "(;GM[1]SZ[9]KM[0.5]AB[cc][gg];W[ee];B[ce])";
    for (i = 0; i < 5; i++) CHECK_STATUS(play(g, 9, moves[i]), ARBOR_OK);
    CHECK_STATUS(arbor_go_game_sgf_format(g.buf, g.len, text, sizeof text, &len), ARBOR_OK);
    CHECK(strncmp(text, "(;FF[4]GM[1]SZ[9]KM[6.5]", 24) == 0 && strlen(text) == len);
    CHECK_STATUS(arbor_go_game_sgf_format(g.buf, g.len, text, len, &len2), ARBOR_BUFFER_TOO_SMALL);
    CHECK(len2 == len);
    CHECK_STATUS(arbor_go_game_sgf_parse(h.buf, h.len, (const uint8_t *)text, len, NULL), ARBOR_OK);
    CHECK_STATUS(arbor_go_game_sgf_format(h.buf, h.len, again, sizeof again, &len2), ARBOR_OK);
    CHECK(len2 == len && strcmp(text, again) == 0);
    CHECK(info_of(h).size == 9 && info_of(h).moves == 5 && info_of(h).komi == 6.5);

    memcpy(before, h.buf, h.len);
    CHECK_STATUS(arbor_go_game_sgf_parse(h.buf, h.len, (const uint8_t *)malformed, strlen(malformed), &error),
                 ARBOR_PARSE_ERROR);
    CHECK(error.line == 2 && error.column > 0 && error.message_len > 0);
    CHECK_STATUS(arbor_go_game_sgf_parse(h.buf, h.len, (const uint8_t *)illegal, strlen(illegal), &error),
                 ARBOR_PARSE_ERROR);
    CHECK(error.line == 0 && strcmp((const char *)error.message, "move 2: the point is occupied") == 0);
    CHECK_STATUS(arbor_go_game_sgf_parse(h.buf, h.len, (const uint8_t *)"\xff", 1, &error), ARBOR_INVALID_UTF8);
    CHECK_STATUS(arbor_go_game_sgf_parse(h.buf, h.len, NULL, 3, &error), ARBOR_NULL_POINTER);
    CHECK(memcmp(before, h.buf, h.len) == 0);

    /* Setup stones (a handicap, written back row by row from A1) and White first. */
    CHECK_STATUS(arbor_go_game_sgf_parse(h.buf, h.len, (const uint8_t *)handicap, strlen(handicap), NULL),
                 ARBOR_OK);
    CHECK(info_of(h).stones_black == 3 && info_of(h).moves == 2 && info_of(h).to_move == ARBOR_GO_WHITE);
    CHECK_STATUS(arbor_go_game_sgf_format(h.buf, h.len, again, sizeof again, &len2), ARBOR_OK);
    CHECK(strstr(again, "AB[gg][cc]") != NULL && strstr(again, ";W[ee];B[ce]") != NULL);

    /* A 19x19 game with a few moves fits a 9x9 buffer; its full length would not. */
    CHECK_STATUS(arbor_go_game_sgf_parse(g.buf, g.len, (const uint8_t *)"(;SZ[19];B[pd])", 15, NULL), ARBOR_OK);
    CHECK(info_of(g).size == 19 && info_of(g).last_move == vertex(19, "Q16"));
    free(before);
    free(g.buf);
    free(h.buf);
}

static buffer new_search(buffer game, uint32_t nodes, uint32_t player, uint64_t seed) {
    buffer s = {NULL, 0};
    CHECK_STATUS(arbor_go_search_bytes(info_of(game).size, nodes, 1, &s.len), ARBOR_OK);
    s.buf = malloc(s.len);
    CHECK_STATUS(arbor_go_search_init(s.buf, s.len, game.buf, game.len, player, seed), ARBOR_OK);
    return s;
}

static arbor_search_limits limits_of(uint32_t iterations) {
    arbor_search_limits limits;
    CHECK_STATUS(arbor_search_limits_init(iterations, &limits), ARBOR_OK);
    limits.now_us = monotonic_clock;
    return limits;
}

typedef struct {
    buffer handle;
    uint64_t cancelled_at;
    arbor_status status;
} canceller;

static void *cancel_later(void *arg) {
    canceller *c = arg;
    struct timespec wait = {0, 50 * 1000 * 1000};
    nanosleep(&wait, NULL);
    c->cancelled_at = now_us();
    c->status = arbor_go_search_cancel(c->handle.buf, c->handle.len);
    return NULL;
}

static void test_search(void) {
    buffer game = new_game(9, 7.5);
    buffer a = new_search(game, 50000, ARBOR_GO_PLAYER_MOGO, 11);
    buffer b = new_search(game, 50000, ARBOR_GO_PLAYER_MOGO, 11);
    arbor_search_limits limits = limits_of(300);
    arbor_search_progress p, q;
    arbor_go_search_stats stats;
    uint64_t start;
    uint32_t r;
    size_t bytes = 0;
    canceller c;
    pthread_t thread;

    /* Two runs of 300 iterations continue one tree: the same as one run of 600. */
    CHECK_STATUS(arbor_go_search_run(a.buf, a.len, &limits, 1, &p), ARBOR_OK);
    CHECK(p.iterations == 300 && p.iterations_this_call == 300 && p.stop_reason == ARBOR_STOP_ITERATIONS);
    CHECK_STATUS(arbor_go_search_run(a.buf, a.len, &limits, 1, &p), ARBOR_OK);
    CHECK(p.iterations == 600 && p.iterations_this_call == 300);
    limits.max_iterations = 600;
    CHECK_STATUS(arbor_go_search_run(b.buf, b.len, &limits, 1, &q), ARBOR_OK);
    CHECK(p.best_move == q.best_move && p.best_visits == q.best_visits && p.root_visits == q.root_visits);
    CHECK(p.best_value == q.best_value && p.best_value >= 0 && p.best_value <= 1);
    CHECK(p.best_move == ARBOR_GO_PASS || p.best_move < 81);
    printf("search: 600 iterations, best %u with %u visits, win rate %.3f\n", (unsigned)p.best_move,
           (unsigned)p.best_visits, p.best_value);

    /* genmove's judgement of the tree: in the opening, the search's move, nothing judged;
     * the call changes nothing (the same answer twice, the handle byte for byte). */
    {
        arbor_go_decision d, e;
        unsigned char *copy = malloc(a.len);
        CHECK(copy != NULL);
        memcpy(copy, a.buf, a.len);
        CHECK_STATUS(arbor_go_search_decide(a.buf, a.len, &d), ARBOR_OK);
        CHECK(d.move_to_play == p.best_move && d.search_move == p.best_move);
        CHECK(d.resign == 0 && d.judged == 0 && d.win_rate == p.best_value);
        CHECK_STATUS(arbor_go_search_decide(a.buf, a.len, &e), ARBOR_OK);
        CHECK(memcmp(&d, &e, sizeof d) == 0 && memcmp(copy, a.buf, a.len) == 0);
        CHECK_STATUS(arbor_go_search_decide(a.buf, a.len, NULL), ARBOR_NULL_POINTER);
        CHECK_STATUS(arbor_go_search_decide(game.buf, game.len, &d), ARBOR_NOT_INITIALISED);
        free(copy);
    }

    /* The move is played on the handle (the subtree is kept) and on the game. */
    CHECK(reason(game, p.best_move) == ARBOR_GO_LEGAL);
    CHECK_STATUS(arbor_go_search_play(a.buf, a.len, p.best_move), ARBOR_OK);
    CHECK_STATUS(arbor_go_game_play(game.buf, game.len, p.best_move), ARBOR_OK);
    CHECK_STATUS(arbor_go_search_tree_stats(a.buf, a.len, &stats), ARBOR_OK);
    CHECK(stats.nodes_used > 1 && stats.capacity_nodes == 50000 && stats.storage_full == 0);
    CHECK_STATUS(arbor_go_search_play(a.buf, a.len, p.best_move), ARBOR_ILLEGAL_MOVE);
    CHECK_STATUS(arbor_go_search_play(a.buf, a.len, 81), ARBOR_INVALID_ARGUMENT);
    limits.max_iterations = 100;
    CHECK_STATUS(arbor_go_search_run(a.buf, a.len, &limits, 1, &p), ARBOR_OK);
    CHECK(p.iterations == 100 && p.root_visits > 100);
    CHECK(reason(game, p.best_move) == ARBOR_GO_LEGAL);
    {
        /* The handle's game is the game. */
        buffer copy = new_game(9, 0);
        static char one[ARBOR_GO_SGF_TEXT_MAX], two[ARBOR_GO_SGF_TEXT_MAX];
        size_t len1 = 0, len2 = 0;
        CHECK_STATUS(arbor_go_search_game(a.buf, a.len, copy.buf, copy.len), ARBOR_OK);
        CHECK_STATUS(arbor_go_game_sgf_format(copy.buf, copy.len, one, sizeof one, &len1), ARBOR_OK);
        CHECK_STATUS(arbor_go_game_sgf_format(game.buf, game.len, two, sizeof two, &len2), ARBOR_OK);
        CHECK(len1 == len2 && strcmp(one, two) == 0);
        free(copy.buf);
    }

    /* A deadline of 30 ms: the run stops there, within a playout or so. */
    limits = limits_of(0);
    limits.deadline_us = 30000;
    start = now_us();
    CHECK_STATUS(arbor_go_search_run(b.buf, b.len, &limits, 1, &q), ARBOR_OK);
    CHECK(q.stop_reason == ARBOR_STOP_DEADLINE && q.iterations_this_call > 0);
    CHECK(now_us() - start < 1000000);
    printf("deadline: %u iterations in 30 ms\n", (unsigned)q.iterations_this_call);

    /* A cancel from another thread ends a run that would take 20 s. */
    limits.deadline_us = 20u * 1000 * 1000;
    c.handle = b;
    c.cancelled_at = 0;
    c.status = ARBOR_NULL_POINTER;
    CHECK(pthread_create(&thread, NULL, cancel_later, &c) == 0);
    CHECK_STATUS(arbor_go_search_run(b.buf, b.len, &limits, 1, &q), ARBOR_OK);
    r = (uint32_t)(now_us() - c.cancelled_at);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_STATUS(c.status, ARBOR_OK);
    CHECK(q.stop_reason == ARBOR_STOP_CANCELLED && q.iterations_this_call > 0);
    CHECK(r < 1000000);
    printf("cancel: the run returned %u us after the flag was set\n", (unsigned)r);
    /* A cancel made before a run is kept for it. */
    CHECK_STATUS(arbor_go_search_cancel(b.buf, b.len), ARBOR_OK);
    limits = limits_of(1000);
    CHECK_STATUS(arbor_go_search_run(b.buf, b.len, &limits, 1, &q), ARBOR_OK);
    CHECK(q.stop_reason == ARBOR_STOP_CANCELLED && q.iterations_this_call == 0);

    /* Error paths: nothing is changed. */
    CHECK_STATUS(arbor_go_search_bytes(4, 100, 1, &bytes), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_go_search_bytes(9, 0, 1, &bytes), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_go_search_bytes(9, 100, 0, &bytes), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_go_search_init(b.buf, b.len, game.buf, game.len, 2, 1), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_go_search_init(b.buf, 64, game.buf, game.len, 0, 1), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_go_search_init(b.buf, b.len, a.buf, a.len, 0, 1), ARBOR_NOT_INITIALISED);
    CHECK_STATUS(arbor_go_search_run(b.buf, b.len, NULL, 1, &q), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_go_search_run(b.buf, b.len, &limits, 0, &q), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_go_search_run(game.buf, game.len, &limits, 1, &q), ARBOR_NOT_INITIALISED);
    CHECK_STATUS(arbor_go_search_run((char *)b.buf + 4, b.len - 8, &limits, 1, &q), ARBOR_MISALIGNED);
    CHECK_STATUS(arbor_go_search_run(b.buf, b.len / 2, &limits, 1, &q), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_go_search_cancel(NULL, b.len), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_go_search_cancel(game.buf, game.len), ARBOR_NOT_INITIALISED);
    {
        /* A search over: two passes. */
        buffer over = new_game(5, 7.5);
        buffer s;
        CHECK_STATUS(arbor_go_game_play(over.buf, over.len, ARBOR_GO_PASS), ARBOR_OK);
        CHECK_STATUS(arbor_go_game_play(over.buf, over.len, ARBOR_GO_PASS), ARBOR_OK);
        arbor_go_decision d;
        s = new_search(over, 100, ARBOR_GO_PLAYER_LIGHT, 1);
        CHECK_STATUS(arbor_go_search_run(s.buf, s.len, &limits, 1, &q), ARBOR_GAME_OVER);
        /* genmove at a finished game answers a pass; a stone resumes it, a pass does not. */
        CHECK_STATUS(arbor_go_search_decide(s.buf, s.len, &d), ARBOR_OK);
        CHECK(d.move_to_play == ARBOR_GO_PASS && d.resign == 0 && d.search_move == ARBOR_SEARCH_NO_MOVE);
        CHECK_STATUS(arbor_go_search_play(s.buf, s.len, ARBOR_GO_PASS), ARBOR_GAME_OVER);
        CHECK_STATUS(arbor_go_search_play(s.buf, s.len, 12), ARBOR_OK);
        limits.max_iterations = 50;
        CHECK_STATUS(arbor_go_search_run(s.buf, s.len, &limits, 1, &q), ARBOR_OK);
        CHECK(q.iterations_this_call == 50 && q.best_move != 12);
        free(s.buf);
        free(over.buf);
    }
    free(a.buf);
    free(b.buf);
    free(game.buf);
}

int main(void) {
    test_vertices();
    test_sizes_and_bad_buffers();
    test_game();
    test_sgf();
    test_final_score();
    test_search();
    return check_report("go");
}
