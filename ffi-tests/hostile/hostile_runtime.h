/* The runtime of the hostile-input test and of the fuzz targets: generate.py pastes the tables
 * it derives from include/arbor.h where the TABLES marker is, and writes the result as one C
 * file. Nothing here names a function of the ABI: every call goes through a table row.
 *
 * Environment of the test program:
 *   ARBOR_HOSTILE_SECONDS  time budget of the random rounds over all functions (default 10)
 *   ARBOR_HOSTILE_SEED     seed of the random rounds (default 15); printed with each failure
 *   ARBOR_HOSTILE_ONLY     run one function only (to reproduce a failure)
 *   ARBOR_HOSTILE_VERBOSE  print every failure, not only the first of each kind
 *   ARBOR_HOSTILE_WORK_SECONDS  time limit of a call with a huge work parameter (default 1)
 */
#define _POSIX_C_SOURCE 200809L
#include "arbor.h"

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
    K_SCALAR, K_LENGTH, K_STRUCT_IN, K_STRUCT_OUT, K_STRUCT_INOUT, K_SCALAR_OUT, K_BUF_IN,
    K_BUF_OUT, K_HANDLE, K_HANDLE_PREP, K_SCRATCH, K_CSTRING
};

#define MAXP 16
#define OUT_BYTES 4096u     /* an output buffer of the valid call */
#define HANDLE_BYTES 65536u /* a caller buffer (tree, table) of the valid call */
#define STATUS_COUNT 16u

typedef struct {
    const char *bytes;
    size_t size; /* bytes */
    size_t len;  /* the length parameter's value */
} valid_text;

typedef struct {
    size_t off, size;
    int mode; /* 0: keep the valid value (pointers); 1: lo + value % mod (work fields) */
    uint64_t lo, mod;
} field_fix;

typedef struct {
    const char *name;
    size_t size;
    int has_magic;
    size_t magic_off, version_off;
    int ctor_fn, ctor_param;
    field_fix fix[4];
    field_fix reserved[4]; /* fields arbor writes as zero */
} struct_info;

typedef struct {
    const char *name;
    int kind, is_ptr, optional, is_const;
    size_t elem, unit;
    int len_index, type_id, exempt, bits;
    int has_range;
    uint64_t lo, hi;
    uint32_t range_status;
    int has_cap;
    uint64_t cap, value;
    int scan;
    uint64_t scan_hi;
    const valid_text *inputs;
    void (*field)(const unsigned char *, const unsigned char **, size_t *);
    int init_fn, text_out, parse_error;
} param_info;

typedef struct {
    const char *name;
    int nparams, returns_status, is_parse;
    uint32_t (*thunk)(void **, const uint64_t *);
    uint32_t doc_mask;
    param_info p[MAXP];
} func_info;

typedef struct {
    const char *name;
    int fn;
    const char *param;
    uint64_t value;
    const char *text;
    size_t text_len;
    uint32_t expect;
} regression;

typedef struct {
    const char *fn, *check;
    int rare;
    unsigned long hits;
} known_deviation;

static uint64_t last_value;

/* Whether parameter i of f is a pointer followed by its own length. */
#define OWN_LEN(f, i) ((f)->p[i].is_ptr && (f)->p[i].len_index == (i) + 1)

/*@TABLES@*/

/* ---------------------------------------------------------------------------------------- */

static unsigned long long calls, checks, failures, known_hits;
static const char *current_fn = "-", *current_case = "-";
static unsigned long long current_round;
static uint64_t seed0 = 15, rng;
static int verbose;
static unsigned work_seconds = 1;

static uint64_t rnd(void) {
    uint64_t z = (rng += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static void fill_random(unsigned char *p, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) p[i] = (unsigned char)rnd();
}

static uint64_t hash_name(const char *s) {
    uint64_t h = UINT64_C(1469598103934665603);
    while (*s) h = (h ^ (unsigned char)*s++) * UINT64_C(1099511628211);
    return h;
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static const char *status_name(uint32_t s) {
    return s < STATUS_COUNT ? status_names[s] : "UNKNOWN";
}

/* Printed failures, one line per (function, check) unless verbose. */
#define MAX_SEEN 512
static char seen[MAX_SEEN][96];
static int n_seen;

static void fail(const char *check, const char *fmt, ...) {
    char key[96], detail[512];
    va_list ap;
    int i;
    known_deviation *k;
    for (k = known; k->fn; k++) {
        if (strcmp(k->fn, current_fn) == 0 && strcmp(k->check, check) == 0) {
            k->hits++;
            known_hits++;
            return;
        }
    }
    failures++;
    snprintf(key, sizeof key, "%s %s", current_fn, check);
    for (i = 0; i < n_seen; i++)
        if (strcmp(seen[i], key) == 0) break;
    if (i < n_seen && !verbose) return;
    if (i == n_seen && n_seen < MAX_SEEN) strcpy(seen[n_seen++], key);
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    printf("FAIL %s %s [case %s, round %llu, seed %llu]: %s\n", current_fn, check, current_case,
           current_round, (unsigned long long)seed0, detail);
    fflush(stdout);
}

static void check_status(const char *check, uint32_t got, uint32_t want) {
    checks++;
    if (got != want)
        fail(check, "got %s (%u), expected %s (%u)", status_name(got), got, status_name(want), want);
}

/* ---------------------------------------------------------------------------------------- */
/* Arguments: the content of every pointer's block (allocated exactly at each call) and the
 * value of every scalar. */

typedef struct {
    unsigned char *data;
    size_t size;
    int null;
    size_t off;
    int alias;
} pval;

typedef struct {
    pval p[MAXP];
    uint64_t v[MAXP];
} args;

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        printf("out of memory\n");
        exit(2);
    }
    return p;
}

static void set_data(pval *pv, const void *bytes, size_t size) {
    unsigned char *d = xmalloc(size);
    if (size && bytes) memcpy(d, bytes, size);
    free(pv->data);
    pv->data = d;
    pv->size = size;
}

static void resize_data(pval *pv, size_t size, int random_tail) {
    unsigned char *d = xmalloc(size);
    size_t keep = pv->size < size ? pv->size : size;
    if (keep) memcpy(d, pv->data, keep);
    if (size > keep) {
        if (random_tail) fill_random(d + keep, size - keep);
        else memset(d + keep, 0xA5, size - keep);
    }
    free(pv->data);
    pv->data = d;
    pv->size = size;
}

static void args_init(args *a) {
    int i;
    memset(a, 0, sizeof *a);
    for (i = 0; i < MAXP; i++) a->p[i].alias = -1;
}

static void args_free(args *a) {
    int i;
    for (i = 0; i < MAXP; i++) free(a->p[i].data);
    args_init(a);
}

static void args_copy(args *dst, const args *src) {
    int i;
    *dst = *src;
    for (i = 0; i < MAXP; i++) {
        dst->p[i].data = NULL;
        if (src->p[i].data) {
            dst->p[i].data = xmalloc(src->p[i].size);
            if (src->p[i].size) memcpy(dst->p[i].data, src->p[i].data, src->p[i].size);
        }
    }
}

/* Calls function `fi` with blocks of exactly the sizes given (so that ASan sees any access
 * past them), and copies the blocks back into `post` afterwards. */
static uint32_t invoke(int fi, const args *a, args *post) {
    const func_info *f = &funcs[fi];
    void *ptrs[MAXP];
    unsigned char *blk[MAXP];
    uint32_t st;
    int i;
    memset(ptrs, 0, sizeof ptrs);
    memset(blk, 0, sizeof blk);
    for (i = 0; i < f->nparams; i++) {
        const pval *pv = &a->p[i];
        if (!f->p[i].is_ptr || pv->null || pv->alias >= 0) continue;
        blk[i] = xmalloc(pv->off + pv->size);
        memset(blk[i], 0xEE, pv->off);
        if (pv->size) memcpy(blk[i] + pv->off, pv->data, pv->size);
        ptrs[i] = blk[i] + pv->off;
    }
    for (i = 0; i < f->nparams; i++)
        if (f->p[i].is_ptr && !a->p[i].null && a->p[i].alias >= 0) ptrs[i] = ptrs[a->p[i].alias];
    calls++;
    st = f->thunk(ptrs, a->v);
    if (post) {
        args_copy(post, a);
        for (i = 0; i < f->nparams; i++)
            if (blk[i] && a->p[i].size) memcpy(post->p[i].data, ptrs[i], a->p[i].size);
    }
    for (i = 0; i < f->nparams; i++) free(blk[i]);
    return st;
}

static int is_output(int kind) {
    return kind == K_STRUCT_OUT || kind == K_SCALAR_OUT || kind == K_BUF_OUT ||
           kind == K_STRUCT_INOUT || kind == K_HANDLE || kind == K_HANDLE_PREP ||
           kind == K_SCRATCH;
}

/* A call with the checks every call gets. */
static uint32_t run(int fi, const args *a, args *post_out) {
    const func_info *f = &funcs[fi];
    args post;
    uint32_t st = invoke(fi, a, &post);
    int i, aliased = 0;
    char check[96];
    for (i = 0; i < f->nparams; i++)
        if (a->p[i].alias >= 0) aliased = 1;
    if (f->returns_status) {
        checks++;
        if (st >= STATUS_COUNT) fail("unknown-status", "returned %u, not an arbor_status", st);
    }
    for (i = 0; i < f->nparams && !aliased; i++) {
        const param_info *pi = &f->p[i];
        const pval *pv = &a->p[i];
        int changed;
        if (!pi->is_ptr || pv->null || !pv->size) continue;
        changed = memcmp(pv->data, post.p[i].data, pv->size) != 0;
        if ((pi->is_const || pi->kind == K_CSTRING) && changed) {
            snprintf(check, sizeof check, "const-changed:%s", pi->name);
            fail(check, "the const input `%s` was written", pi->name);
        }
        if (f->returns_status && st != 0 && is_output(pi->kind) && !pi->exempt) {
            checks++;
            if (changed) {
                snprintf(check, sizeof check, "written-on-error:%s", pi->name);
                fail(check, "`%s` changed although the call returned %s", pi->name,
                     status_name(st));
            }
        }
#ifdef HAVE_PARSE_ERROR
        if (st == 6 /* ARBOR_PARSE_ERROR */ && pi->parse_error && pv->size >= ARBOR_PARSE_ERROR_BYTES
            && changed) {
            const arbor_parse_error *e = (const arbor_parse_error *)(const void *)post.p[i].data;
            arbor_parse_error copy;
            memcpy(&copy, e, sizeof copy);
            checks++;
            /* line 0 is allowed: level and persona files use it for "no single line". */
            if (copy.message_len >= ARBOR_PARSE_MESSAGE_MAX ||
                copy.message[copy.message_len] != 0 ||
                strlen((const char *)copy.message) != copy.message_len || copy.reserved != 0 ||
                copy.message_len == 0)
                fail("parse-error-malformed", "line %u column %u message_len %u reserved %u",
                     copy.line, copy.column, copy.message_len, copy.reserved);
        }
#endif
        /* A struct arbor filled (an output it wrote, or an in/out struct whose reserved
         * fields were zero when passed): reserved fields zero, the current version. */
        if (f->returns_status && st == 0 && pi->type_id >= 0 && changed &&
            (pi->kind == K_STRUCT_OUT || pi->kind == K_STRUCT_INOUT)) {
            const struct_info *si = &structs[pi->type_id];
            int r;
            size_t b;
            for (r = 0; r < 4 && si->reserved[r].size; r++) {
                if (pi->kind == K_STRUCT_INOUT) {
                    for (b = 0; b < si->reserved[r].size; b++)
                        if (pv->data[si->reserved[r].off + b]) break;
                    if (b < si->reserved[r].size) continue;
                }
                checks++;
                for (b = 0; b < si->reserved[r].size; b++)
                    if (post.p[i].data[si->reserved[r].off + b]) break;
                if (b < si->reserved[r].size) {
                    snprintf(check, sizeof check, "reserved-not-zero:%s", pi->name);
                    fail(check, "a reserved field of %s at offset %zu is not zero", si->name,
                         si->reserved[r].off);
                }
            }
            if (si->has_magic) {
                uint32_t version;
                memcpy(&version, post.p[i].data + si->version_off, 4);
                checks++;
                if (version != ARBOR_ABI_VERSION) {
                    snprintf(check, sizeof check, "out-version:%s", pi->name);
                    fail(check, "%s filled with version %u", si->name, version);
                }
            }
        }
        if (f->returns_status && st == 0 && pi->text_out) {
            checks++;
            if (!memchr(post.p[i].data, 0, pv->size)) {
                snprintf(check, sizeof check, "text-not-terminated:%s", pi->name);
                fail(check, "OK without a NUL in the %zu bytes of `%s`", pv->size, pi->name);
            }
        }
    }
    if (post_out) *post_out = post;
    else args_free(&post);
    return st;
}

/* ---------------------------------------------------------------------------------------- */
/* Valid arguments. */

static unsigned char *struct_images[N_STRUCTS + 1];
static unsigned char *handle_images[N_FUNCS];
static size_t handle_sizes[N_FUNCS]; /* by init function: HANDLE_BYTES, more if it refuses */
#define HANDLE_SIZE(init) (handle_sizes[init] ? handle_sizes[init] : HANDLE_BYTES)
static int scan_done[N_FUNCS][MAXP];
static uint64_t scan_value[N_FUNCS][MAXP];
static int building[N_FUNCS];

static int n_inputs(const param_info *pi) {
    int n = 0;
    if (!pi->inputs) return 1;
    while (pi->inputs[n].bytes) n++;
    return n;
}

static void make_valid(int fi, args *a, int variant);
static const unsigned char *valid_struct(int t);

/* After random bytes went into a struct of type t: pointer fields back to their valid value,
 * work fields (iterations, deadlines) back to a small amount. */
static void fix_struct(int t, unsigned char *img, size_t size) {
    int k;
    if (t < 0) return;
    for (k = 0; k < 4; k++) {
        const field_fix *fx = &structs[t].fix[k];
        uint64_t v = 0;
        if (!fx->size || fx->off + fx->size > size) continue;
        if (fx->mode == 0) {
            memcpy(img + fx->off, valid_struct(t) + fx->off, fx->size);
            continue;
        }
        memcpy(&v, img + fx->off, fx->size > 8 ? 8 : fx->size); /* little-endian */
        v = fx->lo + v % fx->mod;
        memcpy(img + fx->off, &v, fx->size > 8 ? 8 : fx->size);
    }
}

static const unsigned char *valid_struct(int t) {
    const struct_info *s = &structs[t];
    args a, post;
    uint32_t st;
    if (struct_images[t]) return struct_images[t];
    if (s->ctor_fn < 0 || building[s->ctor_fn]) {
        printf("FATAL: no way to make a valid %s\n", s->name);
        exit(2);
    }
    building[s->ctor_fn] = 1;
    make_valid(s->ctor_fn, &a, 0);
    st = invoke(s->ctor_fn, &a, &post);
    building[s->ctor_fn] = 0;
    if (st != 0) {
        printf("FATAL: %s, the constructor of %s, returned %s with valid arguments\n",
               funcs[s->ctor_fn].name, s->name, status_name(st));
        exit(2);
    }
    struct_images[t] = xmalloc(s->size);
    memcpy(struct_images[t], post.p[s->ctor_param].data, s->size);
    args_free(&a);
    args_free(&post);
    return struct_images[t];
}

static const unsigned char *valid_handle(int init) {
    args a, post;
    uint32_t st;
    if (handle_images[init]) return handle_images[init];
    if (building[init]) {
        printf("FATAL: %s needs its own buffer\n", funcs[init].name);
        exit(2);
    }
    building[init] = 1;
    for (;;) {
        make_valid(init, &a, 0);
        st = invoke(init, &a, &post);
        if (st != ARBOR_BUFFER_TOO_SMALL || HANDLE_SIZE(init) >= (64u << 20)) break;
        handle_sizes[init] = 2 * HANDLE_SIZE(init);
        args_free(&a);
        args_free(&post);
    }
    building[init] = 0;
    if (st != 0) {
        printf("FATAL: %s returned %s with valid arguments\n", funcs[init].name, status_name(st));
        exit(2);
    }
    handle_images[init] = xmalloc(HANDLE_SIZE(init));
    memcpy(handle_images[init], post.p[0].data, HANDLE_SIZE(init));
    args_free(&a);
    args_free(&post);
    return handle_images[init];
}

static void make_valid(int fi, args *a, int variant) {
    const func_info *f = &funcs[fi];
    int i;
    args_init(a);
    for (i = 0; i < f->nparams; i++) {
        const param_info *pi = &f->p[i];
        pval *pv = &a->p[i];
        switch (pi->kind) {
        case K_SCALAR:
            a->v[i] = scan_done[fi][i] ? scan_value[fi][i] : pi->value;
            break;
        case K_STRUCT_IN:
        case K_STRUCT_INOUT:
            set_data(pv, valid_struct(pi->type_id), pi->elem);
            break;
        case K_STRUCT_OUT:
        case K_SCALAR_OUT:
            set_data(pv, NULL, pi->elem);
            memset(pv->data, 0xA5, pi->elem);
            break;
        case K_BUF_OUT:
            set_data(pv, NULL, OUT_BYTES - OUT_BYTES % pi->elem);
            memset(pv->data, 0xA5, pv->size);
            break;
        case K_HANDLE:
            set_data(pv, valid_handle(pi->init_fn), HANDLE_SIZE(pi->init_fn));
            break;
        case K_HANDLE_PREP:
            set_data(pv, NULL, HANDLE_SIZE(fi));
            memset(pv->data, 0, pv->size);
            break;
        case K_SCRATCH:
            set_data(pv, NULL, HANDLE_BYTES);
            memset(pv->data, 0, HANDLE_BYTES);
            break;
        default:
            break;
        }
    }
    /* Inputs with content, then lengths, then pointers sized by another parameter. */
    for (i = 0; i < f->nparams; i++) {
        const param_info *pi = &f->p[i];
        pval *pv = &a->p[i];
        size_t unit = pi->unit ? pi->unit : pi->elem;
        if (pi->kind == K_BUF_IN || pi->kind == K_CSTRING) {
            const unsigned char *data = NULL;
            size_t size = 0, len = 0;
            if (pi->field) {
                /* type_id is the struct whose field it is. */
                pi->field(valid_struct(pi->type_id), &data, &len);
                size = len;
            } else {
                const valid_text *t = &pi->inputs[variant % n_inputs(pi)];
                data = (const unsigned char *)t->bytes;
                size = t->size;
                len = t->len;
            }
            if (pi->kind == K_CSTRING) {
                set_data(pv, NULL, size + 1);
                memcpy(pv->data, data, size);
                pv->data[size] = 0;
            } else {
                set_data(pv, data, size);
                a->v[pi->len_index] = len;
            }
        } else if (OWN_LEN(f, i)) {
            if (pi->kind == K_BUF_OUT || pi->kind == K_HANDLE || pi->kind == K_HANDLE_PREP ||
                pi->kind == K_SCRATCH)
                a->v[pi->len_index] = pv->size / unit;
        }
    }
    for (i = 0; i < f->nparams; i++) {
        const param_info *pi = &f->p[i];
        if (pi->is_ptr && pi->len_index >= 0 && !OWN_LEN(f, i)) {
            resize_data(&a->p[i], (size_t)a->v[pi->len_index] * pi->elem, 0);
        }
    }
    /* Scalars whose valid value depends on the rest ("scan"): the first that gives OK. */
    for (i = 0; i < f->nparams; i++) {
        const param_info *pi = &f->p[i];
        uint64_t v;
        if (pi->kind != K_SCALAR || !pi->scan || scan_done[fi][i]) continue;
        scan_done[fi][i] = 1;
        scan_value[fi][i] = pi->value;
        for (v = pi->value; v <= pi->scan_hi; v++) {
            a->v[i] = v;
            if (invoke(fi, a, NULL) == 0) {
                scan_value[fi][i] = v;
                break;
            }
        }
        a->v[i] = scan_value[fi][i];
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Values. */

static const uint64_t interesting[] = {
    0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 51, 52, 63, 64, 65, 100, 127, 128, 200, 254, 255, 256,
    1032, 4095, 4096, 8191, 8192, 32767, 32768, 65535, 65536, UINT64_C(0x7fffffff),
    UINT64_C(0x80000000), UINT64_C(0xfffffffe), UINT64_C(0xffffffff), UINT64_C(0x100000000),
    UINT64_C(0x7fffffffffffffff), UINT64_C(0x8000000000000000), UINT64_C(0xffffffffffffffff)};
#define N_INTERESTING (sizeof interesting / sizeof interesting[0])

static uint64_t max_of(int bits) {
    return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

static uint64_t random_value(int bits) {
    uint64_t v = (rnd() & 1) ? interesting[rnd() % N_INTERESTING] : rnd();
    return v & max_of(bits);
}

static int in_range(const param_info *pi, uint64_t v) {
    return !pi->has_range || (v >= pi->lo && v <= pi->hi);
}

static int is_work(const param_info *pi, uint64_t v) {
    return pi->has_cap && v > pi->cap && in_range(pi, v);
}

/* ---------------------------------------------------------------------------------------- */
/* A call in a child with a time limit: for work parameters with huge values, and the
 * regressions. Returns the status, or -1 if it ran out of time (the work was being done). */

static int forked(int fi, const args *a, unsigned seconds, const char *crash_check) {
    pid_t pid;
    int status;
    unsigned long long failures_before = failures;
    fflush(stdout);
    pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) {
        uint32_t st;
        alarm(seconds);
        signal(SIGALRM, SIG_DFL);
        st = run(fi, a, NULL);
        fflush(stdout);
        _exit(failures != failures_before ? 1 : 64 + (int)(st & 63));
    }
    while (waitpid(pid, &status, 0) < 0) {}
    calls++;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) return -1;
    if (WIFEXITED(status) && WEXITSTATUS(status) >= 64) return WEXITSTATUS(status) - 64;
    fail(crash_check, "the call died (%s %d; rerun with ARBOR_HOSTILE_ONLY for the report)",
         WIFSIGNALED(status) ? "signal" : "exit code",
         WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    return -2;
}

static void on_hang(int sig) {
    char msg[256];
    int n;
    (void)sig;
    n = snprintf(msg, sizeof msg, "FAIL %s hang [case %s, round %llu]: no return within the limit\n",
                 current_fn, current_case, current_round);
    if (write(1, msg, (size_t)n) < 0) {}
    _exit(3);
}

#ifdef HOSTILE_MAIN
/* Whether the init function prepares a buffer of `len` bytes with otherwise valid
 * arguments. */
static int init_accepts(int init, size_t len) {
    args a;
    uint32_t st;
    int i;
    make_valid(init, &a, 0);
    for (i = 0; i < funcs[init].nparams; i++)
        if (funcs[init].p[i].kind == K_HANDLE_PREP && OWN_LEN(&funcs[init], i)) {
            resize_data(&a.p[i], len, 0);
            a.v[funcs[init].p[i].len_index] = len;
        }
    st = invoke(init, &a, NULL);
    args_free(&a);
    return st == 0;
}

#define N_LENGTHS 2
static const uint64_t huge_lengths[N_LENGTHS] = {UINT64_C(0xffffffffffffffff),
                                                 UINT64_C(0x8000000000000000)};
static const char *const huge_length_names[N_LENGTHS] = {"SIZE_MAX", "PTRDIFF_MAX+1"};

static void check_huge_length(const char *check, uint32_t st, uint32_t doc_mask) {
    checks++;
    if (st == 0)
        fail(check, "returned ARBOR_OK for a length above PTRDIFF_MAX");
    else if (st != ARBOR_INVALID_LENGTH && st < STATUS_COUNT && !(doc_mask & (1u << st)))
        fail(check, "returned %s, neither ARBOR_INVALID_LENGTH nor an error its doc names",
             status_name(st));
}

/* The single-defect cases of one function, against its valid call. */
static void deterministic(int fi) {
    const func_info *f = &funcs[fi];
    args base, post, a;
    uint32_t sb, st;
    int i, j, k, variants = 1;
    char check[128];
    if (!f->returns_status) {
        /* Functions that cannot fail: every interesting value of every scalar. */
        args_init(&base);
        for (i = 0; i < f->nparams; i++)
            for (k = 0; k < (int)N_INTERESTING; k++) {
                args_init(&a);
                make_valid(fi, &a, 0);
                a.v[i] = interesting[k] & max_of(f->p[i].bits);
                current_case = "scalar";
                run(fi, &a, NULL);
                args_free(&a);
            }
        if (f->nparams == 0) run(fi, &base, NULL);
        return;
    }
    current_case = "valid";
    make_valid(fi, &base, 0);
    sb = run(fi, &base, &post);
    if (sb != 0)
        printf("note: %s: the valid call returns %s; checks that need OK are skipped\n", f->name,
               status_name(sb));
    for (i = 0; i < f->nparams; i++)
        if (f->p[i].inputs && n_inputs(&f->p[i]) > variants) variants = n_inputs(&f->p[i]);
    for (k = 1; k < variants; k++) {
        args v;
        current_case = "valid-variant";
        make_valid(fi, &v, k);
        st = run(fi, &v, NULL);
        checks++;
        if (st != sb)
            printf("note: %s: valid input variant %d returns %s\n", f->name, k, status_name(st));
        args_free(&v);
    }

    for (i = 0; i < f->nparams; i++) {
        const param_info *pi = &f->p[i];
        size_t unit = pi->unit ? pi->unit : pi->elem;
        int own_len = OWN_LEN(f, i);
        if (pi->is_ptr) {
            /* NULL. */
            current_case = "null";
            args_copy(&a, &base);
            a.p[i].null = 1;
            st = run(fi, &a, NULL);
            snprintf(check, sizeof check, "null:%s", pi->name);
            if (own_len && base.v[pi->len_index] == 0) {
                /* NULL with length 0 is allowed: any known status. */
            } else if (pi->optional == 0 && sb == 0) {
                check_status(check, st, ARBOR_NULL_POINTER);
            } else if (pi->optional == 1) {
                snprintf(check, sizeof check, "optional-null:%s", pi->name);
                check_status(check, st, sb);
            }
            if (own_len) {
                current_case = "null-len-0";
                a.v[pi->len_index] = 0;
                run(fi, &a, NULL);
            }
            args_free(&a);
            /* Misaligned by one byte. */
            current_case = "misaligned";
            args_copy(&a, &base);
            a.p[i].off = 1;
            st = run(fi, &a, NULL);
            if (pi->kind == K_HANDLE || pi->kind == K_HANDLE_PREP || pi->kind == K_SCRATCH ||
                ((pi->kind == K_BUF_IN || pi->kind == K_BUF_OUT) && pi->elem > 1)) {
                snprintf(check, sizeof check, "misaligned:%s", pi->name);
                if (sb == 0) check_status(check, st, ARBOR_MISALIGNED);
            } else {
                snprintf(check, sizeof check, "unaligned-struct:%s", pi->name);
                check_status(check, st, sb);
            }
            args_free(&a);
        }
        /* Structs and buffers with a magic number and version. */
        if (pi->kind == K_STRUCT_IN || pi->kind == K_STRUCT_INOUT || pi->kind == K_HANDLE) {
            const struct_info *s = pi->type_id >= 0 ? &structs[pi->type_id] : NULL;
            int has_magic = pi->kind == K_HANDLE || (s && s->has_magic);
            size_t moff = s && s->has_magic ? s->magic_off : 0;
            size_t voff = s && s->has_magic ? s->version_off : 4;
            for (k = 0; k < 16; k++) {
                uint32_t m, good;
                current_case = "random-bytes";
                args_copy(&a, &base);
                fill_random(a.p[i].data, a.p[i].size);
                if (has_magic) {
                    memcpy(&good, base.p[i].data + moff, 4);
                    memcpy(&m, a.p[i].data + moff, 4);
                    if (m == good) m ^= 1;
                    memcpy(a.p[i].data + moff, &m, 4);
                }
                fix_struct(pi->type_id, a.p[i].data, a.p[i].size);
                st = run(fi, &a, NULL);
                if (has_magic && sb == 0) {
                    snprintf(check, sizeof check, "not-initialised:%s", pi->name);
                    check_status(check, st, ARBOR_NOT_INITIALISED);
                }
                args_free(&a);
            }
            if (has_magic) {
                uint32_t v;
                current_case = "version+1";
                args_copy(&a, &base);
                memcpy(&v, a.p[i].data + voff, 4);
                v += 1;
                memcpy(a.p[i].data + voff, &v, 4);
                st = run(fi, &a, NULL);
                snprintf(check, sizeof check, "wrong-version:%s", pi->name);
                if (sb == 0) check_status(check, st, ARBOR_WRONG_VERSION);
                args_free(&a);
                /* Random bytes after a valid magic and version: any known status. */
                for (k = 0; k < 64; k++) {
                    current_case = "random-after-header";
                    args_copy(&a, &base);
                    {
                        size_t from = (voff > moff ? voff : moff) + 4;
                        if (pi->kind == K_HANDLE) from = 16;
                        if (a.p[i].size > from) {
                            size_t n = a.p[i].size - from;
                            if (pi->kind == K_HANDLE && n > 512) n = 512;
                            fill_random(a.p[i].data + from, n);
                        }
                    }
                    fix_struct(pi->type_id, a.p[i].data, a.p[i].size);
                    run(fi, &a, NULL);
                    args_free(&a);
                }
            }
            if (pi->kind == K_HANDLE && own_len) {
                /* The prepared length in the header (bytes 8..15) damaged: below the
                 * header's own 16 bytes, or a buffer cut to a length no init accepts and a
                 * header saying so. Nothing of that is valid; run in a child, since
                 * trusting the header reads past the buffer. */
                static const uint64_t lens[] = {0, 1, 8, 15, 16, 24, 64, 256, 1024};
                int r;
                for (k = 0; k < 9; k++) {
                    current_case = "handle-header-length";
                    if (lens[k] >= 24 && init_accepts(pi->init_fn, (size_t)lens[k]))
                        continue; /* a real handle of this size exists */
                    args_copy(&a, &base);
                    if (lens[k] >= 24) {
                        resize_data(&a.p[i], (size_t)lens[k], 0);
                        a.v[pi->len_index] = lens[k];
                    }
                    memcpy(a.p[i].data + 8, &lens[k], 8);
                    snprintf(check, sizeof check, "handle-header-length:%s", pi->name);
                    r = forked(fi, &a, 5, check);
                    checks++;
                    if (r == 0)
                        fail(check, "OK with a %zu-byte buffer whose header says %llu bytes",
                             a.p[i].size, (unsigned long long)lens[k]);
                    args_free(&a);
                }
            }
            if (pi->kind == K_HANDLE && own_len) {
                current_case = "handle-shorter";
                args_copy(&a, &base);
                a.v[pi->len_index] = a.p[i].size / 2;
                resize_data(&a.p[i], a.p[i].size / 2, 0);
                st = run(fi, &a, NULL);
                snprintf(check, sizeof check, "handle-shorter:%s", pi->name);
                if (sb == 0) check_status(check, st, ARBOR_BUFFER_TOO_SMALL);
                resize_data(&a.p[i], 8, 0);
                a.v[pi->len_index] = 8;
                st = run(fi, &a, NULL);
                if (sb == 0) check_status(check, st, ARBOR_BUFFER_TOO_SMALL);
                args_free(&a);
            }
        }
        /* Lengths of a pointer. */
        if (own_len) {
            int L = pi->len_index;
            for (k = 0; k < N_LENGTHS; k++) {
                current_case = huge_length_names[k];
                args_copy(&a, &base);
                a.v[L] = huge_lengths[k];
                st = run(fi, &a, NULL);
                snprintf(check, sizeof check, "length-%s:%s", k ? "ptrdiff" : "max", f->p[L].name);
                check_huge_length(check, st, f->doc_mask);
                args_free(&a);
            }
            {
                uint64_t lens[6];
                uint64_t cur = base.v[L];
                lens[0] = 0;
                lens[1] = 1;
                lens[2] = cur ? cur - 1 : 0;
                lens[3] = cur / 2;
                lens[4] = cur + 1;
                lens[5] = cur * 4 + 100;
                for (k = 0; k < 6; k++) {
                    current_case = "length";
                    args_copy(&a, &base);
                    a.v[L] = lens[k];
                    resize_data(&a.p[i], (size_t)lens[k] * unit, 1);
                    st = run(fi, &a, NULL);
                    if (pi->text_out && sb == 0 &&
                        lens[k] < strnlen((const char *)post.p[i].data, post.p[i].size) + 1) {
                        snprintf(check, sizeof check, "text-out-empty:%s", pi->name);
                        check_status(check, st, ARBOR_BUFFER_TOO_SMALL);
                    }
                    args_free(&a);
                }
            }
            if (pi->text_out && sb == 0) {
                size_t needed = strnlen((const char *)post.p[i].data, post.p[i].size) + 1;
                int ol = -1;
                for (j = 0; j < f->nparams; j++)
                    if (strcmp(f->p[j].name, "out_len") == 0 && f->p[j].kind == K_SCALAR_OUT &&
                        f->p[j].elem == sizeof(size_t))
                        ol = j;
                if (ol >= 0) {
                    size_t reported;
                    memcpy(&reported, post.p[ol].data, sizeof reported);
                    snprintf(check, sizeof check, "out-len:%s", f->p[ol].name);
                    checks++;
                    if (reported != needed - 1)
                        fail(check, "*out_len = %zu for a text of %zu bytes", reported, needed - 1);
                    /* The length is reported when the buffer is too small, and asked with
                     * NULL, 0. */
                    for (k = 0; k < 2; k++) {
                        args q;
                        current_case = k ? "text-out-query" : "text-out-short-len";
                        args_copy(&a, &base);
                        a.v[L] = k ? 0 : needed - 1;
                        resize_data(&a.p[i], k ? 0 : needed - 1, 0);
                        a.p[i].null = k;
                        st = run(fi, &a, &q);
                        memcpy(&reported, q.p[ol].data, sizeof reported);
                        checks++;
                        if (st == ARBOR_BUFFER_TOO_SMALL && reported != needed - 1)
                            fail(check, "*out_len = %zu with ARBOR_BUFFER_TOO_SMALL, text of %zu bytes",
                                 reported, needed - 1);
                        args_free(&q);
                        args_free(&a);
                    }
                }
                current_case = "text-out-short";
                args_copy(&a, &base);
                a.v[L] = needed - 1;
                resize_data(&a.p[i], needed - 1, 0);
                st = run(fi, &a, NULL);
                snprintf(check, sizeof check, "text-out-short:%s", pi->name);
                check_status(check, st, ARBOR_BUFFER_TOO_SMALL);
                args_free(&a);
                current_case = "text-out-exact";
                args_copy(&a, &base);
                a.v[L] = needed;
                resize_data(&a.p[i], needed, 0);
                st = run(fi, &a, NULL);
                snprintf(check, sizeof check, "text-out-exact:%s", pi->name);
                check_status(check, st, 0);
                args_free(&a);
            }
        }
        if (pi->kind == K_CSTRING) {
            static const char *const texts[] = {"", " ", "\xff\xfe", "As\n", "a1-a2 "};
            for (k = 0; k < 5; k++) {
                current_case = "cstring";
                args_copy(&a, &base);
                set_data(&a.p[i], texts[k], strlen(texts[k]) + 1);
                run(fi, &a, NULL);
                args_free(&a);
            }
            current_case = "cstring-long";
            args_copy(&a, &base);
            resize_data(&a.p[i], 65536, 1);
            for (k = 0; k < 65535; k++)
                if (!a.p[i].data[k]) a.p[i].data[k] = 'A';
            a.p[i].data[65535] = 0;
            run(fi, &a, NULL);
            args_free(&a);
        }
        /* Scalars. */
        if (pi->kind == K_SCALAR) {
            for (k = 0; k < (int)N_INTERESTING; k++) {
                uint64_t v = interesting[k];
                if (v > max_of(pi->bits) || (k > 0 && interesting[k - 1] == v)) continue;
                if (is_work(pi, v)) continue;
                current_case = "scalar";
                args_copy(&a, &base);
                a.v[i] = v;
                st = run(fi, &a, NULL);
                if (!in_range(pi, v) && sb == 0) {
                    snprintf(check, sizeof check, "range:%s", pi->name);
                    check_status(check, st, pi->range_status);
                }
                args_free(&a);
            }
            if (pi->has_cap) {
                uint64_t work[2];
                work[0] = pi->cap + 1;
                work[1] = max_of(pi->bits);
                for (k = 0; k < 2; k++) {
                    int r;
                    if (!is_work(pi, work[k])) continue;
                    current_case = "work";
                    args_copy(&a, &base);
                    a.v[i] = work[k];
                    r = forked(fi, &a, work_seconds, "crash:work");
                    if (r == -1)
                        printf("note: %s: %s = %llu still working after %u s (a work parameter)\n",
                               f->name, pi->name, (unsigned long long)work[k], work_seconds);
                    args_free(&a);
                }
            }
        }
    }
    /* The same buffer as input and output. */
    for (i = 0; i < f->nparams; i++) {
        int ki = f->p[i].kind;
        if (!(ki == K_STRUCT_IN || ki == K_BUF_IN || ki == K_STRUCT_INOUT || ki == K_HANDLE)) continue;
        for (j = 0; j < f->nparams; j++) {
            int kj = f->p[j].kind;
            if (j == i || !(kj == K_STRUCT_OUT || kj == K_SCALAR_OUT || kj == K_BUF_OUT)) continue;
            current_case = "aliased";
            args_copy(&a, &base);
            if (a.p[i].size < a.p[j].size) resize_data(&a.p[i], a.p[j].size, 0);
            a.p[j].alias = i;
            run(fi, &a, NULL);
            args_free(&a);
        }
    }
    args_free(&base);
    args_free(&post);
}

/* Seeded random rounds until `deadline`. */
static void random_rounds(int fi, double deadline) {
    const func_info *f = &funcs[fi];
    args base[4], a;
    int nbase = 0, i, k, variants = 1;
    if (f->nparams == 0) return;
    for (i = 0; i < f->nparams; i++)
        if (f->p[i].inputs && n_inputs(&f->p[i]) > variants) variants = n_inputs(&f->p[i]);
    for (nbase = 0; nbase < 4 && nbase < variants; nbase++) make_valid(fi, &base[nbase], nbase);
    current_case = "random";
    for (current_round = 0; current_round < 5000000; current_round++) {
        int nmut;
        if ((current_round & 15) == 0 && now_seconds() > deadline) break;
        args_copy(&a, &base[current_round % (unsigned)nbase]);
        nmut = 1 + (int)(rnd() % 3);
        for (k = 0; k < nmut; k++) {
            const param_info *pi;
            pval *pv;
            i = (int)(rnd() % (unsigned)f->nparams);
            pi = &f->p[i];
            pv = &a.p[i];
            if (pi->kind == K_SCALAR) {
                uint64_t v = random_value(pi->bits);
                if (is_work(pi, v)) v = v % (pi->cap + 1);
                a.v[i] = v;
            } else if (pi->kind == K_LENGTH) {
                /* Change a length together with the blocks it sizes. */
                int p;
                uint64_t len = a.v[i];
                switch (rnd() % 5) {
                case 0: len = 0; break;
                case 1: len = len ? len - 1 : 0; break;
                case 2: len = rnd() % (2 * len + 8); break;
                case 3: len = len + 1 + rnd() % 64; break;
                default: len = rnd() % 300; break;
                }
                a.v[i] = len;
                for (p = 0; p < f->nparams; p++) {
                    const param_info *pp = &f->p[p];
                    size_t unit;
                    if (!pp->is_ptr || pp->len_index != i) continue;
                    unit = pp->unit ? pp->unit : pp->elem;
                    if (pp->kind == K_HANDLE && len * unit < 16) { a.v[i] = 16 / unit; len = a.v[i]; }
                    resize_data(&a.p[p], (size_t)len * unit, pp->kind == K_BUF_IN);
                }
            } else if (pi->is_ptr) {
                switch (rnd() % 10) {
                case 0:
                    pv->null = 1;
                    break;
                case 1:
                    pv->off = 1;
                    break;
                default:
                    if (pi->kind == K_STRUCT_OUT || pi->kind == K_SCALAR_OUT || pi->kind == K_BUF_OUT ||
                        pi->kind == K_HANDLE_PREP) {
                        fill_random(pv->data, pv->size);
                    } else if (pv->size) {
                        size_t n = pv->size, m = rnd() % 4, from = 0, j;
                        if (pi->kind == K_HANDLE) from = 16, n = n > 4096 ? 4096 : n;
                        if (m == 0 && n > from) {
                            fill_random(pv->data + from, n - from);
                        } else if (m == 1 && pi->kind == K_BUF_IN) {
                            /* A text made of the valid text's own bytes. */
                            for (j = 0; j < n; j++) pv->data[j] = pv->data[rnd() % n];
                        } else {
                            size_t flips = 1 + rnd() % 8;
                            if (n <= from) flips = 0;
                            for (j = 0; j < flips; j++) {
                                /* Handles: the header has its own cases (above). */
                                size_t at = from + rnd() % (n - from);
                                if (rnd() & 1) pv->data[at] ^= (unsigned char)(1u << (rnd() % 8));
                                else pv->data[at] = (unsigned char)rnd();
                            }
                        }
                        if (pi->kind == K_STRUCT_IN || pi->kind == K_STRUCT_INOUT)
                            fix_struct(pi->type_id, pv->data, pv->size);
                        if (pi->kind == K_CSTRING) {
                            for (j = 0; j + 1 < pv->size; j++)
                                if (!pv->data[j]) pv->data[j] = '.';
                            pv->data[pv->size - 1] = 0;
                        }
                    }
                    break;
                }
            }
        }
        run(fi, &a, NULL);
        args_free(&a);
    }
    for (i = 0; i < nbase; i++) args_free(&base[i]);
}

static void regressions_run(void) {
    const regression *r;
    for (r = regressions; r->name; r++) {
        const func_info *f = &funcs[r->fn];
        args a;
        int i, st;
        char check[128];
        current_fn = f->name;
        current_case = r->name;
        make_valid(r->fn, &a, 0);
        for (i = 0; i < f->nparams; i++) {
            if (r->param[0] && strcmp(f->p[i].name, r->param) == 0) a.v[i] = r->value;
            if (r->text && f->p[i].kind == K_BUF_IN) {
                set_data(&a.p[i], r->text, r->text_len);
                a.v[f->p[i].len_index] = r->text_len / (f->p[i].unit ? f->p[i].unit : f->p[i].elem);
            }
        }
        st = forked(r->fn, &a, 5, "crash:regression");
        snprintf(check, sizeof check, "regression:%s", r->name);
        if (st == -1) {
            checks++;
            fail(check, "no answer within 5 s, expected %s", status_name(r->expect));
        } else if (st >= 0) {
            check_status(check, (uint32_t)st, r->expect);
            printf("regression %s (%s): %s, expected %s\n", r->name, f->name,
                   status_name((uint32_t)st), status_name(r->expect));
        }
        args_free(&a);
    }
}

int main(void) {
    const char *env;
    double budget = 10, start = now_seconds(), per;
    int fi, n_run = 0;
    const char *only = getenv("ARBOR_HOSTILE_ONLY");
    known_deviation *k;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if ((env = getenv("ARBOR_HOSTILE_SECONDS"))) budget = atof(env);
    if ((env = getenv("ARBOR_HOSTILE_SEED"))) seed0 = strtoull(env, NULL, 10);
    verbose = getenv("ARBOR_HOSTILE_VERBOSE") != NULL;
    if ((env = getenv("ARBOR_HOSTILE_WORK_SECONDS"))) work_seconds = (unsigned)atoi(env);
    signal(SIGALRM, on_hang);
    for (fi = 0; fi < N_FUNCS; fi++)
        if (!only || strcmp(only, funcs[fi].name) == 0) n_run++;
    per = n_run ? budget / n_run : 0;
    printf("hostile: %d functions from include/arbor.h, %.1f s of random rounds, seed %llu\n",
           N_FUNCS, budget, (unsigned long long)seed0);
    for (fi = 0; fi < N_FUNCS; fi++) {
        unsigned long long before = calls;
        double t0 = now_seconds();
        if (only && strcmp(only, funcs[fi].name) != 0) continue;
        current_fn = funcs[fi].name;
        current_round = 0;
        rng = seed0 ^ hash_name(current_fn);
        alarm(60);
        deterministic(fi);
        random_rounds(fi, now_seconds() + per);
        alarm(0);
        printf("  %-36s %10llu calls  %6.2f s\n", funcs[fi].name, calls - before, now_seconds() - t0);
    }
    if (!only) {
        alarm(60);
        regressions_run();
        alarm(0);
    }
    for (k = known; k->fn; k++) {
        if (k->hits)
            printf("known deviation: %s %s (%lu times)\n", k->fn, k->check, k->hits);
        else if (!only && !k->rare)
            printf("stale known deviation (no longer seen, remove it): %s %s\n", k->fn, k->check);
    }
    printf("hostile: %llu calls, %llu checks, %llu known-deviation hits in %.1f s\n", calls, checks,
           known_hits, now_seconds() - start);
    printf("hostile: %llu passed, %llu failed\n", checks - (failures < checks ? failures : checks),
           failures);
    return failures ? 1 : 0;
}
#endif /* HOSTILE_MAIN */

#ifdef FUZZ_TARGETS
/* libFuzzer targets (generate.py --fuzz), all in one program so that CI compiles and links
 * it once; the environment variable ARBOR_FUZZ_TARGET names the one to run (a row of
 * fuzz_target_list, written by the generator). Kind 1: the input is the text of parameter
 * `param` of function `fn`, the other arguments valid. Kind 2: the input gives a struct of
 * type `type`, passed to every function that reads one; kind 3: the input gives the first
 * bytes of a caller buffer prepared by function `fn`, passed to every function that opens
 * one. For 2 and 3 the first byte chooses how: odd, the bytes that follow are the struct
 * (zero-padded); even, they are XORed into a valid one, so that the empty input is valid
 * and mutations start from there. A failed check aborts. */
static args fuzz_base[N_FUNCS];
static int fuzz_ready[N_FUNCS];

static const args *fuzz_valid(int fi) {
    if (!fuzz_ready[fi]) {
        rng = 15;
        make_valid(fi, &fuzz_base[fi], 0);
        fuzz_ready[fi] = 1;
    }
    return &fuzz_base[fi];
}

static void fuzz_bytes(unsigned char *dst, size_t n, const uint8_t *data, size_t size) {
    size_t i, m;
    if (size == 0) return;
    m = size - 1 < n ? size - 1 : n;
    if (data[0] & 1) {
        memset(dst, 0, n);
        memcpy(dst, data + 1, m);
    } else {
        for (i = 0; i < m; i++) dst[i] ^= data[1 + i];
    }
}

/* The row of fuzz_target_list that ARBOR_FUZZ_TARGET names; an unknown or missing name
 * lists the targets and exits. */
static const fuzz_target *fuzz_selected(void) {
    static const fuzz_target *selected;
    if (!selected) {
        const char *name = getenv("ARBOR_FUZZ_TARGET");
        size_t t;
        for (t = 0; name && fuzz_target_list[t].name; t++)
            if (strcmp(fuzz_target_list[t].name, name) == 0) selected = &fuzz_target_list[t];
        if (!selected) {
            fprintf(stderr, "set ARBOR_FUZZ_TARGET to one of:");
            for (t = 0; fuzz_target_list[t].name; t++) fprintf(stderr, " %s", fuzz_target_list[t].name);
            fprintf(stderr, "\n");
            exit(2);
        }
    }
    return selected;
}

/* Called by libFuzzer once before any input: a wrong target name stops it here. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fuzz_selected();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const fuzz_target *target = fuzz_selected();
    args a;
    int fi, i;
    current_case = "fuzz";
    if (target->kind == 1) {
        const param_info *pi = &funcs[target->fn].p[target->param];
        size_t unit = pi->unit ? pi->unit : pi->elem;
        current_fn = funcs[target->fn].name;
        args_copy(&a, fuzz_valid(target->fn));
        if (pi->kind == K_CSTRING) {
            set_data(&a.p[target->param], NULL, size + 1);
            if (size) memcpy(a.p[target->param].data, data, size);
            a.p[target->param].data[size] = 0;
        } else {
            set_data(&a.p[target->param], data, size - size % unit);
            a.v[pi->len_index] = size / unit;
        }
        run(target->fn, &a, NULL);
        args_free(&a);
    } else {
        for (fi = 0; fi < N_FUNCS; fi++) {
            for (i = 0; i < funcs[fi].nparams; i++) {
                const param_info *pi = &funcs[fi].p[i];
                if (target->kind == 2 ? !((pi->kind == K_STRUCT_IN || pi->kind == K_STRUCT_INOUT) &&
                                          pi->type_id == target->type)
                                      : !(pi->kind == K_HANDLE && pi->init_fn == target->fn))
                    continue;
                current_fn = funcs[fi].name;
                args_copy(&a, fuzz_valid(fi));
                fuzz_bytes(a.p[i].data, a.p[i].size, data, size);
                if (target->kind == 2) fix_struct(pi->type_id, a.p[i].data, a.p[i].size);
                run(fi, &a, NULL);
                args_free(&a);
            }
        }
    }
    if (failures) {
        fflush(stdout);
        abort();
    }
    return 0;
}
#endif /* FUZZ_TARGETS */
