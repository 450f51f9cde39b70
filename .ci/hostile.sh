#!/usr/bin/env bash
# The hostile-input test of the C ABI (issue 15; see docs/fuzzing.md) against a static
# library CI has already built, by default the no_std one of the embedded profile
# (`cargo build --profile embedded --no-default-features --lib`). `cargo test` runs the same
# test against the std library (tests/ffi_hostile.rs); this covers the build without
# threads or clock, where those calls answer ARBOR_UNSUPPORTED or refuse a thread count.
#
#     .ci/hostile.sh [libarbor.a] [seconds]      (default: the embedded library, 6 s)
#
# Compiles the generated program plain and with ASan+UBSan and runs both at once; fails on any
# failed check, crash, sanitizer report or hang. Needs python3 and gcc.
set -euo pipefail
cd "$(dirname "$0")/.."
lib=${1:-${CARGO_TARGET_DIR:-target}/embedded/libarbor.a}
seconds=${2:-6}
[ -f "$lib" ] || { echo "hostile.sh: no $lib (build it first)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "hostile.sh: python3 is missing" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 ffi-tests/hostile/generate.py --out "$out/hostile.c"
flags=(-std=c99 -Wall -Wextra -Werror -pedantic -O1 -g -Iinclude)
gcc "${flags[@]}" "$out/hostile.c" "$lib" -lpthread -ldl -lm -o "$out/hostile" &
plain=$!
gcc "${flags[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
    "$out/hostile.c" "$lib" -lpthread -ldl -lm -o "$out/hostile-san" &
sanitized=$!
wait "$plain"
wait "$sanitized"
# The two runs go side by side (each is bounded by its time budget), their output in turn.
for exe in hostile hostile-san; do
    ARBOR_HOSTILE_SECONDS=$seconds "$out/$exe" > "$out/$exe.log" 2>&1 &
    echo $! > "$out/$exe.pid"
done
failed=0
for exe in hostile hostile-san; do
    status=0
    wait "$(cat "$out/$exe.pid")" || status=$?
    echo "== $exe against $lib"
    grep -v '^  arbor_' "$out/$exe.log" || true
    [ "$status" = 0 ] || { echo "hostile.sh: $exe failed (exit $status)" >&2; failed=1; }
done
exit $failed
