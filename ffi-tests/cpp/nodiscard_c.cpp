// Must NOT compile with -Werror: a status from the C API is ignored ([[nodiscard]]).
#include "arbor.h"
int main() {
    const uint8_t cards[5] = {51, 47, 43, 39, 35};
    uint16_t rank = 0;
    arbor_hand_rank(cards, 5, &rank);
    return rank == 7462 ? 0 : 1;
}
