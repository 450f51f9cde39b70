#!/usr/bin/env bash
# The hostile-input test of the C ABI (issue 15; see docs/fuzzing.md) against a static
# library CI has already built, by default the no_std one of the embedded profile
# (`cargo build --profile embedded --no-default-features --lib`). `cargo test` runs the same
# test against the std library (tests/ffi_hostile.rs); this covers the build without
# threads or clock, where those calls answer ARBOR_UNSUPPORTED or refuse a thread count.
#
#     .ci/hostile.sh [libarbor.a] [seconds]      (default: the embedded library, 6 s)
#
# Compiles the generated program plain and with ASan+UBSan and runs both; fails on any
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
gcc "${flags[@]}" "$out/hostile.c" "$lib" -lpthread -ldl -lm -o "$out/hostile"
gcc "${flags[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
    "$out/hostile.c" "$lib" -lpthread -ldl -lm -o "$out/hostile-san"
for exe in hostile hostile-san; do
    echo "== $exe against $lib"
    ARBOR_HOSTILE_SECONDS=$seconds "$out/$exe" | grep -v '^  arbor_'
done
