/* A C program using arbor through arbor.h, built by ffi-tests/cmake-consumer and by the
 * pkg-config compile of .ci/bindings.sh. */
#include <arbor.h>

#include <stdio.h>

int main(void) {
    const uint8_t cards[5] = {51, 47, 43, 39, 35}; /* As Ks Qs Js Ts */
    uint16_t rank = 0;
    char info[ARBOR_BUILD_INFO_MAX];
    size_t len = 0;
    if (arbor_abi_version() != ARBOR_ABI_VERSION) {
        fprintf(stderr, "wrong arbor ABI\n");
        return 1;
    }
    if (arbor_build_info(info, sizeof info, &len) != ARBOR_OK) {
        return 1;
    }
    if (arbor_hand_rank(cards, 5, &rank) != ARBOR_OK || rank != 7462) {
        fprintf(stderr, "wrong rank %u\n", (unsigned)rank);
        return 1;
    }
    printf("%s: royal flush rank %u: ok\n", info, (unsigned)rank);
    return 0;
}
