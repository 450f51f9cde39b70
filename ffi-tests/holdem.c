/* The hand evaluator and card text through the C ABI, as a game client would use them,
 * including every error path. */
#include <stdint.h>
#include <string.h>

#include "arbor.h"
#include "check.h"

static uint8_t card(const char *text) {
    uint8_t out = 255;
    CHECK_STATUS(arbor_card_parse(text, &out), ARBOR_OK);
    return out;
}

static void test_status_and_version(void) {
    CHECK(strcmp(arbor_status_str(ARBOR_OK), "ok") == 0);
    CHECK(strlen(arbor_status_str(ARBOR_DUPLICATE_CARD)) > 0);
    CHECK(strcmp(arbor_status_str(9999u), "unknown status") == 0);
    CHECK(strlen(arbor_version()) >= 5);
}

static void test_cards(void) {
    uint8_t out = 77;
    char text[3];
    CHECK(card("2c") == 0);
    CHECK(card("As") == 51);
    CHECK(card("Td") == 8 * 4 + 1);
    CHECK(card("kh") == 11 * 4 + 2);
    for (uint8_t c = 0; c < 52; c++) {
        uint8_t back = 255;
        CHECK_STATUS(arbor_card_format(c, text, sizeof text), ARBOR_OK);
        CHECK_STATUS(arbor_card_parse(text, &back), ARBOR_OK);
        CHECK(back == c);
    }
    CHECK_STATUS(arbor_card_parse("1s", &out), ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_card_parse("Asx", &out), ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_card_parse("", &out), ARBOR_PARSE_ERROR);
    CHECK_STATUS(arbor_card_parse("A", &out), ARBOR_PARSE_ERROR);
    CHECK(out == 77); /* unchanged by the failures */
    CHECK_STATUS(arbor_card_parse(NULL, &out), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_card_parse("As", NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_card_format(52, text, sizeof text), ARBOR_INVALID_CARD);
    CHECK_STATUS(arbor_card_format(0, text, 2), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_card_format(0, text, 0), ARBOR_BUFFER_TOO_SMALL);
    CHECK_STATUS(arbor_card_format(0, NULL, 3), ARBOR_NULL_POINTER);
}

static void test_hand_rank(void) {
    const char *royal_text[7] = {"As", "Ks", "Qs", "Js", "Ts", "2c", "3d"};
    const char *wheel_text[5] = {"Ac", "2d", "3h", "4s", "5c"};
    const char *worst_text[5] = {"7c", "5d", "4h", "3s", "2c"};
    uint8_t royal[7], wheel[5], worst[5];
    uint16_t rank = 0;
    for (int i = 0; i < 7; i++) royal[i] = card(royal_text[i]);
    for (int i = 0; i < 5; i++) wheel[i] = card(wheel_text[i]);
    for (int i = 0; i < 5; i++) worst[i] = card(worst_text[i]);

    CHECK_STATUS(arbor_hand_rank(royal, 7, &rank), ARBOR_OK);
    CHECK(rank == 7462);
    CHECK(arbor_hand_category(rank) == 8);
    CHECK_STATUS(arbor_hand_rank(royal, 6, &rank), ARBOR_OK);
    CHECK(rank == 7462);
    CHECK_STATUS(arbor_hand_rank(worst, 5, &rank), ARBOR_OK);
    CHECK(rank == 1);
    CHECK(arbor_hand_category(rank) == 0);
    CHECK_STATUS(arbor_hand_rank(wheel, 5, &rank), ARBOR_OK);
    CHECK(arbor_hand_category(rank) == 4);

    /* Error paths leave the output alone. */
    rank = 1234;
    CHECK_STATUS(arbor_hand_rank(NULL, 7, &rank), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_hand_rank(royal, 7, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_hand_rank(royal, 0, &rank), ARBOR_INVALID_LENGTH);
    CHECK_STATUS(arbor_hand_rank(royal, 4, &rank), ARBOR_INVALID_LENGTH);
    CHECK_STATUS(arbor_hand_rank(royal, 8, &rank), ARBOR_INVALID_LENGTH);
    {
        uint8_t bad[7] = {0, 1, 2, 3, 4, 5, 52};
        uint8_t dup[7] = {0, 1, 2, 3, 4, 5, 5};
        CHECK_STATUS(arbor_hand_rank(bad, 7, &rank), ARBOR_INVALID_CARD);
        CHECK_STATUS(arbor_hand_rank(dup, 7, &rank), ARBOR_DUPLICATE_CARD);
    }
    CHECK(rank == 1234);

    CHECK(arbor_hand_category(0) == 255);
    CHECK(arbor_hand_category(7463) == 255);
    CHECK(arbor_hand_category(1277) == 0);
    CHECK(arbor_hand_category(1278) == 1);
}

static void test_batch(void) {
    enum { COUNT = 3 };
    uint8_t hands[7 * COUNT];
    uint16_t ranks[COUNT] = {0, 0, 0};
    uint16_t single = 0;
    for (int h = 0; h < COUNT; h++)
        for (int i = 0; i < 7; i++) hands[7 * h + i] = (uint8_t)(h * 7 + i * 3 % 52);
    CHECK_STATUS(arbor_hand_rank7_batch(hands, COUNT, ranks), ARBOR_OK);
    for (int h = 0; h < COUNT; h++) {
        CHECK_STATUS(arbor_hand_rank(hands + 7 * h, 7, &single), ARBOR_OK);
        CHECK(ranks[h] == single);
    }
    CHECK_STATUS(arbor_hand_rank7_batch(NULL, 0, NULL), ARBOR_OK);
    CHECK_STATUS(arbor_hand_rank7_batch(NULL, 1, ranks), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_hand_rank7_batch(hands, 1, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_hand_rank7_batch(hands, SIZE_MAX, ranks), ARBOR_INVALID_LENGTH);
    ranks[0] = ranks[1] = ranks[2] = 42;
    hands[7 * 2 + 6] = hands[7 * 2]; /* the last hand now repeats a card */
    CHECK_STATUS(arbor_hand_rank7_batch(hands, COUNT, ranks), ARBOR_DUPLICATE_CARD);
    CHECK(ranks[0] == 42 && ranks[1] == 42 && ranks[2] == 42); /* nothing written */
    hands[7 * 2 + 6] = 200;
    CHECK_STATUS(arbor_hand_rank7_batch(hands, COUNT, ranks), ARBOR_INVALID_CARD);
}

int main(void) {
    test_status_and_version();
    test_cards();
    test_hand_rank();
    test_batch();
    return check_report("holdem");
}
