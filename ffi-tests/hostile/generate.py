#!/usr/bin/env python3
"""Writes a hostile-input C test (and libFuzzer harnesses) for every function of include/arbor.h.

    python3 ffi-tests/hostile/generate.py [--header include/arbor.h] --out hostile.c
    python3 ffi-tests/hostile/generate.py --fuzz ffi-tests/fuzz      # the fuzz targets
    python3 ffi-tests/hostile/generate.py --explain                   # how it read the header

Nothing here names a function of the ABI except the small tables below (valid scalar values
by parameter name, where a few inputs come from, the issue-15 regressions). Every exported
prototype of the header is read, each parameter is classified by the rules below, and a
function the rules cannot classify stops the generator with a message naming it: a new
function forces someone to look (and add a line to a table), never a silent skip.

CLASSIFICATION RULES (a parameter is one of these; anything else is an error)
  scalar        an integer parameter; its valid value comes from SCALARS (by name, or
                "function:name"); a name missing there is an error.
  length        a size_t right after a pointer, named like a length (LEN_RE): that
                pointer's length in units of its pointee (void/char: bytes; UNITS overrides).
  struct_in     `const struct arbor_x *`: a valid value is made by the struct's constructor:
                the function with a non-const `struct arbor_x *` output whose name ends in
                _init, _preset, _default_config, _shipped, _start or _parse (in that order
                of preference), called with valid arguments.
  struct_out    a non-const struct pointer named out* or of a constructor.
  struct_inout  any other non-const struct pointer (read, then written back).
  buf_in        a const pointer with a length (text or bytes); valid content from
                INPUTS (by "function:name") or the fuzz corpus ffi-tests/fuzz/corpus/<fn>/
                (TEXT_SOURCE maps functions to another function's corpus).
  buf_out       a non-const pointer with a length ("text out" when it is `char *`).
  handle        a `void *` with a length, prepared by the area's `_init`: the one the doc
                names as "`p` (… prepared by `arbor_…_init`", else the init whose prefix is
                the longest prefix of the function's name, or an `arbor_…_init` the doc
                comment names; handle_prep for the init itself; scratch when there
                is no init, or when the doc calls it a scratch buffer (any contents).
  scalar_out    a non-const pointer to an integer, no length.
  cstring       `const char *` without a length: a NUL-terminated input (pre-1.0 only).

OPTIONAL POINTERS (NULL must not be ARBOR_NULL_POINTER; the status must equal the valid
call's): names in OPTIONAL_NAMES, or marked in the doc comment before "# Safety" by
"`p` may be NULL", "`p` (may be NULL)", "if `p` is not NULL", "`*p` (if not NULL)".
CONDITIONAL (NULL may be fine or not; any known status): "may then be NULL" / "may be NULL
when" in a sentence whose first backticked name is the parameter. A sized pointer with
length 0 may always be NULL. Every other pointer is REQUIRED: NULL -> ARBOR_NULL_POINTER.

WHAT THE GENERATED PROGRAM CHECKS, for every function (see hostile_runtime.h):
  every call: status in 0..=15; const inputs unchanged; on an error every output and in/out
  buffer unchanged except out_len, out_error and the parameters whose doc says "`*p`
  receives/holds"; a parse error written to an arbor_parse_error is well formed.
  single defects against a valid call: NULL per pointer; +1 misalignment (struct and scalar
  pointers must still work, typed slices and caller buffers -> ARBOR_MISALIGNED); random
  bytes in a struct/buffer with magic+version -> ARBOR_NOT_INITIALISED, version+1 ->
  ARBOR_WRONG_VERSION; lengths 0, 1, short, SIZE_MAX and PTRDIFF_MAX+1 (-> an error named in
  the doc, never OK); text out one byte short -> ARBOR_BUFFER_TOO_SMALL; out-of-range scalars
  (SCALARS ranges) -> their status; the same buffer as input and output; work parameters
  (iterations, games, ...) with huge values in a forked child with a time limit.
  then seeded random rounds (structs and buffers of random bytes, random lengths and
  scalars, NULLs, misalignment) until the time budget is spent.
Deviations already known are listed in ffi-tests/hostile/known-deviations.txt.
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# ---------------------------------------------------------------------------------------
# The small hand-written tables.

# Valid values of scalar parameters, by name or "function:name". Each entry: the valid value
# (an int, or ("scan", lo, hi): the first value in lo..=hi for which the valid call returns
# ARBOR_OK), and optionally range=(lo, hi, status): values outside -> that status;
# cap=N: a work parameter, values above N run only once, in a forked child with a time limit.
SCALARS = {
    "columns": dict(value=8, range=(2, 8, "ARBOR_INVALID_ARGUMENT")),
    "rows": dict(value=8, range=(4, 8, "ARBOR_INVALID_ARGUMENT")),
    "policy": dict(value=0, range=(0, 2, "ARBOR_INVALID_ARGUMENT")),
    "agent": dict(value=2, range=(0, 2, "ARBOR_INVALID_ARGUMENT")),
    "goal": dict(value=0, range=(0, 3, "ARBOR_INVALID_ARGUMENT")),
    "options": dict(value=0, range=(0, 1, "ARBOR_INVALID_ARGUMENT")),
    # 1: valid with and without the std feature (a no_std build has one thread).
    "threads": dict(value=1, range=(1, 64, "ARBOR_INVALID_ARGUMENT"), cap=2),
    "iterations": dict(value=2, cap=8),
    "games": dict(value=1, range=(1, 0xFFFFFFFF, "ARBOR_INVALID_ARGUMENT"), cap=2),
    "max_expansions": dict(value=2000, cap=5000),
    "max_iterations": dict(value=4, cap=8),
    "arbor_match3_*:iterations": dict(value=2, cap=8, range=(0, "ARBOR_MATCH3_MAX_ITERATIONS",
                                                         "ARBOR_INVALID_ARGUMENT")),
    "seed": dict(value=42),
    "status": dict(value=3),
    "rank": dict(value=100),
    "card": dict(value=12, range=(0, 51, "ARBOR_INVALID_CARD")),
    "mv": dict(value=("scan", 0, 8191)),
    "code": dict(value=("scan", 0, 255)),
    "capacity": dict(value=100),
    "entries": dict(value=256),
    "capacity_nodes": dict(value=1000),
    "index": dict(value=0),
    # Go: board sizes 5..=19, a komi (a double: the valid value converted), the player kind.
    "size": dict(value=9, range=(5, 19, "ARBOR_INVALID_ARGUMENT")),
    "komi": dict(value=7),
    "player": dict(value=0, range=(0, 1, "ARBOR_INVALID_ARGUMENT")),
    # Hold'em: the ACPC game's stacks and blinds (a stack must exceed the big blind, which
    # must be at least the small blind), a position, a hand number, an action code (a call).
    "stack0": dict(value=20000, range=(101, 1 << 30, "ARBOR_INVALID_ARGUMENT")),
    "stack1": dict(value=20000, range=(101, 1 << 30, "ARBOR_INVALID_ARGUMENT")),
    "big_blind": dict(value=100, range=(50, 19999, "ARBOR_INVALID_ARGUMENT")),
    "small_blind": dict(value=50, range=(0, 100, "ARBOR_INVALID_ARGUMENT")),
    "position": dict(value=0, range=(0, 1, "ARBOR_INVALID_ARGUMENT")),
    "hand_number": dict(value=3),
    "action": dict(value=1),
    "arbor_match3_level_preset:index": dict(value=0, range=(0, 2, "ARBOR_INVALID_ARGUMENT")),
    "arbor_match3_persona_shipped:index": dict(value=0, range=(0, 3, "ARBOR_INVALID_ARGUMENT")),
}

# Fields of structs that set how much work a call does: random bytes there are brought back
# to a small amount (name: (smallest, modulus)), or a search could run for hours.
# Pointer fields (the clock and its context of search limits) keep their valid value (NULL):
# a random function pointer is the caller's bug, not arbor's.
STRUCT_WORK_FIELDS = {
    "max_iterations": (1, 8),
    "deadline_us": (0, 20000),
    "iterations": (1, 8),
    "games": (1, 2),
}

# Where the valid content of an input buffer comes from, by "function:name": ("bytes", [...],
# length) or ("field", struct, data_field, length_field) of a valid struct.
INPUTS = {
    "arbor_hand_rank:cards": ("bytes", [0, 5, 10, 15, 20, 25, 30], 7),
    "arbor_hand_rank7_batch:cards": ("bytes", [0, 5, 10, 15, 20, 25, 30], 1),
    "arbor_holdem_hand_deal_hole:cards": ("bytes", [0, 5], 2),
    "arbor_match3_*:formula": ("field", "arbor_match3_persona", "formula", "formula_len"),
    # AhAd, KcKh, then 2s 7d 9c Ks: river boards keep each valid call quick.
    "arbor_equity_hand_vs_hand:cards": ("bytes", [50, 49, 44, 46, 3, 21, 28, 47], 8),
    "arbor_equity_hand_vs_range:cards": ("bytes", [50, 49, 3, 21, 28, 47], 6),
    "arbor_equity_range_vs_range:board": ("bytes", [3, 21, 28, 47], 4),
    # Full ranges, every combo weighing 1.0f (bytes of a little-endian float).
    "arbor_equity_*:villain": ("bytes", [0, 0, 0x80, 0x3F] * 1326, 1326),
    "arbor_equity_range_vs_range:hero": ("bytes", [0, 0, 0x80, 0x3F] * 1326, 1326),
}
# Functions whose text input is valid text of another function's corpus.
TEXT_SOURCE = {
    "arbor_match3_playtest": "arbor_match3_level_parse",
    "arbor_match3_formula_compile": "arbor_match3_formula_parse",  # its pre-1.0 name
}
# Length units other than the pointee's size, by "function:pointer".
UNITS = {"arbor_hand_rank7_batch:cards": 7}
# Pointers sized by a length parameter that does not follow them, by "function:pointer".
SIZED_BY = {"arbor_hand_rank7_batch:out_ranks": "count"}

OPTIONAL_NAMES = {"out_len", "out_error", "ctx"}
# Written on error by the convention (text out's length, a parse's error).
WRITTEN_ON_ERROR = {"out_len", "out_error"}
CONSTRUCTOR_SUFFIXES = ["_init", "_preset", "_default_config", "_shipped", "_start", "_parse"]
LEN_RE = re.compile(r"^(len|\w+_len|capacity|count|\w+_bytes|bytes|size)$")
SCALAR_TYPES = {
    "uint8_t": 8, "uint16_t": 16, "uint32_t": 32, "uint64_t": 64, "size_t": 64,
    "int8_t": 8, "int16_t": 16, "int32_t": 32, "int64_t": 64,
    # A double is passed the integer value converted (random rounds: any 64-bit integer).
    "double": 64,
    # Floats come only as arrays (the equity ranges), filled from INPUTS or random bytes.
    "float": 32,
}

# Issue 15's wrong statuses, checked forever: (name, function, {param: value}, text for the
# function's text input or None, expected status).
def _balanced(depth):
    return "W" if depth == 0 else "add(%s, %s)" % (_balanced(depth - 1), _balanced(depth - 1))


REGRESSIONS = [
    # 65 instructions nested 64 deep: was ARBOR_PARSE_ERROR (the nesting limit spoke first).
    ("formula-65-instructions-nested", "arbor_match3_formula_parse|arbor_match3_formula_compile", {},
     "sqrt(" * 64 + "W" + ")" * 64, "ARBOR_INVALID_LENGTH"),
    # 255 instructions, 8 deep.
    ("formula-255-instructions", "arbor_match3_formula_parse|arbor_match3_formula_compile", {}, _balanced(7),
     "ARBOR_INVALID_LENGTH"),
    ("playtest-iterations-uint32-max", "arbor_match3_playtest", {"iterations": 0xFFFFFFFF},
     None, "ARBOR_INVALID_ARGUMENT"),
]

# ---------------------------------------------------------------------------------------


class GenError(Exception):
    pass


class Param:
    def __init__(self, text, index):
        self.text = text.strip()
        self.index = index
        m = re.match(r"^(const\s+)?(struct\s+)?(\w+)\s*(\*?)\s*(\w+)$", self.text)
        if not m:
            raise GenError("cannot read parameter %r" % self.text)
        self.const = bool(m.group(1))
        self.is_struct = bool(m.group(2))
        self.base = m.group(3)
        self.ptr = bool(m.group(4))
        self.name = m.group(5)
        self.kind = None
        self.optional = 0  # 0 required, 1 optional, 2 conditional
        self.len_index = -1
        self.unit = None
        self.exempt = False
        self.init_fn = None

    def ctype(self):
        return ("const " if self.const else "") + ("struct " if self.is_struct else "") + \
            self.base + (" *" if self.ptr else "")


class Field:
    def __init__(self, ftype, name, array, pointer):
        self.type, self.name, self.array, self.pointer = ftype, name, array, pointer


class Func:
    def __init__(self, ret, name, params, doc):
        self.ret = " ".join(ret.split())
        self.name = name
        self.params = params
        self.doc = doc
        self.statuses = set(re.findall(r"\b(ARBOR_[A-Z0-9_]+)\b", doc))
        self.before_safety = doc.split("# Safety")[0]


def read_header(path):
    text = open(path, encoding="utf-8").read()
    statuses = {}
    m = re.search(r"enum arbor_status\b.*?\{(.*?)\};", text, re.S)
    if not m:
        raise GenError("no enum arbor_status in the header")
    for name, value in re.findall(r"\b(ARBOR_[A-Z0-9_]+)\s*=\s*(\d+)", m.group(1)):
        statuses[name] = int(value)
    structs = {}
    fnptrs = set(re.findall(r"typedef\s+[\w\s\*]+\(\s*\*\s*(\w+)\s*\)", text))
    for m in re.finditer(r"\bstruct\s+(arbor_\w+)\s*\{(.*?)\n\}", text, re.S):
        body = re.sub(r"/\*.*?\*/", "", m.group(2), flags=re.S)
        body = re.sub(r"//[^\n]*", "", body)
        fields = []
        for decl in body.split(";"):
            decl = " ".join(decl.split())
            if not decl:
                continue
            fm = re.match(r"^(.*?)\s*\b(\w+)\s*(\[[^\]]*\])?$", decl)
            if not fm:
                raise GenError("struct %s: cannot read field %r" % (m.group(1), decl))
            ftype = fm.group(1)
            is_pointer = "*" in ftype or ftype.split()[-1] in fnptrs
            fields.append(Field(ftype, fm.group(2), bool(fm.group(3)), is_pointer))
        structs[m.group(1)] = fields
    funcs = []
    proto = re.compile(
        r"(/\*\*(?:(?!\*/).)*\*/)\s*((?:ARBOR_NODISCARD\s+)?(?:const\s+)?[\w]+\s*\**)\s*"
        r"\b(arbor_\w+)\s*\(([^()]*)\)\s*ARBOR_NOEXCEPT\s*;", re.S)
    for m in proto.finditer(text):
        doc = "\n".join(re.sub(r"^\s*\*\s?", "", line)
                        for line in m.group(1)[3:-2].splitlines()).strip()
        ret = m.group(2).replace("ARBOR_NODISCARD", "").strip()
        plist = " ".join(m.group(4).split())
        params = [] if plist in ("", "void") else \
            [Param(p, i) for i, p in enumerate(plist.split(","))]
        funcs.append(Func(ret, m.group(3), params, doc))
    # Every prototype must have been read: count the names followed by '(' at line starts.
    declared = set(re.findall(r"^[A-Za-z][\w\s\*]*?\b(arbor_\w+)\(", text, re.M))
    missing = declared - {f.name for f in funcs}
    if missing:
        raise GenError("prototypes the generator could not read (no doc comment or "
                       "ARBOR_NOEXCEPT?): %s" % ", ".join(sorted(missing)))
    defines = set(re.findall(r"#define\s+(ARBOR_\w+)", text))
    return statuses, structs, funcs, defines


def scalar_spec(func, param):
    spec = SCALARS.get("%s:%s" % (func.name, param.name))
    if spec is None:
        for key, value in SCALARS.items():
            if key.endswith("*:" + param.name) and func.name.startswith(key.split("*")[0]):
                spec = value
    if spec is None:
        spec = SCALARS.get(param.name)
    if spec is None:
        raise GenError("%s: scalar parameter `%s %s` has no valid value in SCALARS "
                       "(generate.py): add one" % (func.name, param.base, param.name))
    return spec


def sentences(text):
    return re.split(r"(?<=[.])\s+", " ".join(text.split()))


def classify(funcs, structs):
    by_name = {f.name: f for f in funcs}
    inits = [f for f in funcs if f.name.endswith("_init") and f.params
             and f.params[0].ptr and f.params[0].base == "void"]
    for f in funcs:
        ps = f.params
        if f.ret not in ("arbor_status", "size_t", "uint8_t", "uint16_t", "uint32_t",
                         "uint64_t", "const char *", "const char*"):
            raise GenError("%s: return type %r is not understood" % (f.name, f.ret))
        if f.ret != "arbor_status" and any(p.ptr for p in ps):
            raise GenError("%s returns %s but takes pointers: say how to check it"
                           % (f.name, f.ret))
        # Lengths first.
        for i, p in enumerate(ps):
            if p.ptr and i + 1 < len(ps) and not ps[i + 1].ptr and ps[i + 1].base == "size_t" \
                    and LEN_RE.match(ps[i + 1].name):
                p.len_index = i + 1
                ps[i + 1].kind = "length"
                ps[i + 1].len_of = i
            key = "%s:%s" % (f.name, p.name)
            if key in SIZED_BY:
                target = [q for q in ps if q.name == SIZED_BY[key]]
                if not target:
                    raise GenError("SIZED_BY %s names no parameter" % key)
                p.len_index = target[0].index
        for i, p in enumerate(ps):
            key = "%s:%s" % (f.name, p.name)
            if p.kind == "length":
                continue
            if not p.ptr:
                if p.base not in SCALAR_TYPES:
                    raise GenError("%s: parameter %r has a type the generator does not know"
                                   % (f.name, p.text))
                p.kind = "scalar"
                p.spec = scalar_spec(f, p)
                continue
            sized = p.len_index >= 0
            if p.is_struct:
                if p.base not in structs:
                    raise GenError("%s: struct %s is not defined in the header" % (f.name, p.base))
                if sized and key not in SIZED_BY:
                    raise GenError("%s: %s is an array of structs" % (f.name, p.name))
                if p.const:
                    p.kind = "struct_in"
                elif p.name.startswith("out") or any(f.name.endswith(s) for s in CONSTRUCTOR_SUFFIXES):
                    p.kind = "struct_out"
                else:
                    p.kind = "struct_inout"
            elif p.base == "void":
                if p.const or not sized:
                    raise GenError("%s: %r: a void pointer without a length" % (f.name, p.text))
                scratch_doc = any("scratch" in sen and re.findall(r"`\*?(\w+)`", sen)[:1] == [p.name]
                                  for sen in sentences(f.before_safety))
                if f in inits and i == 0:
                    p.kind = "handle_prep"
                elif scratch_doc:
                    p.kind = "scratch"  # "a scratch buffer ..., any contents"
                else:
                    best = None
                    # A buffer the doc says another init prepares ("`game` (a game buffer
                    # prepared by `arbor_go_game_init`"): that init, not the function's own.
                    named = re.search(r"`%s` \([^()`]*prepared by `(arbor_\w+_init)`" % re.escape(p.name),
                                      " ".join(f.doc.split()))
                    if named and by_name.get(named.group(1)) in inits and named.group(1) != f.name:
                        best = by_name[named.group(1)]
                    for init in ([] if best else inits):
                        prefix = init.name[:-len("_init")] + "_"
                        if f.name.startswith(prefix) and (best is None or len(init.name) > len(best.name)):
                            best = init
                    if best is None:
                        for named in re.findall(r"`(arbor_\w+_init)`", f.doc):
                            cand = by_name.get(named)
                            if cand in inits:
                                best = cand
                                break
                    if best is None:
                        p.kind = "scratch"
                    else:
                        p.kind = "handle"
                        p.init_fn = best.name
            elif p.base in SCALAR_TYPES or p.base == "char":
                if sized:
                    p.kind = "buf_in" if p.const else "buf_out"
                elif p.const and p.base == "char":
                    p.kind = "cstring"
                elif p.const:
                    raise GenError("%s: %r is a const pointer without a length" % (f.name, p.text))
                else:
                    p.kind = "scalar_out"
            else:
                raise GenError("%s: parameter %r has a type the generator does not know"
                               % (f.name, p.text))
            p.unit = UNITS.get(key)
            # Optional or conditional?
            name = re.escape(p.name)
            doc = " ".join(f.before_safety.split())
            if p.name in OPTIONAL_NAMES or re.search(
                    r"`\*?%s` may be NULL(?! when| with)|`\*?%s` \(may be NULL\)|if `\*?%s` is not NULL"
                    r"|`\*?%s` \(if not NULL\)|`\*?%s`,? if (?:that|it) is not NULL" % ((name,) * 5), doc):
                p.optional = 1
            for s in sentences(f.before_safety):
                if re.search(r"may then be NULL|may be NULL (when|with)", s):
                    first = re.findall(r"`\*?(\w+)`", s)
                    if first and first[0] == p.name:
                        p.optional = max(p.optional, 2) if p.optional != 1 else 1
            if p.name in WRITTEN_ON_ERROR or re.search(r"`\*%s` (receives|holds)" % name, doc):
                p.exempt = True
    return inits


def key_input(f, p):
    spec = INPUTS.get("%s:%s" % (f.name, p.name))
    for key, value in INPUTS.items():
        if spec is None and key.endswith("*:" + p.name) and f.name.startswith(key.split("*")[0]):
            spec = value
    return spec


def corpus_of(fname):
    d = os.path.join(ROOT, "ffi-tests", "fuzz", "corpus", TEXT_SOURCE.get(fname, fname))
    if not os.path.isdir(d):
        return None
    out = []
    for n in sorted(os.listdir(d)):
        with open(os.path.join(d, n), "rb") as fh:
            out.append(fh.read())
    return out


def c_bytes(data):
    return "\"" + "".join("\\x%02x" % b for b in data) + "\""


def c_u64(v):
    return "UINT64_C(%d)" % v


KINDS = ["scalar", "length", "struct_in", "struct_out", "struct_inout", "scalar_out", "buf_in",
         "buf_out", "handle", "handle_prep", "scratch", "cstring"]


def generate_tables(statuses, structs, funcs, inits, defines, fuzz=False):
    """The C tables the runtime reads: structs, functions, parameters, thunks, inputs."""
    out = []
    w = out.append
    fidx = {f.name: i for i, f in enumerate(funcs)}
    needed_structs = sorted({p.base for f in funcs for p in f.params if p.is_struct})
    sidx = {s: i for i, s in enumerate(needed_structs)}
    w("/* Generated by ffi-tests/hostile/generate.py from include/arbor.h: do not edit. */")
    w("#define N_FUNCS %d" % len(funcs))
    if "arbor_parse_error" in structs:
        w("#define HAVE_PARSE_ERROR 1")
    w("#define N_STRUCTS %d" % len(needed_structs))
    w("static const char *const status_names[16] = {%s};" % ", ".join(
        "\"%s\"" % next((n for n, v in statuses.items() if v == k), "?") for k in range(16)))
    if sorted(statuses.values()) != list(range(16)):
        raise GenError("arbor_status is no longer 0..=15: update KNOWN_STATUSES in the runtime")
    # Structs and their constructors.
    w("static struct_info structs[N_STRUCTS + 1] = {")
    for s in needed_structs:
        fields = structs[s]
        has_magic = len(fields) >= 2 and fields[0].name == "magic" and fields[1].name == "version"
        fixes = []
        for fld in fields:
            if fld.pointer:
                fixes.append("{offsetof(struct %s, %s), sizeof(((struct %s *)0)->%s), 0, 0, 0}"
                             % (s, fld.name, s, fld.name))
            elif fld.name in STRUCT_WORK_FIELDS and not fld.array:
                lo, mod = STRUCT_WORK_FIELDS[fld.name]
                fixes.append("{offsetof(struct %s, %s), sizeof(((struct %s *)0)->%s), 1, %d, %d}"
                             % (s, fld.name, s, fld.name, lo, mod))
        if len(fixes) > 4:
            raise GenError("struct %s: more than 4 pointer or work fields" % s)
        fixes += ["{0, 0, 0, 0, 0}"] * (4 - len(fixes))
        # Fields arbor writes as zero ("reserved"), checked in every struct it fills.
        reserved = ["{offsetof(struct %s, %s), sizeof(((struct %s *)0)->%s), 0, 0, 0}"
                    % (s, fld.name, s, fld.name) for fld in fields if fld.name.startswith("reserved")]
        if len(reserved) > 4:
            raise GenError("struct %s: more than 4 reserved fields" % s)
        reserved += ["{0, 0, 0, 0, 0}"] * (4 - len(reserved))
        ctor = None
        for suffix in CONSTRUCTOR_SUFFIXES:
            for f in funcs:
                if f.name.endswith(suffix) and any(p.base == s and p.kind == "struct_out" for p in f.params):
                    ctor = (f, [p for p in f.params if p.base == s and p.kind == "struct_out"][0])
                    break
            if ctor:
                break
        used_in = any(p.base == s and p.kind in ("struct_in", "struct_inout") for f in funcs for p in f.params)
        if used_in and ctor is None:
            raise GenError("no constructor for struct %s (a function ending in one of %s with a "
                           "non-const `struct %s *` output)" % (s, CONSTRUCTOR_SUFFIXES, s))
        w("  {\"%s\", sizeof(struct %s), %d, %s, %s, %d, %d, {%s}, {%s}}," % (
            s, s, int(has_magic),
            "offsetof(struct %s, magic)" % s if has_magic else "0",
            "offsetof(struct %s, version)" % s if has_magic else "0",
            fidx[ctor[0].name] if ctor else -1, ctor[1].index if ctor else -1, ", ".join(fixes),
            ", ".join(reserved)))
    w("  {0, 0, 0, 0, 0, -1, -1, {{0, 0, 0, 0, 0}}, {{0, 0, 0, 0, 0}}}};")
    # Valid inputs.
    inputs = []  # (func index, param index, list of (bytes, length)) or field spec
    for fi, f in enumerate(funcs):
        for p in f.params:
            if p.kind in ("buf_in", "cstring"):
                spec = key_input(f, p)
                if spec and spec[0] == "bytes":
                    inputs.append((fi, p.index, "bytes", [(bytes(spec[1]), spec[2])]))
                elif spec and spec[0] == "field":
                    inputs.append((fi, p.index, "field", spec))
                else:
                    texts = corpus_of(f.name)
                    if not texts:
                        raise GenError("%s: no valid content for input `%s`: add a corpus "
                                       "ffi-tests/fuzz/corpus/%s/ or a line in INPUTS/TEXT_SOURCE"
                                       % (f.name, p.name, f.name))
                    unit = p.unit or 1
                    inputs.append((fi, p.index, "bytes", [(t, len(t) // unit) for t in texts]))
    for k, (fi, pi, how, items) in enumerate(inputs):
        if how == "bytes":
            refs = []
            for j, (b, n) in enumerate(items):
                # C99 promises string literals of 4095 bytes only: longer inputs (the equity
                # ranges) are arrays.
                if len(b) > 4095:
                    w("static const unsigned char input_bytes_%d_%d[] = {%s};"
                      % (k, j, ", ".join("%d" % x for x in b)))
                    refs.append("{(const char *)input_bytes_%d_%d, %d, %d}" % (k, j, len(b), n))
                else:
                    refs.append("{%s, %d, %d}" % (c_bytes(b), len(b), n))
            w("static const valid_text inputs_%d[] = {%s, {0, 0, 0}};" % (k, ", ".join(refs)))
    # Field-sourced inputs are a function each.
    for k, (fi, pi, how, spec) in enumerate(inputs):
        if how == "field":
            _, sname, data, length = spec
            w("static void field_input_%d(const unsigned char *image, const unsigned char **data, "
              "size_t *len) {" % k)
            w("    const struct %s *s = (const struct %s *)(const void *)image;" % (sname, sname))
            w("    *data = (const unsigned char *)s->%s;" % data)
            w("    *len = (size_t)s->%s;" % length)
            w("}")
    # Thunks.
    for fi, f in enumerate(funcs):
        args = []
        for p in f.params:
            if p.ptr:
                args.append("(%s)p[%d]" % (p.ctype(), p.index))
            else:
                args.append("(%s)v[%d]" % (p.base, p.index))
        call = "%s(%s)" % (f.name, ", ".join(args))
        w("static uint32_t thunk_%d(void **p, const uint64_t *v) {" % fi)
        w("    (void)p; (void)v;")
        if f.ret == "arbor_status":
            w("    return (uint32_t)%s;" % call)
        elif "char" in f.ret:
            w("    { const char *s = %s; last_value = s ? (uint64_t)strlen(s) + 1 : 0; }" % call)
            w("    return 0;")
        else:
            w("    last_value = (uint64_t)%s;" % call)
            w("    return 0;")
        w("}")
    # Functions and parameters.
    w("static func_info funcs[N_FUNCS] = {")
    for fi, f in enumerate(funcs):
        doc_mask = 0
        for s in f.statuses:
            if s in statuses:
                doc_mask |= 1 << statuses[s]
        w("  {\"%s\", %d, %d, %d, thunk_%d, 0x%x, {" % (
            f.name, len(f.params), int(f.ret == "arbor_status"),
            int(f.name.endswith("_parse")), fi, doc_mask))
        for p in f.params:
            spec = getattr(p, "spec", None) or {}
            value = spec.get("value", 0)
            scan = isinstance(value, tuple)
            rng = spec.get("range")
            cap = spec.get("cap")
            elem = "1" if p.base in ("void", "char") else "sizeof(%s)" % (
                ("struct " + p.base) if p.is_struct else p.base)
            inp = -1
            field = "0"
            for k, (ifi, ipi, how, items) in enumerate(inputs):
                if ifi == fi and ipi == p.index:
                    inp = k
                    if how == "field":
                        field = "field_input_%d" % k
            w("    {\"%s\", K_%s, %d, %d, %d, %s, %s, %d, %d, %d, %d, %d, %s, %s, %s, %d, %s, %s, %d, "
              "%s, %s, %s, %s, %d, %d}," % (
                  p.name, p.kind.upper(), int(p.ptr), p.optional, int(p.const), elem,
                  str(p.unit or 0), p.len_index, sidx.get(p.base, -1) if p.is_struct else
                  (sidx[key_input(f, p)[1]] if field != "0" else -1),
                  int(p.exempt), SCALAR_TYPES.get(p.base, 0) if not p.ptr else 0,
                  int(bool(rng)), c_u64(rng[0]) if rng else "0",
                  (c_u64(rng[1]) if isinstance(rng[1], int) else "(uint64_t)" + rng[1]) if rng else "0",
                  rng[2] if rng else "0", int(cap is not None), c_u64(cap) if cap is not None else "0",
                  c_u64(value[1] if scan else value), int(scan), c_u64(value[2]) if scan else "0",
                  "inputs_%d" % inp if inp >= 0 and field == "0" else "0", field,
                  "%d" % fidx[p.init_fn] if p.init_fn else "-1",
                  int(p.base == "char" and p.kind == "buf_out"),
                  int(p.is_struct and p.base == "arbor_parse_error")))
        if not f.params:
            w("    {0}")
        w("  }},")
    w("};")
    # Regressions.
    w("static const regression regressions[] = {")
    for name, fnames, sets, text, expect in REGRESSIONS:
        fname = next((n for n in fnames.split("|") if n in fidx), fnames)
        f = next((g for g in funcs if g.name == fname), None)
        if f is None:
            raise GenError("issue-15 regression %r: function %s is not in the header any more: "
                           "say where the check went" % (name, fname))
        for pname in sets:
            if not any(p.name == pname for p in f.params):
                raise GenError("regression %r: %s has no parameter %s" % (name, fname, pname))
        pname, value = (list(sets.items()) + [("", 0)])[0]
        w("  {\"%s\", %d, \"%s\", %s, %s, %d, %s}," % (
            name, fidx[fname], pname, c_u64(value), c_bytes(text.encode()) if text else "0",
            len(text) if text else 0, expect))
    w("  {0, 0, 0, 0, 0, 0, 0}};")
    return "\n".join(out) + "\n"


def known_table():
    path = os.path.join(HERE, "known-deviations.txt")
    rows = []
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            line = line.split("#")[0].strip()
            if line:
                parts = line.split()
                if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] != "rare"):
                    raise GenError("known-deviations.txt: want 'function check [rare]', got %r" % line)
                rows.append(parts + ["common"] * (3 - len(parts)))
    return "static known_deviation known[] = {%s{0, 0, 0, 0}};\n" % "".join(
        "{\"%s\", \"%s\", %d, 0}, " % (a, b, int(c == "rare")) for a, b, c in rows)


def fuzz_targets(funcs):
    """(name, kind, function, parameter, struct type, corpus directory name) of every fuzz
    target: one per text input with a corpus (the parsers, kind 1), one per struct type some
    function reads (kind 2), one per caller buffer (kind 3); unused fields are 0."""
    targets = []
    needed_structs = sorted({p.base for f in funcs for p in f.params if p.is_struct})
    sidx = {s: i for i, s in enumerate(needed_structs)}
    fidx = {f.name: i for i, f in enumerate(funcs)}
    for fi, f in enumerate(funcs):
        for p in f.params:
            if p.kind in ("buf_in", "cstring") and key_input(f, p) is None:
                name = f.name if sum(1 for q in f.params if q.kind in ("buf_in", "cstring")) == 1 \
                    else "%s-%s" % (f.name, p.name)
                targets.append((name, 1, fi, p.index, 0, TEXT_SOURCE.get(f.name, f.name)))
    read = sorted({p.base for f in funcs for p in f.params
                   if p.kind in ("struct_in", "struct_inout")})
    for s in read:
        targets.append(("struct_" + s, 2, 0, 0, sidx[s], "struct_" + s))
    inits = sorted({p.init_fn for f in funcs for p in f.params if p.kind == "handle"})
    for init in inits:
        targets.append(("buffer_" + init, 3, fidx[init], 0, 0, "buffer_" + init))
    return targets


def write_fuzz_targets(directory, funcs, program):
    """Writes every target into one program, fuzz_targets.c (ARBOR_FUZZ_TARGET picks one when
    it runs), and targets.txt, the list of targets and their corpus directories."""
    os.makedirs(directory, exist_ok=True)
    targets = fuzz_targets(funcs)
    with open(os.path.join(directory, "fuzz_targets.c"), "w", encoding="utf-8") as fh:
        fh.write("/* libFuzzer targets, generated by ffi-tests/hostile/generate.py --fuzz from\n"
                 " * include/arbor.h: do not edit; .ci/fuzz.sh regenerates it. */\n"
                 "#define FUZZ_TARGETS 1\n"
                 "typedef struct { const char *name; int kind, fn, param, type; } fuzz_target;\n"
                 "static const fuzz_target fuzz_target_list[] = {\n")
        for name, kind, fi, param, stype, _ in targets:
            fh.write("    {\"%s\", %d, %d, %d, %d},\n" % (name, kind, fi, param, stype))
        fh.write("    {0, 0, 0, 0, 0}};\n")
        fh.write(program)
    with open(os.path.join(directory, "targets.txt"), "w", encoding="utf-8") as fh:
        fh.write("# target corpus-directory (generated by generate.py --fuzz)\n")
        fh.writelines("%s %s\n" % (t[0], t[5]) for t in targets)


def explain(funcs):
    for f in funcs:
        print("%s -> %s" % (f.name, f.ret))
        for p in f.params:
            extra = []
            if p.ptr:
                extra.append(["required", "optional", "conditional"][p.optional])
            if p.len_index >= 0:
                extra.append("length %s" % f.params[p.len_index].name)
            if p.exempt:
                extra.append("may be written on error")
            if p.init_fn:
                extra.append("prepared by %s" % p.init_fn)
            print("    %-16s %-14s %s" % (p.name, p.kind, ", ".join(extra)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--header", default=os.path.join(ROOT, "include", "arbor.h"))
    ap.add_argument("--out", help="write the hostile test program here")
    ap.add_argument("--fuzz", help="write the libFuzzer targets into this directory")
    ap.add_argument("--explain", action="store_true", help="print the classification")
    args = ap.parse_args()
    try:
        statuses, structs, funcs, defines = read_header(args.header)
        inits = classify(funcs, structs)
        if args.explain:
            explain(funcs)
        tables = generate_tables(statuses, structs, funcs, inits, defines)
        if args.out:
            runtime = open(os.path.join(HERE, "hostile_runtime.h"), encoding="utf-8").read()
            with open(args.out, "w", encoding="utf-8") as fh:
                fh.write("/* Generated by ffi-tests/hostile/generate.py: do not edit. */\n")
                fh.write("#define HOSTILE_MAIN 1\n")
                fh.write(runtime.replace("/*@TABLES@*/", tables + known_table()))
        if args.fuzz:
            runtime = open(os.path.join(HERE, "hostile_runtime.h"), encoding="utf-8").read()
            write_fuzz_targets(args.fuzz, funcs, runtime.replace("/*@TABLES@*/", tables + known_table()))
    except GenError as error:
        sys.stderr.write("generate.py: %s\n" % error)
        sys.exit(2)


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    main()
