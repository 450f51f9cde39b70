/* Match-3 through the C ABI as a game client would use it: load a level, start a game,
 * list and play moves, read metrics, ask the agents for moves with a caller tree buffer,
 * and every error path. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arbor.h"
#include "check.h"

/* The 4x4 level of the Rust tests: c1-c2 makes a line of four, then the fall lists bring
 * a line of three in the top row: 120 + 2 * 60 = 240 points, one combo. */
static const char CASCADE[] =
    "size 4x4\ncolours 4\ngrid\nCDCA\nDCDC\nDCAD\nAABA\n"
    "fall a BC\nfall b BA\nfall c BD\nfall d C\n";

static uint8_t move_code(const char *text) {
    uint8_t code = 255;
    CHECK_STATUS(arbor_match3_move_parse(text, &code), ARBOR_OK);
    return code;
}

static void test_level_errors(void) {
    arbor_match3_level level;
    uint32_t line = 99;
    const char *bad = "size 7x7\ncolours 9\n";
    memset(&level, 0x5a, sizeof level);
    CHECK_STATUS(arbor_match3_level_parse((const uint8_t *)bad, strlen(bad), &level, &line),
                 ARBOR_PARSE_ERROR);
    CHECK(line == 2);
    CHECK(level.opaque[0] == 0x5a); /* unchanged */
    CHECK_STATUS(arbor_match3_level_parse((const uint8_t *)bad, strlen(bad), &level, NULL),
                 ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_match3_level_parse(NULL, 3, &level, &line), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_match3_level_parse((const uint8_t *)bad, 3, NULL, &line),
                 ARBOR_NULL_POINTER);
    {
        const uint8_t latin1[] = {'s', 'e', 'e', 'd', ' ', 0xe9};
        CHECK_STATUS(arbor_match3_level_parse(latin1, sizeof latin1, &level, &line),
                     ARBOR_INVALID_UTF8);
    }
    CHECK_STATUS(arbor_match3_level_preset(3, &level), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_match3_level_preset(0, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_match3_level_preset(2, &level), ARBOR_OK);
}

static void test_cascade_game(void) {
    arbor_match3_level level;
    arbor_match3_game game, before;
    arbor_match3_outcome outcome = {0, 0, 0, 0};
    arbor_match3_metrics metrics;
    uint8_t moves[ARBOR_MATCH3_MAX_MOVES];
    size_t count = 0;
    uint32_t line = 0;
    uint8_t code = move_code("c1-c2");
    char text[6];

    CHECK_STATUS(arbor_match3_level_parse((const uint8_t *)CASCADE, strlen(CASCADE), &level,
                                          &line),
                 ARBOR_OK);
    CHECK_STATUS(arbor_match3_game_start(&level, 1, &game), ARBOR_OK);
    CHECK_STATUS(arbor_match3_legal_moves(&game, moves, sizeof moves, &count), ARBOR_OK);
    CHECK(count > 0 && count <= ARBOR_MATCH3_MAX_MOVES);
    {
        int found = 0;
        for (size_t i = 0; i < count; i++) found |= moves[i] == code;
        CHECK(found);
    }
    /* Too small a buffer: the count needed comes back, nothing is written. */
    {
        uint8_t one = 0xee;
        size_t needed = 0;
        CHECK_STATUS(arbor_match3_legal_moves(&game, &one, 0, &needed), ARBOR_BUFFER_TOO_SMALL);
        CHECK(needed == count && one == 0xee);
    }

    /* An illegal move leaves the game unchanged. */
    before = game;
    CHECK_STATUS(arbor_match3_play(&game, move_code("a1-b1"), &outcome), ARBOR_ILLEGAL_MOVE);
    CHECK_STATUS(arbor_match3_play(&game, 0x80, &outcome), ARBOR_ILLEGAL_MOVE);
    CHECK(memcmp(&before, &game, sizeof game) == 0);

    CHECK_STATUS(arbor_match3_play(&game, code, &outcome), ARBOR_OK);
    CHECK(outcome.points == 240 && outcome.combos == 1 && outcome.legal_before == count);
    CHECK_STATUS(arbor_match3_game_metrics(&game, &metrics), ARBOR_OK);
    CHECK(metrics.score == 240 && metrics.moves == 1 && metrics.combos == 1);
    CHECK(metrics.move_limit == 20 && metrics.game_over == 0);
    CHECK(metrics.average_available == (double)count);

    CHECK_STATUS(arbor_match3_move_format(code, text, sizeof text), ARBOR_OK);
    CHECK(strcmp(text, "c1-c2") == 0);
    CHECK_STATUS(arbor_match3_move_format(code, text, 5), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_match3_move_format(0x80, text, sizeof text), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_match3_move_format(code, NULL, 6), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_match3_move_parse("c1-c3", &code), ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_match3_move_parse(NULL, &code), ARBOR_NULL_POINTER);

    /* A damaged game is detected, not trusted. */
    game.played = 1000;
    CHECK_STATUS(arbor_match3_game_metrics(&game, &metrics), ARBOR_INVALID_ARGUMENT);
    memset(&game, 0xff, sizeof game);
    CHECK_STATUS(arbor_match3_play(&game, code, NULL), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_match3_legal_moves(&game, moves, sizeof moves, &count),
                 ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_match3_game_metrics(NULL, &metrics), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_match3_play(NULL, code, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_match3_game_start(NULL, 1, &game), ARBOR_NULL_POINTER);
    memset(&level, 0xff, sizeof level);
    CHECK_STATUS(arbor_match3_game_start(&level, 1, &game), ARBOR_INVALID_ARGUMENT);
}

/* Plays a whole game of a preset with one agent; returns the final score. */
static uint32_t play_agent(uint32_t agent, uint32_t goal, const uint8_t *formula,
                           size_t formula_len, void *tree, size_t tree_bytes, uint64_t seed) {
    arbor_match3_level level;
    arbor_match3_game game;
    arbor_match3_metrics metrics;
    CHECK_STATUS(arbor_match3_level_preset(0, &level), ARBOR_OK);
    CHECK_STATUS(arbor_match3_game_start(&level, 7, &game), ARBOR_OK);
    for (int i = 0; i < 20; i++) {
        uint8_t code = 0;
        CHECK_STATUS(arbor_match3_agent_move(&game, agent, goal, formula, formula_len, 40, seed + i,
                                             tree, tree_bytes, &code),
                     ARBOR_OK);
        CHECK_STATUS(arbor_match3_play(&game, code, NULL), ARBOR_OK);
    }
    CHECK_STATUS(arbor_match3_game_metrics(&game, &metrics), ARBOR_OK);
    CHECK(metrics.moves == 20 && metrics.game_over == 1);
    {
        uint8_t code = 0;
        CHECK_STATUS(arbor_match3_agent_move(&game, agent, goal, formula, formula_len, 40, seed,
                                             tree, tree_bytes, &code),
                     ARBOR_ILLEGAL_MOVE);
    }
    return metrics.score;
}

static void test_agents(void) {
    const char *formula_text = "add(div(W, N), mul(0.5, sqrt(div(NP, N))))";
    uint8_t formula[400];
    size_t formula_len = 0, tree_bytes = 0;
    void *tree;
    arbor_match3_level level;
    arbor_match3_game game;
    uint8_t code = 0;

    CHECK_STATUS(arbor_match3_tree_bytes(1 + 112 * 40, &tree_bytes), ARBOR_OK);
    CHECK(tree_bytes > 0);
    CHECK_STATUS(arbor_match3_tree_bytes(SIZE_MAX, &tree_bytes) , ARBOR_INVALID_LENGTH);
    CHECK_STATUS(arbor_match3_tree_bytes(1 + 112 * 40, &tree_bytes), ARBOR_OK);
    CHECK(arbor_match3_tree_align() >= 1);
    tree = malloc(tree_bytes);
    CHECK(tree != NULL);

    CHECK_STATUS(arbor_match3_formula_compile((const uint8_t *)formula_text, strlen(formula_text),
                                              formula, sizeof formula, &formula_len),
                 ARBOR_OK);
    CHECK(formula_len > 2 && formula[0] == 1);
    {
        size_t needed = 0;
        CHECK_STATUS(arbor_match3_formula_compile((const uint8_t *)formula_text,
                                                  strlen(formula_text), formula, 3, &needed),
                     ARBOR_BUFFER_TOO_SMALL);
        CHECK(needed == formula_len);
        CHECK_STATUS(arbor_match3_formula_compile((const uint8_t *)"log(W)", 6, formula,
                                                  sizeof formula, &needed),
                     ARBOR_PARSE_ERROR);
    }

    /* Same seeds, same games; every agent plays 20 legal moves. */
    CHECK(play_agent(ARBOR_MATCH3_AGENT_RANDOM, 0, NULL, 0, NULL, 0, 5) ==
          play_agent(ARBOR_MATCH3_AGENT_RANDOM, 0, NULL, 0, NULL, 0, 5));
    CHECK(play_agent(ARBOR_MATCH3_AGENT_VANILLA, 0, NULL, 0, tree, tree_bytes, 5) ==
          play_agent(ARBOR_MATCH3_AGENT_VANILLA, 0, NULL, 0, tree, tree_bytes, 5));
    CHECK(play_agent(ARBOR_MATCH3_AGENT_PERSONA, 2, formula, formula_len, tree, tree_bytes, 5) ==
          play_agent(ARBOR_MATCH3_AGENT_PERSONA, 2, formula, formula_len, tree, tree_bytes, 5));
    /* A small tree buffer still gives a move: the tree just stops growing. */
    CHECK(play_agent(ARBOR_MATCH3_AGENT_VANILLA, 0, NULL, 0, tree, 64 * 40, 5) >= 1200);

    /* Error paths. */
    CHECK_STATUS(arbor_match3_level_preset(1, &level), ARBOR_OK);
    CHECK_STATUS(arbor_match3_game_start(&level, 3, &game), ARBOR_OK);
    CHECK_STATUS(arbor_match3_agent_move(&game, 9, 0, NULL, 0, 10, 1, tree, tree_bytes, &code),
                 ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_match3_agent_move(&game, 1, 4, NULL, 0, 10, 1, tree, tree_bytes, &code),
                 ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_match3_agent_move(&game, 1, 0, NULL, 0, 10, 1, NULL, tree_bytes, &code),
                 ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_match3_agent_move(&game, 1, 0, NULL, 0, 10, 1, tree, 8, &code),
                 ARBOR_CAPACITY_EXHAUSTED);
    CHECK_STATUS(arbor_match3_agent_move(&game, 1, 0, NULL, 0, 10, 1, (char *)tree + 1,
                                         tree_bytes - 8, &code),
                 ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_match3_agent_move(&game, 2, 0, NULL, 0, 10, 1, tree, tree_bytes, &code),
                 ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_match3_agent_move(&game, 2, 0, formula, 1, 10, 1, tree, tree_bytes, &code),
                 ARBOR_INVALID_LENGTH);
    {
        uint8_t bad[3] = {1, 1, 0}; /* add with an empty stack */
        CHECK_STATUS(arbor_match3_agent_move(&game, 2, 0, bad, 3, 10, 1, tree, tree_bytes, &code),
                     ARBOR_INVALID_ARGUMENT);
    }
    CHECK_STATUS(arbor_match3_agent_move(&game, 0, 0, NULL, 0, 10, 1, NULL, 0, NULL),
                 ARBOR_NULL_POINTER);
    free(tree);
}

int main(void) {
    test_level_errors();
    test_cascade_game();
    test_agents();
    return check_report("match3");
}
