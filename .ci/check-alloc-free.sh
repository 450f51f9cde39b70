#!/usr/bin/env bash
# Proves the no_std core is embedded-fit: builds the static library without default
# features, links every exported arbor_ function out of it with `ld -r -u`, and fails if
# the result needs any symbol beyond memcpy/memmove/memset/memcmp/bcmp. An allocation shows
# up as an undefined allocator symbol (__rust_alloc, __rdl_alloc, malloc, ...).
#
# `--self-test` shows that the check can fail: it builds a tiny no_std static library whose
# one arbor_ function allocates through a global allocator backed by malloc, and expects
# the check to reject it.
set -euo pipefail
cd "$(dirname "$0")/.."

allowed='^(memcpy|memmove|memset|memcmp|bcmp)$'

# check_archive LIB: exit 0 if the arbor_ functions of LIB need only the allowed symbols.
check_archive() {
    local lib=$1 work
    work=$(mktemp -d)
    readelf -Ws "$lib" 2>/dev/null |
        awk '$4 == "FUNC" && $5 == "GLOBAL" && $7 != "UND" && $8 ~ /^arbor_/ { print $8 }' |
        sort -u > "$work/exports"
    if [ ! -s "$work/exports" ]; then
        echo "check-alloc-free: no exported arbor_ functions in $lib" >&2
        rm -rf "$work"; return 1
    fi
    local undefined_args=()
    while read -r symbol; do undefined_args+=(-u "$symbol"); done < "$work/exports"
    ld -r "${undefined_args[@]}" "$lib" -o "$work/linked.o"
    readelf -Ws "$work/linked.o" |
        awk '$7 == "UND" && $8 != "" { print $8 }' | sort -u |
        grep -Ev "$allowed" > "$work/extra" || true
    local exports
    exports=$(wc -l < "$work/exports")
    if [ -s "$work/extra" ]; then
        echo "check-alloc-free: $lib: the $exports arbor_ functions need symbols outside the core:" >&2
        sed 's/^/    /' "$work/extra" >&2
        grep -Ei 'alloc|malloc|free' "$work/extra" >/dev/null && echo "    (allocator symbols: the core allocates)" >&2
        rm -rf "$work"; return 1
    fi
    echo "check-alloc-free: $lib: $exports arbor_ functions link with nothing but mem* routines"
    rm -rf "$work"
}

self_test() {
    local probe
    probe=$(mktemp -d)
    mkdir -p "$probe/src"
    cat > "$probe/Cargo.toml" <<'TOML'
[package]
name = "alloc_probe"
version = "0.0.0"
edition = "2024"
[lib]
crate-type = ["staticlib"]
[profile.release]
panic = "abort"
lto = true
TOML
    cat > "$probe/src/lib.rs" <<'RUST'
#![no_std]
extern crate alloc;
use core::alloc::{GlobalAlloc, Layout};
struct Malloc;
unsafe extern "C" {
    fn malloc(size: usize) -> *mut u8;
    fn free(ptr: *mut u8);
}
// SAFETY: malloc and free are a valid allocator for the alignments this probe uses.
unsafe impl GlobalAlloc for Malloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 { unsafe { malloc(layout.size()) } }
    unsafe fn dealloc(&self, ptr: *mut u8, _: Layout) { unsafe { free(ptr) } }
}
#[global_allocator]
static ALLOCATOR: Malloc = Malloc;
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! { loop {} }
#[unsafe(no_mangle)]
pub extern "C" fn arbor_probe(n: usize) -> usize {
    let v: alloc::vec::Vec<u8> = alloc::vec::Vec::with_capacity(n);
    core::hint::black_box(v).capacity()
}
RUST
    cargo build --quiet --release --manifest-path "$probe/Cargo.toml" --target-dir "$probe/target"
    if check_archive "$probe/target/release/liballoc_probe.a"; then
        echo "check-alloc-free: self-test FAILED: an allocating library passed" >&2
        rm -rf "$probe"; return 1
    fi
    echo "check-alloc-free: self-test passed: the allocating probe was rejected"
    rm -rf "$probe"
}

if [ "${1:-}" = "--self-test" ]; then
    self_test
else
    # The embedded profile writes to its own directory, never over the std library.
    cargo build --quiet --profile embedded --no-default-features --lib
    check_archive "${CARGO_TARGET_DIR:-target}/embedded/libarbor.a"
fi
