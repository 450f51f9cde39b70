/* A Hold'em bot handle through the C ABI: two handles in caller buffers play whole hands
 * against each other through the arbor_holdem_hand calls, the same seed plays the same
 * actions, a cancel answers with the cheapest legal action, a deadline and a cancel from
 * another thread cut the staged bot's search short, the handle keeps what its bot learned
 * across hands, and bad inputs are refused. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arbor.h"
#include "check.h"
#include "clock.h"

/* A fixed deal (card bytes, rank * 4 + suit): position 0's, position 1's, the board. */
static const uint8_t deck[9] = {0, 2, 37, 47, 28, 27, 9, 43, 32};

static void *make_bot(const char *spec, uint64_t seed) {
    size_t bytes = 0;
    void *buf;
    arbor_parse_error error;
    CHECK_STATUS(arbor_holdem_bot_bytes(&bytes), ARBOR_OK);
    CHECK(bytes == ARBOR_HOLDEM_BOT_BYTES);
    buf = malloc(bytes);
    CHECK(buf != NULL);
    CHECK_STATUS(arbor_holdem_bot_init(buf, bytes, (const uint8_t *)spec, strlen(spec), seed,
                                       &error),
                 ARBOR_OK);
    return buf;
}

static arbor_search_limits no_limits(void) {
    arbor_search_limits limits;
    CHECK_STATUS(arbor_search_limits_init(0, &limits), ARBOR_OK);
    return limits;
}

static arbor_holdem_hand dealt_hand(uint32_t number) {
    arbor_holdem_hand hand;
    CHECK_STATUS(arbor_holdem_hand_init(ARBOR_HOLDEM_ACPC_STACK, ARBOR_HOLDEM_ACPC_STACK,
                                        ARBOR_HOLDEM_ACPC_BIG_BLIND,
                                        ARBOR_HOLDEM_ACPC_SMALL_BLIND, &hand),
                 ARBOR_OK);
    hand.hand_number = number; /* the bots reseed from it */
    CHECK_STATUS(arbor_holdem_hand_deal_hole(&hand, 0, deck, 2), ARBOR_OK);
    CHECK_STATUS(arbor_holdem_hand_deal_hole(&hand, 1, deck + 2, 2), ARBOR_OK);
    return hand;
}

/* Plays one hand, bots[p] deciding for position p; writes the actions, returns their count. */
static int play_hand(void *bots[2], uint32_t number, uint32_t *actions, int max) {
    arbor_holdem_hand hand = dealt_hand(number);
    arbor_search_limits limits = no_limits();
    int count = 0, next_card = 4, position;
    for (;;) {
        arbor_holdem_info info;
        arbor_search_progress progress;
        uint32_t action = 0xDEAD;
        CHECK_STATUS(arbor_holdem_hand_info(&hand, &info), ARBOR_OK);
        if (info.over) break;
        if (info.board_cards_due > 0) {
            CHECK_STATUS(arbor_holdem_hand_deal_board(&hand, deck[next_card++]), ARBOR_OK);
            continue;
        }
        CHECK_STATUS(arbor_holdem_bot_decide(bots[info.to_act], ARBOR_HOLDEM_BOT_BYTES, &hand,
                                             &limits, &action, &progress),
                     ARBOR_OK);
        CHECK(progress.stop_reason == ARBOR_STOP_DONE && progress.best_move == action);
        CHECK_STATUS(arbor_holdem_hand_apply(&hand, action), ARBOR_OK);
        if (count < max) actions[count++] = action;
    }
    {
        uint32_t action = 0xDEAD;
        CHECK_STATUS(arbor_holdem_bot_decide(bots[0], ARBOR_HOLDEM_BOT_BYTES, &hand, &limits,
                                             &action, NULL),
                     ARBOR_GAME_OVER);
        CHECK(action == 0xDEAD);
    }
    for (position = 0; position < 2; position++) {
        CHECK_STATUS(arbor_holdem_bot_hand_over(bots[position], ARBOR_HOLDEM_BOT_BYTES, &hand,
                                                (uint32_t)position),
                     ARBOR_OK);
    }
    return count;
}

/* Six hands of `random` against `equity`; all their actions in order. */
static int play_match(uint64_t seed, uint32_t *actions, int max) {
    void *bots[2];
    int total = 0, hand;
    bots[0] = make_bot("random", seed);
    bots[1] = make_bot("equity:samples=200,seed=77", seed);
    for (hand = 0; hand < 6; hand++) {
        total += play_hand(bots, (uint32_t)hand, actions + total, max - total);
    }
    free(bots[0]);
    free(bots[1]);
    return total;
}

static void test_whole_hands_and_the_same_seed_plays_the_same(void) {
    uint32_t first[600], again[600], other[600];
    int count = play_match(11, first, 600);
    int count_again = play_match(11, again, 600);
    int count_other = play_match(12, other, 600);
    CHECK(count > 6); /* at least two actions a hand, most hands more */
    CHECK(count == count_again && memcmp(first, again, sizeof(uint32_t) * (size_t)count) == 0);
    CHECK(count != count_other || memcmp(first, other, sizeof(uint32_t) * (size_t)count) != 0);
}

static void test_cancel_answers_with_the_cheapest_action(void) {
    void *bot = make_bot("min-raise", 1);
    arbor_holdem_hand hand = dealt_hand(0);
    arbor_search_limits limits = no_limits();
    arbor_search_progress progress;
    uint32_t action = 0xDEAD;
    CHECK_STATUS(arbor_holdem_bot_cancel(bot, ARBOR_HOLDEM_BOT_BYTES), ARBOR_OK);
    CHECK_STATUS(
        arbor_holdem_bot_decide(bot, ARBOR_HOLDEM_BOT_BYTES, &hand, &limits, &action, &progress),
        ARBOR_OK);
    /* The small blind faces the big blind: the cheapest legal action is a fold. */
    CHECK(action == ARBOR_HOLDEM_FOLD && progress.stop_reason == ARBOR_STOP_CANCELLED);
    CHECK_STATUS(
        arbor_holdem_bot_decide(bot, ARBOR_HOLDEM_BOT_BYTES, &hand, &limits, &action, &progress),
        ARBOR_OK);
    CHECK(action == 2 * ARBOR_HOLDEM_ACPC_BIG_BLIND && progress.stop_reason == ARBOR_STOP_DONE);
    free(bot);
}

/* The fixed deal, checked and called to the flop: the staged bot searches there. */
static arbor_holdem_hand flop_hand(void) {
    arbor_holdem_hand hand = dealt_hand(3);
    int card;
    CHECK_STATUS(arbor_holdem_hand_apply(&hand, ARBOR_HOLDEM_CALL), ARBOR_OK);
    CHECK_STATUS(arbor_holdem_hand_apply(&hand, ARBOR_HOLDEM_CALL), ARBOR_OK);
    for (card = 4; card < 7; card++) {
        CHECK_STATUS(arbor_holdem_hand_deal_board(&hand, deck[card]), ARBOR_OK);
    }
    return hand;
}

/* Whether `action` is legal in `hand` (applied to a copy). */
static int legal(const arbor_holdem_hand *hand, uint32_t action) {
    arbor_holdem_hand copy = *hand;
    return arbor_holdem_hand_apply(&copy, action) == ARBOR_OK;
}

typedef struct {
    void *bot;
    uint64_t cancelled_at;
    arbor_status status;
} canceller;

static void *cancel_later(void *arg) {
    canceller *c = (canceller *)arg;
    struct timespec pause = {0, 5 * 1000 * 1000};
    nanosleep(&pause, NULL);
    c->cancelled_at = now_us();
    c->status = arbor_holdem_bot_cancel(c->bot, ARBOR_HOLDEM_BOT_BYTES);
    return NULL;
}

/* Whether the library linked is a std build (spec-made staged bots need std). */
static int library_has_std(void) {
    char info[ARBOR_BUILD_INFO_MAX];
    size_t len = 0;
    CHECK_STATUS(arbor_build_info(info, sizeof info, &len), ARBOR_OK);
    return strstr(info, " features std") != NULL;
}

/* The staged bot on a flop, 10 cards a deal, searches for about 250 ms (more under the
 * sanitizers); a 10 ms deadline or a cancel from another thread ends it within a poll (well
 * under a millisecond) plus what does not poll (the bot is rebuilt and the range tracked: a
 * few milliseconds). The margin of 50 ms absorbs a loaded machine and the sanitizers'
 * slowdown, and is still a fifth of the uncut decision, which the test checks. */
static void test_a_deadline_and_a_cancel_cut_the_staged_search_short(void) {
    const uint64_t margin_us = 50000;
    void *bot;
    arbor_holdem_hand hand = flop_hand();
    arbor_search_limits limits = no_limits();
    arbor_search_progress progress;
    uint32_t full = 0xDEAD, cut = 0xDEAD, action = 0xDEAD;
    uint64_t start, full_us, cut_us, after_cancel_us;
    canceller c;
    pthread_t thread;

    if (!library_has_std()) {
        printf("staged deadline and cancel: skipped, the no_std library makes no staged bot "
               "from a spec (a no_std caller builds it with paper_bot in its own storage)\n");
        return;
    }
    bot = make_bot("staged:samples=10", 5);
    start = now_us();
    CHECK_STATUS(
        arbor_holdem_bot_decide(bot, ARBOR_HOLDEM_BOT_BYTES, &hand, &limits, &full, &progress),
        ARBOR_OK);
    full_us = now_us() - start;
    CHECK(progress.stop_reason == ARBOR_STOP_DONE && legal(&hand, full));

    limits.deadline_us = 10000;
    limits.now_us = monotonic_clock;
    start = now_us();
    CHECK_STATUS(
        arbor_holdem_bot_decide(bot, ARBOR_HOLDEM_BOT_BYTES, &hand, &limits, &cut, &progress),
        ARBOR_OK);
    cut_us = now_us() - start;
    CHECK(progress.stop_reason == ARBOR_STOP_DEADLINE && progress.best_move == cut);
    CHECK(legal(&hand, cut));
    CHECK(cut_us < limits.deadline_us + margin_us);
    /* The check is meaningful: the uncut decision takes longer than the bound. */
    CHECK(full_us > limits.deadline_us + margin_us);
    printf("staged on a flop: %u us uncut, %u us under a 10 ms deadline\n", (unsigned)full_us,
           (unsigned)cut_us);

    /* A cancel from another thread, 5 ms into a decision without a deadline. */
    limits = no_limits();
    c.bot = bot;
    c.cancelled_at = 0;
    c.status = ARBOR_NULL_POINTER;
    CHECK(pthread_create(&thread, NULL, cancel_later, &c) == 0);
    CHECK_STATUS(
        arbor_holdem_bot_decide(bot, ARBOR_HOLDEM_BOT_BYTES, &hand, &limits, &action, &progress),
        ARBOR_OK);
    after_cancel_us = now_us() - c.cancelled_at;
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_STATUS(c.status, ARBOR_OK);
    CHECK(progress.stop_reason == ARBOR_STOP_CANCELLED && legal(&hand, action));
    CHECK(after_cancel_us < margin_us);
    printf("cancel: the decision returned %u us after the flag was set\n",
           (unsigned)after_cancel_us);
    /* The cancel was consumed: the next decision is the uncut one again. */
    CHECK_STATUS(
        arbor_holdem_bot_decide(bot, ARBOR_HOLDEM_BOT_BYTES, &hand, &limits, &action, &progress),
        ARBOR_OK);
    CHECK(progress.stop_reason == ARBOR_STOP_DONE && action == full);
    free(bot);
}

/* A hand in which position 1 holds 7c 2d and position 0 `hole`, with `actions` applied. */
static arbor_holdem_hand shove_hand(uint32_t number, const uint8_t hole[2],
                                    const uint32_t *actions, int count) {
    static const uint8_t theirs[2] = {20, 1};
    arbor_holdem_hand hand;
    int i;
    CHECK_STATUS(arbor_holdem_hand_init(ARBOR_HOLDEM_ACPC_STACK, ARBOR_HOLDEM_ACPC_STACK,
                                        ARBOR_HOLDEM_ACPC_BIG_BLIND,
                                        ARBOR_HOLDEM_ACPC_SMALL_BLIND, &hand),
                 ARBOR_OK);
    hand.hand_number = number;
    CHECK_STATUS(arbor_holdem_hand_deal_hole(&hand, 0, hole, 2), ARBOR_OK);
    CHECK_STATUS(arbor_holdem_hand_deal_hole(&hand, 1, theirs, 2), ARBOR_OK);
    for (i = 0; i < count; i++) CHECK_STATUS(arbor_holdem_hand_apply(&hand, actions[i]), ARBOR_OK);
    return hand;
}

static uint32_t decide(void *bot, const arbor_holdem_hand *hand) {
    arbor_search_limits limits = no_limits();
    uint32_t action = 0xDEAD;
    CHECK_STATUS(
        arbor_holdem_bot_decide(bot, ARBOR_HOLDEM_BOT_BYTES, hand, &limits, &action, NULL),
        ARBOR_OK);
    return action;
}

/* The expert bot learns that its opponent shoves anything: after forty hands of it, the
 * handle calls a shove with K9 offsuit that a fresh handle folds; a changed byte of the
 * learned block at the handle's end is refused. */
static void test_the_handle_keeps_what_the_bot_learned(void) {
    static const uint8_t king_nine[2] = {44, 29}, junk[2] = {8, 13};
    const uint32_t shove[1] = {ARBOR_HOLDEM_ACPC_STACK};
    const uint32_t shove_fold[2] = {ARBOR_HOLDEM_ACPC_STACK, ARBOR_HOLDEM_FOLD};
    void *kept = make_bot("expert", 3), *fresh = make_bot("expert", 3);
    void *copy = malloc(ARBOR_HOLDEM_BOT_BYTES);
    arbor_holdem_hand spot = shove_hand(100, king_nine, shove, 1);
    uint32_t number, learned;
    size_t at;
    CHECK(copy != NULL);
    CHECK(decide(fresh, &spot) == ARBOR_HOLDEM_FOLD);
    for (number = 0; number < 40; number++) {
        arbor_holdem_hand over = shove_hand(number, junk, shove_fold, 2);
        CHECK_STATUS(arbor_holdem_bot_hand_over(kept, ARBOR_HOLDEM_BOT_BYTES, &over, 0), ARBOR_OK);
    }
    learned = decide(kept, &spot);
    CHECK(learned == ARBOR_HOLDEM_CALL);
    CHECK(decide(fresh, &spot) == ARBOR_HOLDEM_FOLD);
    /* The learned block is the buffer's end; every byte of it is checked. */
    for (at = ARBOR_HOLDEM_BOT_BYTES - ARBOR_HOLDEM_BOT_LEARNED_BYTES; at < ARBOR_HOLDEM_BOT_BYTES;
         at += 97) {
        uint32_t action = 0xDEAD;
        arbor_search_limits limits = no_limits();
        memcpy(copy, kept, ARBOR_HOLDEM_BOT_BYTES);
        ((unsigned char *)copy)[at] ^= 0x04;
        CHECK_STATUS(
            arbor_holdem_bot_decide(copy, ARBOR_HOLDEM_BOT_BYTES, &spot, &limits, &action, NULL),
            ARBOR_NOT_INITIALISED);
        CHECK(action == 0xDEAD);
    }
    /* Copied into a fresh handle of the same spec, the learned bytes carry the profile. */
    memcpy((unsigned char *)fresh + ARBOR_HOLDEM_BOT_BYTES - ARBOR_HOLDEM_BOT_LEARNED_BYTES,
           (unsigned char *)kept + ARBOR_HOLDEM_BOT_BYTES - ARBOR_HOLDEM_BOT_LEARNED_BYTES,
           ARBOR_HOLDEM_BOT_LEARNED_BYTES);
    CHECK(decide(fresh, &spot) == learned);
    free(copy);
    free(fresh);
    free(kept);
}

static void test_bad_inputs_are_refused(void) {
    void *bot = make_bot("call", 1);
    void *spare = malloc(ARBOR_HOLDEM_BOT_BYTES + 8);
    arbor_holdem_hand hand = dealt_hand(0), empty;
    arbor_search_limits limits = no_limits(), foreign;
    arbor_parse_error error;
    uint32_t action = 0xDEAD;
    char long_spec[ARBOR_HOLDEM_BOT_SPEC_MAX + 2];
    const char *bad = "equity:samples=zero";
    CHECK_STATUS(arbor_holdem_bot_init(spare, ARBOR_HOLDEM_BOT_BYTES, (const uint8_t *)bad,
                                       strlen(bad), 1, &error),
                 ARBOR_PARSE_ERROR);
    CHECK(error.message_len > 0 && strstr((const char *)error.message, "samples=zero") != NULL);
    CHECK_STATUS(arbor_holdem_bot_init(spare, ARBOR_HOLDEM_BOT_BYTES, (const uint8_t *)"genius",
                                       6, 1, NULL),
                 ARBOR_PARSE_ERROR);
    memset(long_spec, 'x', sizeof long_spec);
    CHECK_STATUS(arbor_holdem_bot_init(spare, ARBOR_HOLDEM_BOT_BYTES, (const uint8_t *)long_spec,
                                       sizeof long_spec, 1, NULL),
                 ARBOR_INVALID_LENGTH);
    CHECK_STATUS(arbor_holdem_bot_init(spare, ARBOR_HOLDEM_BOT_BYTES - 1, (const uint8_t *)"call",
                                       4, 1, NULL),
                 ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_holdem_bot_init((char *)spare + 1, ARBOR_HOLDEM_BOT_BYTES,
                                       (const uint8_t *)"call", 4, 1, NULL),
                 ARBOR_MISALIGNED);
    CHECK_STATUS(arbor_holdem_bot_init(NULL, ARBOR_HOLDEM_BOT_BYTES, (const uint8_t *)"call", 4,
                                       1, NULL),
                 ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_holdem_bot_bytes(NULL), ARBOR_NULL_POINTER);
    /* Nothing prepared the spare buffer. */
    memset(spare, 0, ARBOR_HOLDEM_BOT_BYTES);
    CHECK_STATUS(
        arbor_holdem_bot_decide(spare, ARBOR_HOLDEM_BOT_BYTES, &hand, &limits, &action, NULL),
        ARBOR_NOT_INITIALISED);
    CHECK_STATUS(arbor_holdem_bot_cancel(spare, ARBOR_HOLDEM_BOT_BYTES), ARBOR_NOT_INITIALISED);
    CHECK_STATUS(arbor_holdem_bot_decide(bot, ARBOR_HOLDEM_BOT_BYTES, NULL, &limits, &action, NULL),
                 ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_holdem_bot_decide(bot, ARBOR_HOLDEM_BOT_BYTES, &hand, NULL, &action, NULL),
                 ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_holdem_bot_decide(bot, ARBOR_HOLDEM_BOT_BYTES, &hand, &limits, NULL, NULL),
                 ARBOR_NULL_POINTER);
    foreign = limits;
    foreign.magic ^= 1;
    CHECK_STATUS(
        arbor_holdem_bot_decide(bot, ARBOR_HOLDEM_BOT_BYTES, &hand, &foreign, &action, NULL),
        ARBOR_NOT_INITIALISED);
    /* Nobody's cards are known: the position to act cannot decide. */
    CHECK_STATUS(arbor_holdem_hand_init(ARBOR_HOLDEM_ACPC_STACK, ARBOR_HOLDEM_ACPC_STACK,
                                        ARBOR_HOLDEM_ACPC_BIG_BLIND,
                                        ARBOR_HOLDEM_ACPC_SMALL_BLIND, &empty),
                 ARBOR_OK);
    CHECK_STATUS(
        arbor_holdem_bot_decide(bot, ARBOR_HOLDEM_BOT_BYTES, &empty, &limits, &action, NULL),
        ARBOR_INVALID_ARGUMENT);
    /* Betting closed before the flop is dealt: nobody is to act. */
    CHECK_STATUS(arbor_holdem_hand_apply(&hand, ARBOR_HOLDEM_CALL), ARBOR_OK);
    CHECK_STATUS(arbor_holdem_hand_apply(&hand, ARBOR_HOLDEM_CALL), ARBOR_OK);
    CHECK_STATUS(
        arbor_holdem_bot_decide(bot, ARBOR_HOLDEM_BOT_BYTES, &hand, &limits, &action, NULL),
        ARBOR_ILLEGAL_MOVE);
    CHECK(action == 0xDEAD);
    CHECK_STATUS(arbor_holdem_bot_hand_over(bot, ARBOR_HOLDEM_BOT_BYTES, &hand, 0),
                 ARBOR_ILLEGAL_MOVE);
    CHECK_STATUS(arbor_holdem_bot_hand_over(bot, ARBOR_HOLDEM_BOT_BYTES, &hand, 2),
                 ARBOR_INVALID_ARGUMENT);
    hand.magic ^= 1;
    CHECK_STATUS(
        arbor_holdem_bot_decide(bot, ARBOR_HOLDEM_BOT_BYTES, &hand, &limits, &action, NULL),
        ARBOR_NOT_INITIALISED);
    /* A damaged handle: its header's bytes changed. */
    ((unsigned char *)bot)[0] ^= 0xFF;
    CHECK_STATUS(arbor_holdem_bot_cancel(bot, ARBOR_HOLDEM_BOT_BYTES), ARBOR_NOT_INITIALISED);
    free(spare);
    free(bot);
}

int main(void) {
    test_whole_hands_and_the_same_seed_plays_the_same();
    test_cancel_answers_with_the_cheapest_action();
    test_a_deadline_and_a_cancel_cut_the_staged_search_short();
    test_the_handle_keeps_what_the_bot_learned();
    test_bad_inputs_are_refused();
    return check_report("holdem_bot");
}
