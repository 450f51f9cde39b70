/* The stack every exported function needs, measured on the deepest path each one takes
 * here (full-size boards, searches, a solve), and checked against the area's
 * ARBOR_..._STACK_BYTES in arbor.h. Run by .ci/stack.sh against the no_std library (what
 * embedded targets link) and the std one; prints one line a function. */
#include "stack.h"

#include <arbor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static size_t baseline = 0;

/* Runs `call(arg)` on a painted stack and checks its need (less the thread's own start-up,
 * `baseline`) against `limit`. */
static void measure(const char *name, stack_call call, void *arg, size_t limit) {
    size_t used = stack_used(call, arg);
    size_t need = used > baseline ? used - baseline : 0;
    int ok = used != 0 && need <= limit;
    printf("%-46s %7zu bytes  (limit %zu)%s\n", name, need, limit, ok ? "" : "  TOO MUCH");
    if (!ok) failures++;
}

#define MUST(call)                                                                   \
    do {                                                                             \
        arbor_status status_ = (call);                                               \
        if (status_ != ARBOR_OK) {                                                   \
            fprintf(stderr, "%s:%d: %s returned %u\n", __FILE__, __LINE__, #call,     \
                    (unsigned)status_);                                              \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

static void nothing(void *arg) { (void)arg; }

/* ---- Hold'em and the library ---- */
static void holdem_calls(void *arg) {
    (void)arg;
    static uint8_t hands[7 * 64];
    static uint16_t ranks[64];
    uint8_t hand[7] = {51, 47, 43, 39, 35, 0, 5};
    uint16_t rank;
    uint8_t card;
    char text[64];
    size_t len;
    for (size_t i = 0; i < sizeof hands; i++) hands[i] = (uint8_t)((i % 7) * 7);
    MUST(arbor_hand_rank(hand, 7, &rank));
    MUST(arbor_hand_rank7_batch(hands, 64, ranks));
    (void)arbor_hand_category(rank);
    MUST(arbor_card_parse((const uint8_t *)"As", 2, &card, NULL));
    MUST(arbor_card_format(card, text, sizeof text, &len));
    MUST(arbor_status_format(ARBOR_GAME_OVER, text, sizeof text, &len));
    char info[ARBOR_BUILD_INFO_MAX];
    MUST(arbor_build_info(info, sizeof info, &len));
    (void)arbor_version();
    (void)arbor_abi_version();
}

static float stack_range[ARBOR_EQUITY_COMBOS];
static void equity_calls(void *arg) {
    (void)arg;
    uint8_t cards[9] = {50, 49, 44, 46, 3, 21, 28, 47, 0};
    uint8_t hero_board[6] = {50, 49, 3, 21, 28, 47};
    uint64_t w, t, l;
    double win, tie, loss;
    for (size_t i = 0; i < ARBOR_EQUITY_COMBOS; i++) stack_range[i] = 1.0f;
    MUST(arbor_equity_hand_vs_hand(cards, 8, &w, &t, &l));
    MUST(arbor_equity_hand_vs_range(hero_board, 6, stack_range, ARBOR_EQUITY_COMBOS, &win, &tie, &loss));
    MUST(arbor_equity_range_vs_range(stack_range, ARBOR_EQUITY_COMBOS, stack_range, ARBOR_EQUITY_COMBOS, cards + 4, 3, &win, &tie, &loss));
}

static void holdem_parse_error(void *arg) {
    (void)arg;
    uint8_t card;
    arbor_parse_error error;
    (void)arbor_card_parse((const uint8_t *)"Zz", 2, &card, &error);
}

/* ---- Hold'em hands: a raise war to all-in (the longest replay), showdown, text ---- */
static void holdem_hand_calls(void *arg) {
    (void)arg;
    arbor_holdem_hand hand, parsed;
    arbor_holdem_dealer dealer;
    arbor_holdem_info info;
    arbor_parse_error error;
    uint8_t cards[ARBOR_HOLDEM_DEAL_CARDS];
    int32_t payoffs[2];
    char text[ARBOR_HOLDEM_MATCHSTATE_TEXT_MAX];
    size_t len;
    MUST(arbor_holdem_dealer_init(1, &dealer));
    MUST(arbor_holdem_dealer_next(&dealer, cards, sizeof cards));
    MUST(arbor_holdem_hand_init(20000, 20000, 100, 50, &hand));
    MUST(arbor_holdem_hand_deal_hole(&hand, 0, cards, 2));
    MUST(arbor_holdem_hand_deal_hole(&hand, 1, cards + 2, 2));
    /* Minimum raises until no raise is left (a round holds 64 actions at most), every round. */
    int next_card = 4;
    for (;;) {
        MUST(arbor_holdem_hand_info(&hand, &info));
        if (info.over) break;
        if (info.board_cards_due > 0)
            MUST(arbor_holdem_hand_deal_board(&hand, cards[next_card++]));
        else
            MUST(arbor_holdem_hand_apply(&hand, info.can_raise ? info.min_raise_to : ARBOR_HOLDEM_CALL));
    }
    MUST(arbor_holdem_hand_payoffs(&hand, payoffs, 2));
    MUST(arbor_holdem_matchstate_format(&hand, 0, text, sizeof text, &len));
    MUST(arbor_holdem_matchstate_parse((const uint8_t *)text, len, &hand, &parsed, &error));
    (void)arbor_holdem_matchstate_parse((const uint8_t *)"MATCHSTATE:0:1:r7", 17, &hand, &parsed, &error);
    MUST(arbor_holdem_action_format(20000, text, sizeof text, &len));
    const char *flop = "MATCHSTATE:0:3:r300c/:AsKh|/9d8s7d";
    uint32_t action;
    MUST(arbor_holdem_matchstate_parse((const uint8_t *)flop, strlen(flop), &hand, &parsed, &error));
    MUST(arbor_holdem_bot_act((const uint8_t *)"equity:samples=500", 18, &parsed, &action, NULL));
}

/* ---- Hold'em bot handle: the staged bot deciding on the flop and re-solving a river, a
 * hand over, a cancel, and re-solving a turn (the expert bot with the no_std library, which
 * has no staged bot) ---- */
static void holdem_bot_calls(void *arg) {
    (void)arg;
    static uint64_t bot[(ARBOR_HOLDEM_BOT_BYTES + 7) / 8];
    arbor_holdem_hand rules, flop, over;
    arbor_search_limits limits;
    arbor_search_progress progress;
    arbor_parse_error error;
    size_t bytes;
    uint32_t action;
    const char *spec = "staged:samples=4,resolve=20,seed=1";
    const char *flop_text = "MATCHSTATE:0:3:r300c/:AsKh|/9d8s7d";
    const char *river_text = "MATCHSTATE:0:5:r300c/cc/cc/:AsKh|/9d8s7d/2c/3h";
    const char *over_text = "MATCHSTATE:0:4:r300f:AsKh|";
    arbor_holdem_hand river;
    MUST(arbor_holdem_bot_bytes(&bytes));
    if (arbor_holdem_bot_init(bot, sizeof bot, (const uint8_t *)spec, strlen(spec), 7, &error) != ARBOR_OK)
        spec = "expert:seed=1";
    MUST(arbor_holdem_bot_init(bot, sizeof bot, (const uint8_t *)spec, strlen(spec), 7, &error));
    (void)arbor_holdem_bot_init(bot, sizeof bot, (const uint8_t *)"staged:samples=x", 16, 7, &error);
    MUST(arbor_holdem_bot_init(bot, sizeof bot, (const uint8_t *)spec, strlen(spec), 7, &error));
    MUST(arbor_search_limits_init(0, &limits));
    MUST(arbor_holdem_hand_init(20000, 20000, 100, 50, &rules));
    MUST(arbor_holdem_matchstate_parse((const uint8_t *)flop_text, strlen(flop_text), &rules, &flop, &error));
    MUST(arbor_holdem_bot_decide(bot, sizeof bot, &flop, &limits, &action, &progress));
    MUST(arbor_holdem_matchstate_parse((const uint8_t *)river_text, strlen(river_text), &rules, &river, &error));
    MUST(arbor_holdem_bot_decide(bot, sizeof bot, &river, &limits, &action, &progress));
    MUST(arbor_holdem_matchstate_parse((const uint8_t *)over_text, strlen(over_text), &rules, &over, &error));
    MUST(arbor_holdem_bot_hand_over(bot, sizeof bot, &over, 0));
    MUST(arbor_holdem_bot_cancel(bot, sizeof bot));
    MUST(arbor_holdem_bot_decide(bot, sizeof bot, &flop, &limits, &action, &progress));
    /* A turn re-solve (staged:resolve-turn=N), whose leaves are valued in batches of lanes. */
    const char *turn_spec = "staged:samples=4,resolve=20,resolve-turn=2,seed=1";
    const char *turn_text = "MATCHSTATE:0:6:r300c/cc/:AsKh|/9d8s7d/2c";
    arbor_holdem_hand turn;
    if (arbor_holdem_bot_init(bot, sizeof bot, (const uint8_t *)turn_spec, strlen(turn_spec), 7, &error) == ARBOR_OK) {
        MUST(arbor_holdem_matchstate_parse((const uint8_t *)turn_text, strlen(turn_text), &rules, &turn, &error));
        MUST(arbor_holdem_bot_decide(bot, sizeof bot, &turn, &limits, &action, &progress));
    }
}

/* ---- Breakthrough position ---- */
static void breakthrough_calls(void *arg) {
    (void)arg;
    arbor_breakthrough state;
    uint16_t moves[ARBOR_BREAKTHROUGH_MAX_MOVES];
    size_t count, len;
    char text[ARBOR_BREAKTHROUGH_TEXT_MAX];
    uint32_t status;
    uint64_t hash;
    uint16_t mv;
    arbor_parse_error error;
    MUST(arbor_breakthrough_init(8, 8, &state));
    MUST(arbor_breakthrough_format(&state, text, sizeof text, &len));
    MUST(arbor_breakthrough_parse((const uint8_t *)text, len, &state, &error));
    (void)arbor_breakthrough_parse((const uint8_t *)"BBBBBBBB/x", 10, &state, &error);
    MUST(arbor_breakthrough_legal_moves(&state, moves, ARBOR_BREAKTHROUGH_MAX_MOVES, &count));
    MUST(arbor_breakthrough_play(&state, moves[0]));
    MUST(arbor_breakthrough_status(&state, &status));
    MUST(arbor_breakthrough_hash(&state, &hash));
    MUST(arbor_breakthrough_move_format(moves[0], text, sizeof text, &len));
    MUST(arbor_breakthrough_move_parse((const uint8_t *)text, len, &mv, &error));
}

/* ---- Breakthrough search handle ---- */
struct search_job {
    uint32_t policy;
    void *buf;
    size_t len;
};

static void breakthrough_search_calls(void *arg) {
    struct search_job *job = (struct search_job *)arg;
    arbor_breakthrough state;
    arbor_breakthrough_search_config config;
    arbor_search_limits limits;
    arbor_search_progress progress;
    arbor_breakthrough_search_stats stats;
    size_t bytes;
    uint32_t nodes;
    MUST(arbor_breakthrough_init(8, 8, &state));
    MUST(arbor_breakthrough_search_default_config(job->policy, &config));
    MUST(arbor_breakthrough_search_nodes_for_iterations(&state, 2000, &nodes));
    MUST(arbor_breakthrough_search_bytes(nodes, 1, &bytes));
    MUST(arbor_breakthrough_search_init(job->buf, job->len, &config, &state, 7));
    MUST(arbor_search_limits_init(2000, &limits));
    MUST(arbor_breakthrough_search_run(job->buf, job->len, &limits, 1, &progress));
    MUST(arbor_breakthrough_search_play(job->buf, job->len, (uint16_t)progress.best_move));
    MUST(arbor_breakthrough_search_run(job->buf, job->len, &limits, 1, &progress));
    MUST(arbor_breakthrough_search_best(job->buf, job->len, &progress));
    MUST(arbor_breakthrough_search_tree_stats(job->buf, job->len, &stats));
    MUST(arbor_breakthrough_search_cancel(job->buf, job->len));
    (void)arbor_breakthrough_search_max_threads();
}

/* ---- Breakthrough solver ---- */
struct solve_job {
    const char *position;
    void *buf;
    size_t len;
};

static void breakthrough_solve_call(void *arg) {
    struct solve_job *job = (struct solve_job *)arg;
    arbor_breakthrough_solve_result result;
    size_t bytes;
    MUST(arbor_breakthrough_solve_bytes(1u << 16, &bytes));
    MUST(arbor_breakthrough_solve((const uint8_t *)job->position, strlen(job->position), job->buf,
                                  job->len, 300000, ARBOR_BREAKTHROUGH_SOLVE_PATTERNS, &result,
                                  NULL));
}

/* ---- Match-3 ---- */
struct match3_job {
    uint32_t agent;
    void *buf;
    size_t len;
};

static void match3_calls(void *arg) {
    struct match3_job *job = (struct match3_job *)arg;
    arbor_match3_level level;
    arbor_match3_game game;
    arbor_match3_persona persona;
    arbor_match3_outcome outcome;
    arbor_match3_metrics metrics;
    arbor_parse_error error;
    uint8_t moves[ARBOR_MATCH3_MAX_MOVES], code, formula[ARBOR_MATCH3_FORMULA_MAX_BYTES];
    size_t count, len, formula_len;
    char text[64];
    MUST(arbor_match3_level_preset(0, &level));
    MUST(arbor_match3_game_start(&level, 3, &game));
    MUST(arbor_match3_legal_moves(&game, moves, ARBOR_MATCH3_MAX_MOVES, &count));
    MUST(arbor_match3_move_format(moves[0], text, sizeof text, &len));
    MUST(arbor_match3_move_parse((const uint8_t *)text, len, &code, &error));
    MUST(arbor_match3_persona_shipped(0, &persona));
    (void)arbor_match3_formula_parse((const uint8_t *)"(q + n) * sqrt(n)", 17, formula,
                                     sizeof formula, &formula_len, &error);
    MUST(arbor_match3_agent_move(&game, job->agent, persona.goal, persona.formula,
                                 persona.formula_len, 300, 5, job->buf, job->len, &code));
    MUST(arbor_match3_play(&game, code, &outcome));
    MUST(arbor_match3_game_metrics(&game, &metrics));
    MUST(arbor_match3_playtest_agent_format(0, text, sizeof text, &len));
}

static void match3_parse_calls(void *arg) {
    (void)arg;
    static const char level_text[] = "size 7x7\nmoves 20\ncolours 6\n";
    static const char persona_text[] = "goal MaxS\nformula (q\n";
    arbor_match3_level level;
    arbor_match3_persona persona;
    arbor_parse_error error;
    (void)arbor_match3_level_parse((const uint8_t *)level_text, sizeof level_text - 1, &level,
                                   &error);
    (void)arbor_match3_persona_parse((const uint8_t *)persona_text, sizeof persona_text - 1,
                                     &persona, &error);
}

static void match3_search_calls(void *arg) {
    struct match3_job *job = (struct match3_job *)arg;
    arbor_match3_level level;
    arbor_match3_game game;
    arbor_match3_persona persona;
    arbor_search_limits limits;
    arbor_search_progress progress;
    MUST(arbor_match3_level_preset(0, &level));
    MUST(arbor_match3_game_start(&level, 3, &game));
    MUST(arbor_match3_persona_shipped(0, &persona));
    MUST(arbor_match3_search_init(job->buf, job->len, &game, job->agent, persona.goal,
                                  persona.formula, persona.formula_len, 9));
    MUST(arbor_search_limits_init(300, &limits));
    MUST(arbor_match3_search_run(job->buf, job->len, &limits, &progress));
    MUST(arbor_match3_search_play(job->buf, job->len, (uint8_t)progress.best_move));
    MUST(arbor_match3_search_run(job->buf, job->len, &limits, &progress));
    MUST(arbor_match3_search_game(job->buf, job->len, &game));
    MUST(arbor_match3_search_cancel(job->buf, job->len));
}

static void match3_playtest_calls(void *arg) {
    struct match3_job *job = (struct match3_job *)arg;
    arbor_match3_level level;
    arbor_match3_playtest_report report;
    arbor_match3_playtest_progress progress;
    MUST(arbor_match3_level_preset(0, &level));
    MUST(arbor_match3_playtest(&level, 1, 11, 100, job->buf, job->len, &report));
    MUST(arbor_match3_playtest_init(job->buf, job->len, &level, 1, 11, 100));
    do {
        MUST(arbor_match3_playtest_step(job->buf, job->len, &progress));
    } while (progress.games_done < progress.games_total);
    MUST(arbor_match3_playtest_result(job->buf, job->len, &report));
}

/* ---- Go ---- */
struct go_job {
    uint32_t player;
    void *game;
    size_t game_len;
    void *buf;
    size_t len;
};

/* Every game call on a 19x19 game of 300 moves set up from SGF (the longest replays). */
static void go_calls(void *arg) {
    struct go_job *job = (struct go_job *)arg;
    static char text[ARBOR_GO_SGF_TEXT_MAX];
    static uint32_t moves[ARBOR_GO_MAX_MOVES];
    uint8_t points[ARBOR_GO_MAX_POINTS];
    char small[ARBOR_GO_DIAGRAM_TEXT_MAX];
    arbor_go_info info;
    arbor_go_score score;
    arbor_parse_error error;
    size_t bytes, len, count;
    uint32_t mv, reason;
    MUST(arbor_go_game_bytes(19, &bytes));
    MUST(arbor_go_game_init(job->game, job->game_len, 19, 7.5));
    MUST(arbor_go_game_set_komi(job->game, job->game_len, 6.5));
    MUST(arbor_go_game_legal_moves(job->game, job->game_len, moves, ARBOR_GO_MAX_MOVES, &count));
    for (uint32_t i = 0; i < 300; i++) MUST(arbor_go_game_play(job->game, job->game_len, (i * 7 + i / 19 * 2) % 361 == 0 ? ARBOR_GO_PASS : moves[i]));
    MUST(arbor_go_game_sgf_format(job->game, job->game_len, text, sizeof text, &len));
    MUST(arbor_go_game_sgf_parse(job->game, job->game_len, (const uint8_t *)text, len, &error));
    (void)arbor_go_game_sgf_parse(job->game, job->game_len, (const uint8_t *)"(;SZ[9];B[ee];W[ee])", 20, &error);
    (void)arbor_go_game_sgf_parse(job->game, job->game_len, (const uint8_t *)"(;SZ[9];B[e", 11, &error);
    MUST(arbor_go_game_check(job->game, job->game_len, ARBOR_GO_PASS, &reason));
    MUST(arbor_go_game_legal_moves(job->game, job->game_len, moves, ARBOR_GO_MAX_MOVES, &count));
    MUST(arbor_go_game_board(job->game, job->game_len, points, sizeof points, &count));
    MUST(arbor_go_game_info(job->game, job->game_len, &info));
    MUST(arbor_go_game_score(job->game, job->game_len, &score));
    MUST(arbor_go_game_final_score(job->game, job->game_len, 3, &score));
    MUST(arbor_go_game_final_status(job->game, job->game_len, 3, points, sizeof points, &count));
    MUST(arbor_go_game_format(job->game, job->game_len, small, sizeof small, &len));
    MUST(arbor_go_game_undo(job->game, job->game_len));
    MUST(arbor_go_move_parse(19, (const uint8_t *)"T19", 3, &mv, &error));
    (void)arbor_go_move_parse(19, (const uint8_t *)"I19", 3, &mv, &error);
    MUST(arbor_go_move_format(19, mv, small, sizeof small, &len));
}

/* The search handle on the 19x19 game of go_calls, then on a fresh 9x9 one. */
static void go_search_calls(void *arg) {
    struct go_job *job = (struct go_job *)arg;
    arbor_search_limits limits;
    arbor_search_progress progress;
    arbor_go_search_stats stats;
    arbor_go_decision decision;
    size_t bytes;
    MUST(arbor_go_search_bytes(19, 10000, 1, &bytes));
    MUST(arbor_go_search_init(job->buf, job->len, job->game, job->game_len, job->player, 5));
    MUST(arbor_search_limits_init(200, &limits));
    MUST(arbor_go_search_run(job->buf, job->len, &limits, 1, &progress));
    MUST(arbor_go_search_play(job->buf, job->len, progress.best_move));
    MUST(arbor_go_search_run(job->buf, job->len, &limits, 1, &progress));
    MUST(arbor_go_search_tree_stats(job->buf, job->len, &stats));
    MUST(arbor_go_search_decide(job->buf, job->len, &decision));
    MUST(arbor_go_search_game(job->buf, job->len, job->game, job->game_len));
    MUST(arbor_go_search_cancel(job->buf, job->len));
    MUST(arbor_go_game_init(job->game, job->game_len, 9, 7.5));
    MUST(arbor_go_search_init(job->buf, job->len, job->game, job->game_len, job->player, 5));
    MUST(arbor_go_search_run(job->buf, job->len, &limits, 1, &progress));
}

static void *aligned(size_t align, size_t bytes) {
    void *p = NULL;
    if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, bytes) != 0) {
        fprintf(stderr, "cannot allocate %zu bytes\n", bytes);
        exit(1);
    }
    return p;
}

int main(void) {
    baseline = stack_used(nothing, NULL);
    printf("thread start-up, subtracted below: %zu bytes\n", baseline);

    measure("hand, cards, status, version", holdem_calls, NULL, ARBOR_HAND_STACK_BYTES);
    measure("equity: hand and range against a range", equity_calls, NULL, ARBOR_EQUITY_STACK_BYTES);
    measure("card parse error", holdem_parse_error, NULL, ARBOR_HAND_STACK_BYTES);
    measure("holdem hand: a raise war, MATCHSTATE, equity bot", holdem_hand_calls, NULL,
            ARBOR_HOLDEM_HAND_STACK_BYTES);
    measure("holdem bot handle: staged flop and river, hand over, cancel, a turn re-solve", holdem_bot_calls, NULL,
            ARBOR_HOLDEM_BOT_STACK_BYTES);
    measure("breakthrough position", breakthrough_calls, NULL, ARBOR_BREAKTHROUGH_STACK_BYTES);

    arbor_breakthrough start;
    uint32_t nodes;
    size_t bytes;
    MUST(arbor_breakthrough_init(8, 8, &start));
    MUST(arbor_breakthrough_search_nodes_for_iterations(&start, 2000, &nodes));
    MUST(arbor_breakthrough_search_bytes(nodes, 1, &bytes));
    struct search_job search = {0, aligned(ARBOR_BREAKTHROUGH_SEARCH_ALIGN, bytes), bytes};
    const uint32_t policies[3] = {ARBOR_BREAKTHROUGH_SEARCH_UCT, ARBOR_BREAKTHROUGH_SEARCH_RAVE,
                                  ARBOR_BREAKTHROUGH_SEARCH_MOGO};
    const char *policy_names[3] = {"breakthrough search 8x8, UCT", "breakthrough search 8x8, RAVE",
                                   "breakthrough search 8x8, MoGo"};
    for (int i = 0; i < 3; i++) {
        search.policy = policies[i];
        measure(policy_names[i], breakthrough_search_calls, &search,
                ARBOR_BREAKTHROUGH_SEARCH_STACK_BYTES);
    }
    free(search.buf);

    MUST(arbor_breakthrough_solve_bytes(1u << 16, &bytes));
    struct solve_job solve = {"BBBBB/BBBBB/...../WWWWW/WWWWW w", /* 5x5, within a budget */
                              aligned(ARBOR_BREAKTHROUGH_SOLVE_ALIGN, bytes), bytes};
    measure("breakthrough solve 5x5, patterns", breakthrough_solve_call, &solve,
            ARBOR_BREAKTHROUGH_SOLVE_STACK_BYTES);
    free(solve.buf);

    arbor_match3_level level;
    MUST(arbor_match3_level_preset(0, &level));
    MUST(arbor_match3_tree_bytes(&level, 300, &bytes));
    struct match3_job match3 = {0, aligned(ARBOR_MATCH3_TREE_ALIGN, bytes), bytes};
    const uint32_t agents[3] = {ARBOR_MATCH3_AGENT_RANDOM, ARBOR_MATCH3_AGENT_VANILLA,
                                ARBOR_MATCH3_AGENT_PERSONA};
    const char *agent_names[3] = {"match3 game, random agent", "match3 game, vanilla agent",
                                  "match3 game, persona agent"};
    for (int i = 0; i < 3; i++) {
        match3.agent = agents[i];
        measure(agent_names[i], match3_calls, &match3, ARBOR_MATCH3_STACK_BYTES);
    }
    measure("match3 level and persona parse errors", match3_parse_calls, NULL,
            ARBOR_MATCH3_STACK_BYTES);
    free(match3.buf);

    MUST(arbor_match3_search_bytes(&level, 300, &bytes));
    match3.buf = aligned(ARBOR_MATCH3_SEARCH_ALIGN, bytes);
    match3.len = bytes;
    const char *search_names[3] = {"match3 search handle, random", "match3 search handle, vanilla",
                                   "match3 search handle, persona"};
    for (int i = 0; i < 3; i++) {
        match3.agent = agents[i];
        measure(search_names[i], match3_search_calls, &match3, ARBOR_MATCH3_SEARCH_STACK_BYTES);
    }
    free(match3.buf);

    MUST(arbor_match3_playtest_bytes(&level, 100, &bytes));
    match3.buf = aligned(ARBOR_MATCH3_PLAYTEST_ALIGN, bytes);
    match3.len = bytes;
    measure("match3 playtest, one-shot and stepped", match3_playtest_calls, &match3,
            ARBOR_MATCH3_PLAYTEST_STACK_BYTES);
    free(match3.buf);

    struct go_job go = {ARBOR_GO_PLAYER_LIGHT, NULL, 0, NULL, 0};
    MUST(arbor_go_game_bytes(19, &go.game_len));
    go.game = aligned(ARBOR_GO_GAME_ALIGN, go.game_len);
    measure("go game 19x19, 300 moves, SGF, vertices", go_calls, &go, ARBOR_GO_STACK_BYTES);
    MUST(arbor_go_search_bytes(19, 10000, 1, &go.len));
    go.buf = aligned(ARBOR_GO_SEARCH_ALIGN, go.len);
    const uint32_t go_players[2] = {ARBOR_GO_PLAYER_LIGHT, ARBOR_GO_PLAYER_MOGO};
    const char *go_names[2] = {"go search 19x19 and 9x9, light", "go search 19x19 and 9x9, MoGo"};
    for (int i = 0; i < 2; i++) {
        go.player = go_players[i];
        go_calls(&go);
        measure(go_names[i], go_search_calls, &go, ARBOR_GO_SEARCH_STACK_BYTES);
    }
    free(go.game);
    free(go.buf);

    printf("stack: %s\n", failures == 0 ? "every call within its limit" : "LIMITS EXCEEDED");
    return failures == 0 ? 0 : 1;
}
