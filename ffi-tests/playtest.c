/* Personas and the playtest report through the C ABI: parse a persona file and play a
 * move with it, load the bundled personas, run the six agents of Table II on a level in a
 * caller tree buffer, and every error path. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arbor.h"
#include "check.h"

/* A small level so that the sanitizer builds stay quick. */
static const char LEVEL[] = "size 6x6\ncolours 5\nmoves 8\nseed 3\n";
#define GAMES 3
#define ITERATIONS 10

static void test_persona_parse(void) {
    const char *text = "arbor-persona 1\ngoal MinM\nformula div(W, N)\ninfix W / N\n";
    const char *bad = "goal MaxS\nformula log(W)\n";
    const char *no_formula = "goal MaxS\n";
    const uint8_t latin1[] = {'g', 'o', 'a', 'l', ' ', 0xe9};
    arbor_match3_persona persona;
    uint8_t compiled[ARBOR_MATCH3_FORMULA_MAX_BYTES];
    size_t compiled_len = 0;
    uint32_t line = 99;

    CHECK_STATUS(arbor_match3_persona_parse((const uint8_t *)text, strlen(text), &persona, &line),
                 ARBOR_OK);
    CHECK(line == 99); /* untouched on success */
    CHECK(persona.goal == 3);
    /* The formula is the binary form arbor_match3_formula_compile gives. */
    CHECK_STATUS(arbor_match3_formula_compile((const uint8_t *)"div(W, N)", 9, compiled,
                                              sizeof compiled, &compiled_len),
                 ARBOR_OK);
    CHECK(persona.formula_len == compiled_len);
    CHECK(memcmp(persona.formula, compiled, compiled_len) == 0);

    memset(&persona, 0x5a, sizeof persona);
    CHECK_STATUS(arbor_match3_persona_parse((const uint8_t *)bad, strlen(bad), &persona, &line),
                 ARBOR_PARSE_ERROR);
    CHECK(line == 2);
    CHECK(persona.goal == 0x5a5a5a5a); /* unchanged */
    CHECK_STATUS(arbor_match3_persona_parse((const uint8_t *)no_formula, strlen(no_formula),
                                            &persona, &line),
                 ARBOR_PARSE_ERROR);
    CHECK(line == 0);
    CHECK_STATUS(arbor_match3_persona_parse((const uint8_t *)bad, strlen(bad), &persona, NULL),
                 ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_match3_persona_parse(latin1, sizeof latin1, &persona, &line),
                 ARBOR_INVALID_UTF8);
    CHECK_STATUS(arbor_match3_persona_parse(NULL, 4, &persona, &line), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_match3_persona_parse((const uint8_t *)text, 4, NULL, &line),
                 ARBOR_NULL_POINTER);
}

static void test_shipped_personas_play(void) {
    arbor_match3_persona persona;
    arbor_match3_level level;
    arbor_match3_game game;
    uint32_t index;
    size_t tree_bytes = 0;
    void *tree;
    uint8_t code = 255;

    CHECK_STATUS(arbor_match3_tree_bytes(1 + 112 * ITERATIONS, &tree_bytes), ARBOR_OK);
    tree = malloc(tree_bytes);
    CHECK(tree != NULL);
    if (tree == NULL) {
        return;
    }
    CHECK_STATUS(arbor_match3_level_parse((const uint8_t *)LEVEL, strlen(LEVEL), &level, NULL),
                 ARBOR_OK);
    CHECK_STATUS(arbor_match3_game_start(&level, 3, &game), ARBOR_OK);
    for (index = 0; index < ARBOR_MATCH3_SHIPPED_PERSONAS; index++) {
        CHECK_STATUS(arbor_match3_persona_shipped(index, &persona), ARBOR_OK);
        CHECK(persona.goal == index);
        CHECK(persona.formula_len > 2 && persona.formula_len <= ARBOR_MATCH3_FORMULA_MAX_BYTES);
        /* The struct's fields go straight into the agent call. */
        CHECK_STATUS(arbor_match3_agent_move(&game, ARBOR_MATCH3_AGENT_PERSONA, persona.goal,
                                             persona.formula, persona.formula_len, ITERATIONS,
                                             7, tree, tree_bytes, &code),
                     ARBOR_OK);
        CHECK_STATUS(arbor_match3_play(&game, code, NULL), ARBOR_OK);
    }
    CHECK_STATUS(arbor_match3_persona_shipped(ARBOR_MATCH3_SHIPPED_PERSONAS, &persona),
                 ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_match3_persona_shipped(0, NULL), ARBOR_NULL_POINTER);
    free(tree);
}

static void test_agent_names(void) {
    static const char *const names[ARBOR_MATCH3_PLAYTEST_AGENTS] = {
        "MaxS", "MinS", "MaxM", "MinM", "Vanilla", "Random"};
    uint32_t i;
    for (i = 0; i < ARBOR_MATCH3_PLAYTEST_AGENTS; i++) {
        const char *name = arbor_match3_playtest_agent_name(i);
        CHECK(name != NULL && strcmp(name, names[i]) == 0);
    }
    CHECK(arbor_match3_playtest_agent_name(ARBOR_MATCH3_PLAYTEST_AGENTS) == NULL);
}

static arbor_status run(const char *level, size_t len, uint32_t games, uint64_t seed,
                        void *tree, size_t tree_bytes, arbor_match3_playtest_report *report) {
    return arbor_match3_playtest((const uint8_t *)level, len, games, seed, ITERATIONS, tree,
                                 tree_bytes, report);
}

static void test_playtest(void) {
    arbor_match3_playtest_report report, again, other, untouched;
    size_t tree_bytes = 0, len = strlen(LEVEL);
    unsigned char *tree;
    int i, differs = 0;

    CHECK_STATUS(arbor_match3_tree_bytes(1 + 112 * ITERATIONS, &tree_bytes), ARBOR_OK);
    /* One spare byte, to hand over a misaligned pointer below. */
    tree = malloc(tree_bytes + 1);
    CHECK(tree != NULL);
    if (tree == NULL) {
        return;
    }

    CHECK_STATUS(run(LEVEL, len, GAMES, 1, tree, tree_bytes, &report), ARBOR_OK);
    for (i = 0; i < ARBOR_MATCH3_PLAYTEST_AGENTS; i++) {
        const arbor_match3_playtest_row *row = &report.rows[i];
        CHECK(row->games == GAMES);
        CHECK(row->min_score >= 8 * 60); /* every move scores at least 60 */
        CHECK((double)row->min_score <= row->mean_score);
        CHECK(row->mean_score <= (double)row->max_score);
        CHECK(row->mean_available >= 1.0 && row->mean_available <= 60.0);
    }
    /* The same inputs give the same report; another seed gives other games. */
    CHECK_STATUS(run(LEVEL, len, GAMES, 1, tree, tree_bytes, &again), ARBOR_OK);
    CHECK(memcmp(&report, &again, sizeof report) == 0);
    CHECK_STATUS(run(LEVEL, len, GAMES, 2, tree, tree_bytes, &other), ARBOR_OK);
    for (i = 0; i < ARBOR_MATCH3_PLAYTEST_AGENTS; i++) {
        differs |= other.rows[i].mean_score != report.rows[i].mean_score;
    }
    CHECK(differs);

    /* Errors leave the report unchanged. */
    memset(&untouched, 0x5a, sizeof untouched);
    again = untouched;
    CHECK_STATUS(run(NULL, len, GAMES, 1, tree, tree_bytes, &again), ARBOR_NULL_POINTER);
    CHECK_STATUS(run(LEVEL, len, GAMES, 1, NULL, tree_bytes, &again), ARBOR_NULL_POINTER);
    CHECK_STATUS(run(LEVEL, len, GAMES, 1, tree, tree_bytes, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(run(LEVEL, len, 0, 1, tree, tree_bytes, &again), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(run("size 7x7\ncolours 12\n", 20, GAMES, 1, tree, tree_bytes, &again),
                 ARBOR_PARSE_ERROR);
    CHECK_STATUS(run("seed \xe9\n", 7, GAMES, 1, tree, tree_bytes, &again), ARBOR_INVALID_UTF8);
    CHECK_STATUS(run(LEVEL, len, GAMES, 1, tree, tree_bytes - 1, &again),
                 ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(run(LEVEL, len, GAMES, 1, tree + 1, tree_bytes, &again),
                 ARBOR_INVALID_ARGUMENT);
    CHECK(memcmp(&again, &untouched, sizeof again) == 0);
    free(tree);
}

int main(void) {
    test_persona_parse();
    test_shipped_personas_play();
    test_agent_names();
    test_playtest();
    return check_report("playtest");
}
