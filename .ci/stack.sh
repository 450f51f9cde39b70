#!/usr/bin/env bash
# Measures the stack every exported function needs (ffi-tests/stack/measure.c) against the
# no_std library embedded targets link, then the std one, and fails if a call needs more than
# its area's ARBOR_..._STACK_BYTES in include/arbor.h. Prints the table docs/c-abi.md quotes.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cargo build --quiet --profile embedded --no-default-features --lib
cargo build --quiet --release --lib
flags=(-std=c99 -O1 -Wall -Wextra -Werror -pedantic -Iinclude -Iffi-tests/stack)
gcc "${flags[@]}" ffi-tests/stack/measure.c "$target/embedded/libarbor.a" -lpthread -o "$out/no_std"
gcc "${flags[@]}" ffi-tests/stack/measure.c "$target/release/libarbor.a" -lpthread -ldl -lm -o "$out/std"
echo "== no_std library (target/embedded/libarbor.a)"
"$out/no_std"
echo "== std library (target/release/libarbor.a)"
"$out/std"
