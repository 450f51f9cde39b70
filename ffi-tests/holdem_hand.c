/* Hold'em hands through the C ABI as a poker client would use them: the ACPC deal, a hand
 * played to a showdown and to a fold, raise bounds, MATCHSTATE text in and out, and the error
 * paths (illegal actions, damaged structs, short buffers). */
#include <stdint.h>
#include <string.h>

#include "arbor.h"
#include "check.h"

static arbor_holdem_hand acpc_hand(void) {
    arbor_holdem_hand hand;
    CHECK_STATUS(arbor_holdem_hand_init(ARBOR_HOLDEM_ACPC_STACK, ARBOR_HOLDEM_ACPC_STACK,
                                        ARBOR_HOLDEM_ACPC_BIG_BLIND,
                                        ARBOR_HOLDEM_ACPC_SMALL_BLIND, &hand),
                 ARBOR_OK);
    return hand;
}

static arbor_holdem_info info_of(const arbor_holdem_hand *hand) {
    arbor_holdem_info info;
    memset(&info, 0xAB, sizeof info);
    CHECK_STATUS(arbor_holdem_hand_info(hand, &info), ARBOR_OK);
    return info;
}

static void test_the_deal_is_the_acpc_dealers(void) {
    /* Seed 42, hand 0: 7d 3d | 2h Ac | 5s Ks 7s 9s 6h (card byte = rank * 4 + suit). */
    static const uint8_t expected[9] = {5 * 4 + 1, 1 * 4 + 1, 0 * 4 + 2, 12 * 4 + 0, 3 * 4 + 3,
                                        11 * 4 + 3, 5 * 4 + 3, 7 * 4 + 3, 4 * 4 + 2};
    /* Seed 7, hand 999: 5c Jd | Kd Ah | 8s Qs 2c 6d 9d. */
    static const uint8_t hand_999[9] = {3 * 4 + 0, 9 * 4 + 1, 11 * 4 + 1, 12 * 4 + 2, 6 * 4 + 3,
                                        10 * 4 + 3, 0 * 4 + 0, 4 * 4 + 1, 7 * 4 + 1};
    arbor_holdem_dealer dealer, saved;
    uint8_t cards[ARBOR_HOLDEM_DEAL_CARDS + 1];
    uint8_t untouched[ARBOR_HOLDEM_DEAL_CARDS + 1];
    int hand;
    CHECK_STATUS(arbor_holdem_dealer_init(42, &dealer), ARBOR_OK);
    memset(cards, 0xEE, sizeof cards);
    CHECK_STATUS(arbor_holdem_dealer_next(&dealer, cards, sizeof cards), ARBOR_OK);
    CHECK(memcmp(cards, expected, 9) == 0 && cards[9] == 0xEE);
    CHECK(dealer.hands_dealt == 1);
    memcpy(untouched, cards, sizeof cards);
    saved = dealer;
    CHECK_STATUS(arbor_holdem_dealer_next(&dealer, cards, 8), ARBOR_INVALID_LENGTH);
    CHECK(memcmp(cards, untouched, sizeof cards) == 0);
    CHECK(memcmp(&dealer, &saved, sizeof dealer) == 0);
    CHECK_STATUS(arbor_holdem_dealer_next(&dealer, NULL, 9), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_holdem_dealer_next(NULL, cards, 9), ARBOR_NULL_POINTER);
    dealer.magic ^= 1;
    CHECK_STATUS(arbor_holdem_dealer_next(&dealer, cards, 9), ARBOR_NOT_INITIALISED);
    /* A saved dealer resumes a match where it stopped. */
    CHECK_STATUS(arbor_holdem_dealer_init(7, &dealer), ARBOR_OK);
    for (hand = 0; hand < 999; hand++) {
        CHECK_STATUS(arbor_holdem_dealer_next(&dealer, cards, sizeof cards), ARBOR_OK);
    }
    saved = dealer;
    CHECK_STATUS(arbor_holdem_dealer_next(&saved, cards, 9), ARBOR_OK);
    CHECK(memcmp(cards, hand_999, 9) == 0 && saved.hands_dealt == 1000);
    CHECK(sizeof(arbor_holdem_dealer) == ARBOR_HOLDEM_DEALER_BYTES);
}

static void test_a_hand_to_showdown(void) {
    arbor_holdem_hand hand = acpc_hand();
    arbor_holdem_info info = info_of(&hand);
    arbor_holdem_dealer dealer;
    uint8_t cards[ARBOR_HOLDEM_DEAL_CARDS];
    int32_t payoffs[2] = {0, 0};
    char text[ARBOR_HOLDEM_MATCHSTATE_TEXT_MAX];
    size_t len = 0;
    int card;

    CHECK(info.to_act == 1 && info.pot == 150 && info.can_fold == 1);
    CHECK(info.min_raise_to == 200 && info.max_raise_to == 20000);
    CHECK(info.folded == ARBOR_HOLDEM_NONE && info.over == 0);
    CHECK_STATUS(arbor_holdem_dealer_init(42, &dealer), ARBOR_OK);
    CHECK_STATUS(arbor_holdem_dealer_next(&dealer, cards, sizeof cards), ARBOR_OK);
    CHECK_STATUS(arbor_holdem_hand_deal_hole(&hand, 0, cards, 2), ARBOR_OK);
    CHECK_STATUS(arbor_holdem_hand_deal_hole(&hand, 1, cards + 2, 2), ARBOR_OK);
    CHECK_STATUS(arbor_holdem_hand_deal_hole(&hand, 1, cards + 2, 2), ARBOR_INVALID_ARGUMENT);

    /* The small blind shoves, the big blind calls: betting is over, the board runs out. */
    CHECK_STATUS(arbor_holdem_hand_apply(&hand, 20000), ARBOR_OK);
    info = info_of(&hand);
    CHECK(info.to_act == 0 && info.can_raise == 0 && info.can_fold == 1);
    CHECK_STATUS(arbor_holdem_hand_apply(&hand, 30000), ARBOR_ILLEGAL_MOVE);
    CHECK_STATUS(arbor_holdem_hand_apply(&hand, ARBOR_HOLDEM_CALL), ARBOR_OK);
    info = info_of(&hand);
    CHECK(info.betting_over == 1 && info.over == 0 && info.board_cards_due == 5);
    CHECK(info.to_act == ARBOR_HOLDEM_NONE && info.pot == 40000);
    CHECK_STATUS(arbor_holdem_hand_payoffs(&hand, payoffs, 2), ARBOR_ILLEGAL_MOVE);
    CHECK_STATUS(arbor_holdem_hand_deal_board(&hand, cards[0]), ARBOR_DUPLICATE_CARD);
    for (card = 4; card < 9; card++) {
        CHECK_STATUS(arbor_holdem_hand_deal_board(&hand, cards[card]), ARBOR_OK);
    }
    info = info_of(&hand);
    CHECK(info.over == 1 && info.street == 3 && hand.board_len == 5);
    /* 7d3d against 2hAc on 5s Ks 7s 9s 6h: a pair of sevens beats ace high. */
    CHECK_STATUS(arbor_holdem_hand_payoffs(&hand, payoffs, 2), ARBOR_OK);
    CHECK(payoffs[0] == 20000 && payoffs[1] == -20000);
    /* At a showdown both players see both hands. */
    CHECK_STATUS(arbor_holdem_matchstate_format(&hand, 1, text, sizeof text, &len), ARBOR_OK);
    CHECK(strcmp(text, "MATCHSTATE:1:0:r20000c///:7d3d|2hAc/5sKs7s/9s/6h") == 0);
    CHECK(len == strlen(text));
    CHECK_STATUS(arbor_holdem_hand_apply(&hand, ARBOR_HOLDEM_CALL), ARBOR_GAME_OVER);
}

static void test_matchstate_text(void) {
    arbor_holdem_hand rules = acpc_hand();
    arbor_holdem_hand hand, before;
    arbor_holdem_info info;
    arbor_parse_error error;
    char text[ARBOR_HOLDEM_MATCHSTATE_TEXT_MAX];
    char action[ARBOR_HOLDEM_ACTION_TEXT_MAX];
    size_t len = 0;
    const char *line = "MATCHSTATE:0:31:r300c/cr600:Jd4c|/8s2hQd";
    const char *bad = "MATCHSTATE:0:31:r150c:Jd4c|";

    CHECK_STATUS(arbor_holdem_matchstate_parse((const uint8_t *)line, strlen(line), &rules,
                                               &hand, &error),
                 ARBOR_OK);
    CHECK(hand.position == 0 && hand.hand_number == 31 && hand.action_count == 4);
    CHECK(hand.hole[2] == ARBOR_HOLDEM_NO_CARD && hand.board_len == 3);
    info = info_of(&hand);
    CHECK(info.to_act == 0 && info.street == 1 && info.current_bet == 600);
    CHECK(info.min_raise_to == 900 && info.max_raise_to == 20000 && info.can_fold == 1);
    CHECK_STATUS(arbor_holdem_matchstate_format(&hand, 0, text, sizeof text, &len), ARBOR_OK);
    CHECK(strcmp(text, line) == 0);
    /* The text of a reply: the state, ':', the action. */
    CHECK_STATUS(arbor_holdem_action_format(900, action, sizeof action, &len), ARBOR_OK);
    CHECK(strcmp(action, "r900") == 0 && len == 4);
    CHECK_STATUS(arbor_holdem_action_format(900, action, 4, &len), ARBOR_BUFFER_TOO_SMALL);
    CHECK(len == 4);
    /* A hand seen from position 0 cannot be shown to position 1. */
    CHECK_STATUS(arbor_holdem_matchstate_format(&hand, 1, text, sizeof text, &len),
                 ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_holdem_matchstate_format(&hand, 0, text, strlen(line), &len),
                 ARBOR_BUFFER_TOO_SMALL);
    CHECK(len == strlen(line));

    before = hand;
    memset(&error, 0, sizeof error);
    CHECK_STATUS(arbor_holdem_matchstate_parse((const uint8_t *)bad, strlen(bad), &rules, &hand,
                                               &error),
                 ARBOR_PARSE_ERROR);
    CHECK(memcmp(&hand, &before, sizeof hand) == 0);
    CHECK(error.line == 1 && error.column == 17 && error.message_len > 0);
    CHECK(strlen((const char *)error.message) == error.message_len);
    CHECK(strcmp((const char *)error.message, "raise to 150 is below the minimum 200") == 0);
    CHECK_STATUS(arbor_holdem_matchstate_parse((const uint8_t *)line, strlen(line), NULL, &hand,
                                               NULL),
                 ARBOR_NULL_POINTER);
}

static arbor_status act(const char *spec, const arbor_holdem_hand *hand, uint32_t *action,
                        arbor_parse_error *error) {
    return arbor_holdem_bot_act((const uint8_t *)spec, strlen(spec), hand, action, error);
}

static void test_bots(void) {
    arbor_holdem_hand rules = acpc_hand();
    arbor_holdem_hand hand;
    arbor_parse_error error;
    uint32_t action = 0, again = 0;
    const char *line = "MATCHSTATE:0:5:r300:7c2d|";
    CHECK_STATUS(arbor_holdem_matchstate_parse((const uint8_t *)line, strlen(line), &rules,
                                               &hand, NULL),
                 ARBOR_OK);
    CHECK_STATUS(act("call", &hand, &action, NULL), ARBOR_OK);
    CHECK(action == ARBOR_HOLDEM_CALL);
    CHECK_STATUS(act("min-raise", &hand, &action, NULL), ARBOR_OK);
    CHECK(action == 500);
    /* 7-2 offsuit facing a raise to 300: about a third of the pot against a random hand, so
     * the equity bot folds or calls (it needs 200 / 600 to call), never raises. */
    CHECK_STATUS(act("equity:samples=3000", &hand, &action, NULL), ARBOR_OK);
    CHECK(action == ARBOR_HOLDEM_FOLD || action == ARBOR_HOLDEM_CALL);
    CHECK_STATUS(act("random:seed=4", &hand, &action, NULL), ARBOR_OK);
    CHECK_STATUS(act("random:seed=4", &hand, &again, NULL), ARBOR_OK);
    CHECK(action == again);
    CHECK(action == ARBOR_HOLDEM_FOLD || action == ARBOR_HOLDEM_CALL ||
          (action >= 500 && action <= 20000));
    memset(&error, 0, sizeof error);
    action = 77;
    CHECK_STATUS(act("equity:samples=x", &hand, &action, &error), ARBOR_PARSE_ERROR);
    CHECK(action == 77 && error.message_len > 0);
    CHECK_STATUS(act("call", NULL, &action, NULL), ARBOR_NULL_POINTER);
}

static void test_damaged_and_illegal(void) {
    arbor_holdem_hand hand = acpc_hand();
    arbor_holdem_hand damaged;
    arbor_holdem_info info;
    int32_t payoffs[2] = {7, 7};
    const uint8_t pair[2] = {3, 3};

    CHECK_STATUS(arbor_holdem_hand_init(20000, 20000, 0, 0, &damaged), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_holdem_hand_init(100, 20000, 100, 50, &damaged), ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_holdem_hand_init(20000, 20000, 100, 150, &damaged),
                 ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_holdem_hand_apply(&hand, ARBOR_HOLDEM_FOLD), ARBOR_OK);
    /* The small blind folded: the big blind wins its 50. */
    CHECK_STATUS(arbor_holdem_hand_payoffs(&hand, payoffs, 1), ARBOR_INVALID_LENGTH);
    CHECK(payoffs[0] == 7 && payoffs[1] == 7);
    CHECK_STATUS(arbor_holdem_hand_payoffs(&hand, payoffs, 2), ARBOR_OK);
    CHECK(payoffs[0] == 50 && payoffs[1] == -50);

    hand = acpc_hand();
    CHECK_STATUS(arbor_holdem_hand_apply(&hand, ARBOR_HOLDEM_CALL), ARBOR_OK);
    /* The big blind checks its option: not facing a bet, a fold is illegal. */
    CHECK_STATUS(arbor_holdem_hand_apply(&hand, ARBOR_HOLDEM_FOLD), ARBOR_ILLEGAL_MOVE);
    CHECK_STATUS(arbor_holdem_hand_deal_hole(&hand, 0, pair, 2), ARBOR_DUPLICATE_CARD);
    CHECK_STATUS(arbor_holdem_hand_deal_hole(&hand, 0, pair, 3), ARBOR_INVALID_LENGTH);

    damaged = hand;
    damaged.magic ^= 1;
    CHECK_STATUS(arbor_holdem_hand_info(&damaged, &info), ARBOR_NOT_INITIALISED);
    damaged = hand;
    damaged.version += 1;
    CHECK_STATUS(arbor_holdem_hand_info(&damaged, &info), ARBOR_WRONG_VERSION);
    damaged = hand;
    damaged.actions[0] = 7; /* a raise to 7 chips, below the big blind */
    CHECK_STATUS(arbor_holdem_hand_info(&damaged, &info), ARBOR_INVALID_ARGUMENT);
    damaged = hand;
    damaged.action_count = ARBOR_HOLDEM_MAX_ACTIONS + 1;
    CHECK_STATUS(arbor_holdem_hand_apply(&damaged, ARBOR_HOLDEM_CALL), ARBOR_INVALID_ARGUMENT);
    CHECK(damaged.action_count == ARBOR_HOLDEM_MAX_ACTIONS + 1);
    CHECK_STATUS(arbor_holdem_hand_info(NULL, &info), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_holdem_hand_info(&hand, NULL), ARBOR_NULL_POINTER);
    CHECK(sizeof(arbor_holdem_hand) == ARBOR_HOLDEM_HAND_BYTES);
    CHECK(sizeof(arbor_holdem_info) == ARBOR_HOLDEM_INFO_BYTES);
}

int main(void) {
    test_the_deal_is_the_acpc_dealers();
    test_a_hand_to_showdown();
    test_matchstate_text();
    test_bots();
    test_damaged_and_illegal();
    return check_report("holdem_hand");
}
