/* The monotonic clock of the C test programs, in microseconds, and the same clock in the
 * form arbor_search_limits.now_us takes (a no_std library has no clock of its own). The
 * including file defines _POSIX_C_SOURCE before its first system header. */
#ifndef ARBOR_FFI_CLOCK_H
#define ARBOR_FFI_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}

static inline uint64_t monotonic_clock(void *ctx) {
    (void)ctx;
    return now_us();
}

#endif
