#!/usr/bin/env bash
# Builds arbor and installs the C/C++ library into PREFIX (Linux):
#
#   bindings/install.sh PREFIX [--no-std]
#
#   PREFIX/include/arbor.h, arbor.hpp
#   PREFIX/lib/libarbor.a                      static, only arbor_* symbols global
#   PREFIX/lib/libarbor.so.X.Y.Z               shared, SONAME libarbor.so.<ABI>
#   PREFIX/lib/libarbor.so.<ABI> -> libarbor.so.X.Y.Z, libarbor.so -> libarbor.so.<ABI>
#   PREFIX/lib/pkgconfig/arbor.pc
#   PREFIX/lib/cmake/arbor/arborConfig.cmake, arborConfigVersion.cmake
#
# Default: the std library (`cargo build --release --lib`, threads and clocks available).
# --no-std: the no_std library (`cargo build --profile embedded --no-default-features --lib`,
# output in target/embedded/), which needs nothing but the C library's mem* functions.
# Honours CARGO_TARGET_DIR, and LD, OBJCOPY, AR for the static library's tools.
set -euo pipefail

usage() { echo "usage: $0 PREFIX [--no-std]" >&2; exit 2; }
[ $# -ge 1 ] || usage
prefix=$1
shift
std=1
for arg in "$@"; do
    case $arg in
        --no-std) std=0 ;;
        *) usage ;;
    esac
done

# PREFIX is taken relative to where the script was called from.
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
if [ -n "${CARGO_TARGET_DIR:-}" ] && [ "${CARGO_TARGET_DIR#/}" = "$CARGO_TARGET_DIR" ]; then
    export CARGO_TARGET_DIR="$PWD/$CARGO_TARGET_DIR"
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root"
target_dir=${CARGO_TARGET_DIR:-$root/target}
ld=${LD:-ld}
objcopy=${OBJCOPY:-objcopy}
ar=${AR:-ar}

case "$(uname -s)" in
    Linux) ;;
    *) echo "install.sh: only Linux is supported (ELF symbols, SONAME)" >&2; exit 1 ;;
esac

if [ $std = 1 ]; then
    cargo build --release --lib
    built=$target_dir/release
    features=std
else
    cargo build --profile embedded --no-default-features --lib
    built=$target_dir/embedded
    features=none
fi

# The version, from the header the library was built with (build.rs regenerates it).
version_part() { sed -n "s/^#define ARBOR_VERSION_$1 UINT32_C(\([0-9]*\))$/\1/p" include/arbor.h; }
abi=$(sed -n 's/^#define ARBOR_ABI_VERSION UINT32_C(\([0-9]*\))$/\1/p' include/arbor.h)
version="$(version_part MAJOR).$(version_part MINOR).$(version_part PATCH)"
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ && -n $abi ]] || {
    echo "install.sh: no version in include/arbor.h" >&2
    exit 1
}

# What the static library needs from the system. The std library needs what Rust's std
# needs (rustc --print native-static-libs, minus -lc, which every C link has); the no_std one
# nothing beyond libc.
libs_private=""
if [ $std = 1 ]; then
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    : > "$scratch/empty.rs"
    libs_private=$(rustc --crate-type staticlib -C panic=abort --print native-static-libs \
        "$scratch/empty.rs" -o "$scratch/empty.a" 2>&1 |
        sed -n 's/^note: native-static-libs: //p' | tr ' ' '\n' | grep -v '^-lc$' | tr '\n' ' ' || true)
    libs_private=${libs_private% }
    [ -n "$libs_private" ] || libs_private="-lgcc_s -lutil -lrt -lpthread -lm -ldl"
fi

install -d "$prefix/include" "$prefix/lib/pkgconfig" "$prefix/lib/cmake/arbor"
install -m 644 include/arbor.h include/arbor.hpp "$prefix/include/"

# Static library. Rust's staticlib is the crate plus its whole dependency graph (core,
# alloc, std, compiler_builtins, libm, …): thousands of global symbols (allocator shims,
# compiler built-ins like __udivti3, std's own functions) that can clash with another Rust
# static library or the C runtime in the same program. So:
# 1. ld -r: link it into one relocatable object, keeping only what the arbor_* functions
#    reach (--gc-sections from -u arbor_…), and dissolving COMDAT groups
#    (--force-group-allocation): a group kept under its signature, such as
#    DW.ref.rust_eh_personality, would otherwise be merged with another Rust library's copy
#    by the program's linker, leaving that library pointing at our now-local symbol;
# 2. objcopy: make every symbol but arbor_* local, drop the embedded LLVM bitcode (.llvmbc,
#    useless to a C linker and what makes binutils' LTO plugin complain) and the address
#    significance table (its symbol indices would be stale);
# 3. objcopy: give every undefined reference the binding it had in cargo's archive: std's
#    optional libc functions (pidfd_spawnp, statx, …) are weak references, which ld -r
#    --gc-sections turns into strong ones that a program linking another Rust library (or
#    an older glibc) could not resolve.
# References to libc, libm and the unwinder stay undefined: they are what Libs.private and
# the CMake target's INTERFACE_LINK_LIBRARIES provide.
work=$(mktemp -d)
trap 'rm -rf "$work" ${scratch:+"$scratch"}' EXIT
archive=$built/libarbor.a
# readelf, not nm: binutils' nm tries its LLVM plugin on Rust's objects and lists nothing
# for those it cannot read.
symbols() { readelf -sW "$1" 2>/dev/null | awk '$8 != "" && $4 != "FILE" && $4 != "SECTION"'; }
mapfile -t exported < <(symbols "$archive" |
    awk '$5 == "GLOBAL" && $7 != "UND" && $8 ~ /^arbor_/ { print $8 }' | sort -u)
[ ${#exported[@]} -gt 0 ] || { echo "install.sh: no arbor_* symbol in $archive" >&2; exit 1; }
keep=()
for symbol in "${exported[@]}"; do keep+=(-u "$symbol"); done
"$ld" -r --gc-sections --force-group-allocation "${keep[@]}" --whole-archive "$archive" \
    -o "$work/arbor-all.o" 2> >(grep -v 'bfd plugin' >&2)
"$objcopy" --wildcard --keep-global-symbol='arbor_*' --localize-hidden \
    --remove-section=.llvmbc --remove-section=.llvmcmd --remove-section=.llvm_addrsig \
    "$work/arbor-all.o" "$work/arbor-local.o"
# Weak: referenced weakly by every member that references it.
symbols "$archive" | awk '$7 == "UND" { if ($5 == "WEAK") weak[$8] = 1; else strong[$8] = 1 }
    END { for (name in weak) if (!(name in strong)) print name }' | sort > "$work/weak"
if [ -s "$work/weak" ]; then # (objcopy fails on an empty list)
    "$objcopy" --weaken-symbols="$work/weak" "$work/arbor-local.o" "$work/arbor.o"
else
    mv "$work/arbor-local.o" "$work/arbor.o"
fi
# Check: only arbor_* defined globally, every undefined reference bound as in cargo's.
others=$(symbols "$work/arbor.o" |
    awk '($5 == "GLOBAL" || $5 == "WEAK") && $7 != "UND" && $8 !~ /^arbor_/ { print $8 }')
[ -z "$others" ] || { echo "install.sh: still global in libarbor.a: $others" >&2; exit 1; }
symbols "$archive" | awk '$7 == "UND" { print $5, $8 }' | sort -u > "$work/und.before"
symbols "$work/arbor.o" | awk '$7 == "UND" { print $5, $8 }' | sort -u > "$work/und.after"
rebound=$(comm -13 "$work/und.before" "$work/und.after")
[ -z "$rebound" ] || { echo "install.sh: references bound differently: $rebound" >&2; exit 1; }
rm -f "$prefix/lib/libarbor.a"
"$ar" rcsD "$prefix/lib/libarbor.a" "$work/arbor.o"

# Shared library: real file, SONAME link, development link. build.rs sets the SONAME.
soname=$(readelf -d "$built/libarbor.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = "libarbor.so.$abi" ] || {
    echo "install.sh: $built/libarbor.so has SONAME '$soname', not libarbor.so.$abi" >&2
    exit 1
}
rm -f "$prefix/lib/libarbor.so" "$prefix/lib/libarbor.so.$abi" "$prefix/lib/libarbor.so.$version"
install -m 755 "$built/libarbor.so" "$prefix/lib/libarbor.so.$version"
ln -s "libarbor.so.$version" "$prefix/lib/libarbor.so.$abi"
ln -s "libarbor.so.$abi" "$prefix/lib/libarbor.so"

# pkg-config and CMake package files, from the templates next to this script.
cmake_libs=$(printf '%s' "$libs_private" | sed -e 's/-l//g' -e 's/ /;/g')
pointer_bytes=$(($(getconf LONG_BIT) / 8))
fill() {
    sed -e "s|@CMAKE_LIBS@|$cmake_libs|g" -e "s|@MAJOR@|${version%%.*}|g" \
        -e "s|@POINTER_BYTES@|$pointer_bytes|g" -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" -e "s|@ABI@|$abi|g" \
        -e "s|@FEATURES@|$features|g" -e "s|@LIBS_PRIVATE@|$libs_private|g" "$1" > "$2"
}
fill "$here/arbor.pc.in" "$prefix/lib/pkgconfig/arbor.pc"
fill "$here/arborConfig.cmake.in" "$prefix/lib/cmake/arbor/arborConfig.cmake"
fill "$here/arborConfigVersion.cmake.in" "$prefix/lib/cmake/arbor/arborConfigVersion.cmake"

echo "installed arbor $version (abi $abi, features $features) into $prefix"
