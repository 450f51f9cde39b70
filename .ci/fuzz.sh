#!/usr/bin/env bash
# Fuzzes the C ABI on the stable toolchain (issue 15): builds libarbor.a with libFuzzer's
# coverage instrumentation (rustc's sancov pass, plus debug assertions and overflow checks so
# that a Rust precondition or overflow aborts), generates one libFuzzer target per parser
# text input, per by-value struct some function reads, and per caller buffer from
# include/arbor.h (ffi-tests/hostile/generate.py --fuzz ffi-tests/fuzz), links each with
# clang -fsanitize=fuzzer,address,undefined, and runs each for a bounded time from the seed
# corpus in ffi-tests/fuzz/corpus/<target>/. Fails on any crash, sanitizer report, failed
# check or timeout; the input that did it is left in $out/artifacts/.
#
#     .ci/fuzz.sh [seconds-per-target]        (default 10)
#
# Environment: CLANG (default clang), ARBOR_FUZZ_DIR (build directory, default
# ${CARGO_TARGET_DIR:-target}/fuzz), ARBOR_FUZZ_ONLY (run one target), ARBOR_FUZZ_SKIP
# (space-separated targets not to run, say while a reported crash waits for its fix).
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
# --target keeps RUSTFLAGS off the build script, which must link without libFuzzer.
RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cdebug-assertions=on -Coverflow-checks=on" \
    cargo build --release --lib --target "$host" --target-dir "$out/cargo"
lib="$out/cargo/$host/release/libarbor.a"

mkdir -p "$out/bin" "$out/corpus" "$out/artifacts"
total_execs=0
failed=()
start=$(date +%s)
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
    "$clang" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
        -Wno-unused -Iinclude "ffi-tests/fuzz/$target.c" "$lib" -lpthread -ldl -lm \
        -o "$out/bin/$target"
    mkdir -p "$out/corpus/$target"
    log="$out/$target.log"
    echo "== $target: ${seconds}s from $seeds"
    if "$out/bin/$target" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="$out/artifacts/$target-" \
        "$out/corpus/$target" "$seeds" >"$log" 2>&1; then
        :
    else
        failed+=("$target")
        grep -E 'FAIL |ERROR|SUMMARY|runtime error|panicked|Test unit written' "$log" | head -20
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -E '^#[0-9]+.*(DONE|cov:)' "$log" | tail -1 | grep -o 'cov: [0-9]*' || true)
    echo "   ${execs:-0} execs, $cov"
    total_execs=$((total_execs + ${execs:-0}))
done < ffi-tests/fuzz/targets.txt
elapsed=$(( $(date +%s) - start ))
echo "== fuzz: $total_execs execs in ${elapsed}s"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: FAILED: ${failed[*]} (logs in $out/*.log, inputs in $out/artifacts/)" >&2
    exit 1
fi
echo "fuzz: no crash"
