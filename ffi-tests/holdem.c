/* The hand evaluator and card text through the C ABI, as a game client would use them,
 * including every error path. */
#include <stdint.h>
#include <string.h>

#include "arbor.h"
#include "check.h"

static arbor_status parse(const char *text, uint8_t *out, arbor_parse_error *error) {
    return arbor_card_parse((const uint8_t *)text, strlen(text), out, error);
}

static uint8_t card(const char *text) {
    uint8_t out = 255;
    CHECK_STATUS(parse(text, &out, NULL), ARBOR_OK);
    return out;
}

static void test_status_and_version(void) {
    char text[ARBOR_STATUS_TEXT_MAX];
    char info[ARBOR_BUILD_INFO_MAX];
    size_t len = 0;
    uint32_t code;
    CHECK_STATUS(arbor_status_format(ARBOR_OK, text, sizeof text, &len), ARBOR_OK);
    CHECK(strcmp(text, "ok") == 0 && len == 2);
    /* Every known code has its own text, unknown codes one shared text. */
    for (code = 1; code <= 15; code++) {
        char other[ARBOR_STATUS_TEXT_MAX];
        uint32_t next;
        CHECK_STATUS(arbor_status_format(code, text, sizeof text, &len), ARBOR_OK);
        CHECK(len > 0 && len == strlen(text) && len < ARBOR_STATUS_TEXT_MAX);
        CHECK(strcmp(text, "unknown status") != 0);
        for (next = code + 1; next <= 15; next++) {
            CHECK_STATUS(arbor_status_format(next, other, sizeof other, NULL), ARBOR_OK);
            CHECK(strcmp(text, other) != 0);
        }
    }
    CHECK_STATUS(arbor_status_format(16, text, sizeof text, NULL), ARBOR_OK);
    CHECK(strcmp(text, "unknown status") == 0);
    CHECK_STATUS(arbor_status_format(9999u, text, sizeof text, NULL), ARBOR_OK);
    CHECK(strcmp(text, "unknown status") == 0);
    /* Size query, too small a buffer (untouched, the needed length reported), NULL. */
    len = 0;
    CHECK_STATUS(arbor_status_format(ARBOR_DUPLICATE_CARD, NULL, 0, &len), ARBOR_BUFFER_TOO_SMALL);
    CHECK(len == strlen("the same card appears twice"));
    memset(text, 'z', sizeof text);
    CHECK_STATUS(arbor_status_format(ARBOR_DUPLICATE_CARD, text, len, &len), ARBOR_BUFFER_TOO_SMALL);
    CHECK(text[0] == 'z' && text[len - 1] == 'z' && len == strlen("the same card appears twice"));
    CHECK_STATUS(arbor_status_format(ARBOR_DUPLICATE_CARD, text, len + 1, NULL), ARBOR_OK);
    CHECK(strcmp(text, "the same card appears twice") == 0);
    CHECK_STATUS(arbor_status_format(ARBOR_OK, NULL, 5, &len), ARBOR_NULL_POINTER);

    CHECK(arbor_version() == ARBOR_VERSION_NUMBER);
    CHECK(arbor_version() == ARBOR_VERSION_MAJOR * 10000 + ARBOR_VERSION_MINOR * 100 + ARBOR_VERSION_PATCH);
    CHECK(arbor_version() == 10000);
    CHECK(arbor_abi_version() == ARBOR_ABI_VERSION);
    CHECK_STATUS(arbor_build_info(info, sizeof info, &len), ARBOR_OK);
    CHECK(strncmp(info, "arbor 1.0.0", 11) == 0 && len == strlen(info));
    CHECK_STATUS(arbor_build_info(NULL, 0, &len), ARBOR_BUFFER_TOO_SMALL);
    CHECK(len == strlen(info));
    memset(text, 'z', sizeof text);
    CHECK_STATUS(arbor_build_info(text, 5, NULL), ARBOR_BUFFER_TOO_SMALL);
    CHECK(text[0] == 'z');

    /* The structs' sizes in the library, by name. */
    {
        size_t bytes = 99;
        CHECK_STATUS(arbor_struct_bytes((const uint8_t *)"arbor_breakthrough", 18, &bytes), ARBOR_OK);
        CHECK(bytes == sizeof(arbor_breakthrough) && bytes == ARBOR_BREAKTHROUGH_BYTES);
        CHECK_STATUS(arbor_struct_bytes((const uint8_t *)"arbor_parse_error", 17, &bytes), ARBOR_OK);
        CHECK(bytes == sizeof(arbor_parse_error));
        bytes = 99;
        CHECK_STATUS(arbor_struct_bytes((const uint8_t *)"arbor_nothing", 13, &bytes), ARBOR_INVALID_ARGUMENT);
        CHECK_STATUS(arbor_struct_bytes((const uint8_t *)"arbor_breakthrough", 5, &bytes), ARBOR_INVALID_ARGUMENT);
        CHECK_STATUS(arbor_struct_bytes((const uint8_t *)"\xff", 1, &bytes), ARBOR_INVALID_UTF8);
        CHECK_STATUS(arbor_struct_bytes(NULL, 4, &bytes), ARBOR_NULL_POINTER);
        CHECK_STATUS(arbor_struct_bytes((const uint8_t *)"arbor_breakthrough", 18, NULL), ARBOR_NULL_POINTER);
        CHECK(bytes == 99);
    }
}

static void check_parse_error(const char *text, uint32_t column, const char *message) {
    uint8_t out = 77;
    arbor_parse_error error;
    memset(&error, 0xAB, sizeof error);
    CHECK_STATUS(parse(text, &out, &error), ARBOR_PARSE_ERROR);
    CHECK(out == 77);
    CHECK(error.line == 1 && error.column == column && error.reserved == 0);
    CHECK(error.message_len == strlen(message) && strcmp((const char *)error.message, message) == 0);
}

static void test_cards(void) {
    uint8_t out = 77;
    char text[ARBOR_CARD_TEXT_MAX];
    size_t len = 0;
    CHECK(card("2c") == 0);
    CHECK(card("As") == 51);
    CHECK(card("Td") == 8 * 4 + 1);
    CHECK(card("kh") == 11 * 4 + 2);
    for (uint8_t c = 0; c < 52; c++) {
        uint8_t back = 255;
        CHECK_STATUS(arbor_card_format(c, text, sizeof text, &len), ARBOR_OK);
        CHECK(len == 2);
        CHECK_STATUS(parse(text, &back, NULL), ARBOR_OK);
        CHECK(back == c);
    }
    check_parse_error("1s", 1, "expected a rank (one of 23456789TJQKA), then a suit, like As, Td, 2c");
    check_parse_error("", 1, "expected a rank (one of 23456789TJQKA), then a suit, like As, Td, 2c");
    check_parse_error("A", 2, "expected a suit (one of cdhs) after the rank");
    check_parse_error("Ax", 2, "expected a suit (one of cdhs) after the rank");
    check_parse_error("Asx", 3, "a card is two characters, like As, Td, 2c");
    CHECK_STATUS(arbor_card_parse(NULL, 0, &out, NULL), ARBOR_PARSE_ERROR); /* the empty text */
    CHECK_STATUS(arbor_card_parse(NULL, 2, &out, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(parse("As", NULL, NULL), ARBOR_NULL_POINTER);
    CHECK_STATUS(parse("\xff\xfe", &out, NULL), ARBOR_INVALID_UTF8);
    CHECK_STATUS(arbor_card_parse((const uint8_t *)"As", SIZE_MAX, &out, NULL), ARBOR_INVALID_LENGTH);
    CHECK(out == 77); /* unchanged by the failures */

    len = 99;
    CHECK_STATUS(arbor_card_format(52, text, sizeof text, &len), ARBOR_INVALID_CARD);
    CHECK(len == 99);
    memset(text, 'z', sizeof text);
    CHECK_STATUS(arbor_card_format(0, text, 2, &len), ARBOR_BUFFER_TOO_SMALL);
    CHECK(len == 2 && text[0] == 'z');
    CHECK_STATUS(arbor_card_format(0, NULL, 0, &len), ARBOR_BUFFER_TOO_SMALL);
    CHECK(len == 2);
    CHECK_STATUS(arbor_card_format(0, NULL, 3, &len), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_card_format(0, text, sizeof text, NULL), ARBOR_OK);
    CHECK(strcmp(text, "2c") == 0);
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
    CHECK_STATUS(arbor_hand_rank(NULL, 0, &rank), ARBOR_INVALID_LENGTH);
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
    CHECK_STATUS(arbor_hand_rank7_batch(hands, SIZE_MAX / 8, ranks), ARBOR_INVALID_LENGTH);
    {
        /* A misaligned rank array is refused. */
        uint16_t storage[4];
        uint16_t *odd = (uint16_t *)(void *)((char *)storage + 1);
        CHECK_STATUS(arbor_hand_rank7_batch(hands, 1, odd), ARBOR_MISALIGNED);
    }
    ranks[0] = ranks[1] = ranks[2] = 42;
    hands[7 * 2 + 6] = hands[7 * 2]; /* the last hand now repeats a card */
    CHECK_STATUS(arbor_hand_rank7_batch(hands, COUNT, ranks), ARBOR_DUPLICATE_CARD);
    CHECK(ranks[0] == 42 && ranks[1] == 42 && ranks[2] == 42); /* nothing written */
    hands[7 * 2 + 6] = 200;
    CHECK_STATUS(arbor_hand_rank7_batch(hands, COUNT, ranks), ARBOR_INVALID_CARD);
}

/* The combo index of two cards in a range (see ARBOR_EQUITY_COMBOS). */
static size_t combo(uint8_t a, uint8_t b) {
    uint8_t low = a < b ? a : b, high = a < b ? b : a;
    return (size_t)high * (high - 1) / 2 + low;
}

static float hero_range[ARBOR_EQUITY_COMBOS];
static float villain_range[ARBOR_EQUITY_COMBOS];

static void test_equity(void) {
    /* AhAd against KcKh on 2s 7d 9c Ks: the kings' set loses only to one of the two aces
     * left, out of 44 rivers. */
    uint8_t cards[8];
    uint8_t hero_board[6];
    uint64_t wins = 9, ties = 9, losses = 9;
    double win = -1, tie = -1, loss = -1;
    cards[0] = card("Ah"), cards[1] = card("Ad"), cards[2] = card("Kc"), cards[3] = card("Kh");
    cards[4] = card("2s"), cards[5] = card("7d"), cards[6] = card("9c"), cards[7] = card("Ks");
    CHECK_STATUS(arbor_equity_hand_vs_hand(cards, 8, &wins, &ties, &losses), ARBOR_OK);
    CHECK(wins == 2 && ties == 0 && losses == 42);
    /* Preflop: AdAc against KhKs, as GNU poker-eval publishes it. */
    {
        uint8_t preflop[4];
        preflop[0] = card("Ad"), preflop[1] = card("Ac"), preflop[2] = card("Kh"),
        preflop[3] = card("Ks");
        CHECK_STATUS(arbor_equity_hand_vs_hand(preflop, 4, &wins, &ties, &losses), ARBOR_OK);
        CHECK(wins == 1388072 && ties == 6538 && losses == 317694);
    }

    /* The same hand against a range: KcKh twice as likely as the rest, and AdAs, which the
     * hand blocks. */
    memcpy(hero_board, cards, 2);
    memcpy(hero_board + 2, cards + 4, 4);
    villain_range[combo(cards[2], cards[3])] = 2.0f;
    villain_range[combo(card("Ad"), card("As"))] = 1.0f;
    CHECK_STATUS(arbor_equity_hand_vs_range(hero_board, 6, villain_range, ARBOR_EQUITY_COMBOS,
                                            &win, &tie, &loss),
                 ARBOR_OK);
    CHECK(win == 4.0 && tie == 0.0 && loss == 84.0);

    /* Range against range: the same two hands as one-combo ranges. */
    hero_range[combo(cards[0], cards[1])] = 1.0f;
    villain_range[combo(cards[2], cards[3])] = 1.0f;
    CHECK_STATUS(arbor_equity_range_vs_range(hero_range, ARBOR_EQUITY_COMBOS, villain_range,
                                             ARBOR_EQUITY_COMBOS, cards + 4, 4, &win, &tie,
                                             &loss),
                 ARBOR_OK);
    CHECK(win == 2.0 && tie == 0.0 && loss == 42.0);

    /* Errors write nothing. */
    win = tie = loss = -1;
    wins = ties = losses = 9;
    CHECK_STATUS(arbor_equity_hand_vs_hand(cards, 6, &wins, &ties, &losses),
                 ARBOR_INVALID_LENGTH);
    CHECK_STATUS(arbor_equity_hand_vs_hand(NULL, 8, &wins, &ties, &losses), ARBOR_NULL_POINTER);
    CHECK_STATUS(arbor_equity_hand_vs_hand(cards, 8, &wins, NULL, &losses), ARBOR_NULL_POINTER);
    cards[7] = cards[0];
    CHECK_STATUS(arbor_equity_hand_vs_hand(cards, 8, &wins, &ties, &losses),
                 ARBOR_DUPLICATE_CARD);
    cards[7] = 52;
    CHECK_STATUS(arbor_equity_hand_vs_hand(cards, 8, &wins, &ties, &losses), ARBOR_INVALID_CARD);
    CHECK(wins == 9 && ties == 9 && losses == 9);
    CHECK_STATUS(arbor_equity_hand_vs_range(hero_board, 6, villain_range,
                                            ARBOR_EQUITY_COMBOS - 1, &win, &tie, &loss),
                 ARBOR_INVALID_LENGTH);
    CHECK_STATUS(arbor_equity_hand_vs_range(hero_board, 2, villain_range, ARBOR_EQUITY_COMBOS,
                                            &win, &tie, &loss),
                 ARBOR_INVALID_LENGTH);
    villain_range[5] = -1.0f;
    CHECK_STATUS(arbor_equity_range_vs_range(hero_range, ARBOR_EQUITY_COMBOS, villain_range,
                                             ARBOR_EQUITY_COMBOS, cards + 4, 3, &win, &tie,
                                             &loss),
                 ARBOR_INVALID_ARGUMENT);
    CHECK_STATUS(arbor_equity_range_vs_range(hero_range, ARBOR_EQUITY_COMBOS, villain_range,
                                             ARBOR_EQUITY_COMBOS, cards + 4, 0, &win, &tie,
                                             &loss),
                 ARBOR_INVALID_LENGTH);
    CHECK(win == -1 && tie == -1 && loss == -1);
}

int main(void) {
    test_status_and_version();
    test_cards();
    test_hand_rank();
    test_batch();
    test_equity();
    return check_report("holdem");
}
