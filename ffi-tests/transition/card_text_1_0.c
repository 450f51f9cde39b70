/* Stand-in for the Hold'em area's ABI 1.0 card text functions, used by .ci/bindings.sh only
 * while main still has the pre-1.0 ones: it checks the code paths of arbor.hpp and Arbor.cs
 * that switch on when that area merges. Delete this directory after the merge. */
#include "arbor.h"
#include <string.h>
static const char RANKS[] = "23456789TJQKA", SUITS[] = "cdhs";
static int find(const char *set, uint8_t c) {
    const char *p;
    if (c >= 'A' && c <= 'Z') c = (uint8_t)(c - 'A' + 'a');
    for (p = set; *p; p++) {
        char s = *p;
        if (s >= 'A' && s <= 'Z') s = (char)(s - 'A' + 'a');
        if (s == (char)c) return (int)(p - set);
    }
    return -1;
}
static arbor_status fail(arbor_parse_error *e, uint32_t column, const char *msg) {
    if (e) {
        memset(e, 0, sizeof *e);
        e->line = 1; e->column = column; e->message_len = (uint32_t)strlen(msg);
        memcpy(e->message, msg, strlen(msg));
    }
    return ARBOR_PARSE_ERROR;
}
arbor_status arbor_card_parse(const uint8_t *text, size_t len, uint8_t *out_card, arbor_parse_error *out_error) ARBOR_NOEXCEPT {
    int r, s;
    if ((text == NULL && len > 0) || out_card == NULL) return ARBOR_NULL_POINTER;
    if (len < 1 || (r = find(RANKS, text[0])) < 0) return fail(out_error, 1, "a card starts with a rank, 2 to A");
    if (len < 2 || (s = find(SUITS, text[1])) < 0) return fail(out_error, 2, "a rank is followed by a suit, c d h or s");
    if (len > 2) return fail(out_error, 3, "a card is two characters");
    *out_card = (uint8_t)(r * 4 + s);
    return ARBOR_OK;
}
arbor_status arbor_card_format(uint8_t card, char *buf, size_t len, size_t *out_len) ARBOR_NOEXCEPT {
    if (buf == NULL && len > 0) return ARBOR_NULL_POINTER;
    if (card > 51) return ARBOR_INVALID_CARD;
    if (out_len) *out_len = 2;
    if (len < 3) return ARBOR_BUFFER_TOO_SMALL;
    buf[0] = RANKS[card / 4]; buf[1] = SUITS[card % 4]; buf[2] = 0;
    return ARBOR_OK;
}
