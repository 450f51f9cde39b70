#!/usr/bin/env bash
# Fuzzes the C ABI on the stable toolchain (issue 15): builds libarbor.a with libFuzzer's
# coverage instrumentation (rustc's sancov pass, plus debug assertions and overflow checks so
# that a Rust precondition or overflow aborts), generates one libFuzzer target per parser
# text input, per by-value struct some function reads, and per caller buffer from
# include/arbor.h (ffi-tests/hostile/generate.py --fuzz ffi-tests/fuzz), all in one program
# that clang -fsanitize=fuzzer,address,undefined builds once (ARBOR_FUZZ_TARGET picks the
# target when it runs), and runs each for a bounded time from the seed corpus in
# ffi-tests/fuzz/corpus/<target>/, one target per core at a time. Fails on any
# crash, sanitizer report, failed check or timeout; the input that did it is left in
# $out/artifacts/.
#
#     .ci/fuzz.sh [seconds-per-target]        (default 10)
#
# Environment: CLANG (default clang), ARBOR_FUZZ_DIR (build directory, default
# ${CARGO_TARGET_DIR:-target}/fuzz), ARBOR_FUZZ_JOBS (targets at a time, default nproc),
# ARBOR_FUZZ_ONLY (run one target), ARBOR_FUZZ_SKIP (space-separated targets not to run, say
# while a reported crash waits for its fix).
# See docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
clang=${CLANG:-clang}
out=${ARBOR_FUZZ_DIR:-${CARGO_TARGET_DIR:-target}/fuzz}
host=$(rustc -vV | sed -n 's/^host: //p')

for tool in "$clang" python3 cargo rustc; do
    command -v "$tool" >/dev/null || { echo "fuzz.sh: missing $tool" >&2; exit 1; }
done

echo "== generate the targets from include/arbor.h"
python3 ffi-tests/hostile/generate.py --fuzz ffi-tests/fuzz

echo "== libarbor.a with coverage instrumentation ($out)"
# --target keeps RUSTFLAGS off the build script, which must link without libFuzzer. The
# release profile's whole-program LTO would only slow this build down: it is turned off here.
CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cdebug-assertions=on -Coverflow-checks=on" \
    cargo build --release --lib --target "$host" --target-dir "$out/cargo"
lib="$out/cargo/$host/release/libarbor.a"

mkdir -p "$out/bin" "$out/corpus" "$out/artifacts"
targets=()
corpora=()
while read -r target corpus; do
    case "$target" in ''|'#'*) continue ;; esac
    if [ -n "${ARBOR_FUZZ_ONLY:-}" ] && [ "$target" != "$ARBOR_FUZZ_ONLY" ]; then continue; fi
    case " ${ARBOR_FUZZ_SKIP:-} " in
        *" $target "*) echo "== $target: SKIPPED (ARBOR_FUZZ_SKIP)"; continue ;;
    esac
    seeds="ffi-tests/fuzz/corpus/$corpus"
    if [ ! -d "$seeds" ]; then
        # A new struct or buffer target: the valid value (XOR of nothing) and raw zeros.
        mkdir -p "$seeds"
        printf '\000' > "$seeds/valid"
        printf '\001' > "$seeds/zeros"
        echo "fuzz.sh: created seed corpus $seeds (commit it)"
    fi
    targets+=("$target")
    corpora+=("$corpus")
done < ffi-tests/fuzz/targets.txt

# One program holds every target: compiling it once instead of once a target saved most of
# a minute of CI (the generated tables dominate the compile; the link is short).
fuzzer="$out/bin/fuzz_targets"
if ! "$clang" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -Wno-unused -Iinclude ffi-tests/fuzz/fuzz_targets.c "$lib" -lpthread -ldl -lm \
    -o "$fuzzer" > "$out/build.log" 2>&1; then
    echo "fuzz: the fuzz program did not compile:" >&2
    head -20 "$out/build.log" >&2
    exit 1
fi

# Runs one target; leaves its report in $out/<target>.report and its number of executions
# in $out/<target>.execs, and exits non-zero if it failed.
fuzz_one() {
    local target=$1 seeds="ffi-tests/fuzz/corpus/$2" log="$out/$1.log" report="$out/$1.report"
    echo "== $target: ${seconds}s from $seeds" > "$report"
    echo 0 > "$out/$target.execs"
    mkdir -p "$out/corpus/$target"
    local status=0
    ARBOR_FUZZ_TARGET="$target" "$fuzzer" -max_total_time="$seconds" -timeout=20 \
        -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="$out/artifacts/$target-" \
        "$out/corpus/$target" "$seeds" > "$log" 2>&1 || status=$?
    if [ "$status" != 0 ]; then
        grep -E 'FAIL |ERROR|SUMMARY|runtime error|panicked|Test unit written' "$log" |
            head -20 >> "$report" || true
    fi
    local execs cov
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -E '^#[0-9]+.*(DONE|cov:)' "$log" | tail -1 | grep -o 'cov: [0-9]*' || true)
    echo "   ${execs:-0} execs, $cov" >> "$report"
    echo "${execs:-0}" > "$out/$target.execs"
    return "$status"
}

# ARBOR_FUZZ_JOBS targets at a time (default: one per core), each with its own corpus.
jobs_max=${ARBOR_FUZZ_JOBS:-$(nproc)}
start=$(date +%s)
for index in "${!targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
    rm -f "$out/${targets[index]}.ok"
    ( fuzz_one "${targets[index]}" "${corpora[index]}" && touch "$out/${targets[index]}.ok" ) &
done
wait
elapsed=$(( $(date +%s) - start ))
total_execs=0
failed=()
for target in "${targets[@]}"; do
    cat "$out/$target.report"
    [ -f "$out/$target.ok" ] || failed+=("$target")
    total_execs=$((total_execs + $(cat "$out/$target.execs")))
done
echo "== fuzz: $total_execs execs in ${elapsed}s (${jobs_max} at a time)"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: FAILED: ${failed[*]} (logs in $out/*.log, inputs in $out/artifacts/)" >&2
    exit 1
fi
echo "fuzz: no crash"
