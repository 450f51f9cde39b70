/* A tiny assertion helper shared by the C test programs: counts checks, reports each
 * failure with its line, and gives the exit code. */
#ifndef ARBOR_FFI_CHECK_H
#define ARBOR_FFI_CHECK_H

#include <stdio.h>

static int checks_passed = 0;
static int checks_failed = 0;

#define CHECK(condition)                                                        \
    do {                                                                        \
        if (condition) {                                                        \
            checks_passed++;                                                    \
        } else {                                                                \
            checks_failed++;                                                    \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
        }                                                                       \
    } while (0)

#define CHECK_STATUS(call, expected) CHECK((call) == (expected))

static int check_report(const char *program) {
    printf("%s: %d passed, %d failed\n", program, checks_passed, checks_failed);
    return checks_failed == 0 ? 0 : 1;
}

#endif
