/* Measures the most stack a call uses: runs it on a thread whose stack is a buffer of ours,
 * painted with a pattern first, and counts how much of the pattern the call overwrote.
 * The thread's own start-up frames are counted too, so the figure is a little high: an
 * upper bound, which is what an embedded target sizing its stack needs. */
#ifndef ARBOR_STACK_H
#define ARBOR_STACK_H

/* posix_memalign and pthread_attr_setstack are POSIX, not C99. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L
#endif

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STACK_AREA (4u << 20) /* 4 MiB: far above any call's need */
#define STACK_PAINT 0xA5u

typedef void (*stack_call)(void *);

struct stack_job {
    stack_call call;
    void *arg;
};

static void *stack_run(void *job) {
    struct stack_job *j = (struct stack_job *)job;
    j->call(j->arg);
    return NULL;
}

/* Bytes of stack `call(arg)` used (thread start-up included), or 0 on failure. */
static size_t stack_used(stack_call call, void *arg) {
    void *area = NULL;
    if (posix_memalign(&area, 4096, STACK_AREA) != 0) return 0;
    memset(area, STACK_PAINT, STACK_AREA);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstack(&attr, area, STACK_AREA);
    struct stack_job job = {call, arg};
    pthread_t thread;
    size_t used = 0;
    if (pthread_create(&thread, &attr, stack_run, &job) == 0) {
        pthread_join(thread, NULL);
        /* The stack grows down: the lowest overwritten byte marks the deepest use. */
        const unsigned char *bytes = (const unsigned char *)area;
        size_t untouched = 0;
        while (untouched < STACK_AREA && bytes[untouched] == STACK_PAINT) untouched++;
        used = STACK_AREA - untouched;
    }
    pthread_attr_destroy(&attr);
    free(area);
    return used;
}

#endif
