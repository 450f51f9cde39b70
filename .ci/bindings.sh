#!/usr/bin/env bash
# CI for arbor's packaging and bindings (called from .ci/run): installs the library with
# bindings/install.sh into a temporary prefix (std, and --no-std), then checks
#   - the exported symbols: the .so and the installed .a define exactly the functions
#     arbor.h declares, and nothing else global; SONAME libarbor.so.1 and its links;
#   - every function of arbor.h has its binding in arbor.hpp and Arbor.cs;
#   - the installed .a links beside another Rust static library (both orders), and builds
#     and runs the C programs of ffi-tests;
#   - the CMake package: ffi-tests/cmake-consumer, shared and static, and version refusal;
#   - pkg-config: a C program compiled and linked with it, shared and static;
#   - the C++ layer: ffi-tests/cpp/arbor_test.cpp (static, shared, ASan+UBSan), and that
#     an ignored status does not compile ([[nodiscard]]);
#   - the C# bindings: bindings/csharp/ArborTest.cs and the quick start Example.cs with mcs
#     and mono, and that each constant of Arbor.cs marked with an ARBOR_ name has its value.
# About 15 s when cargo has nothing to rebuild, 2 minutes when it relinks both libraries.
# Installs cmake, pkg-config and mono with apt-get when missing; if that is impossible,
# the steps needing them are skipped with a message (and the script says so at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

step() { printf '\n== %s\n' "$*"; }
fail() { echo "FAILED: $*" >&2; exit 1; }
skipped=()

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

step "tools"
missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v pkg-config >/dev/null || missing+=(pkg-config)
command -v mcs >/dev/null || missing+=(mono-mcs)
command -v mono >/dev/null || missing+=(mono-runtime)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo -n"
    if command -v apt-get >/dev/null && { [ -z "$sudo" ] || sudo -n true 2>/dev/null; }; then
        echo "installing ${missing[*]}"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "SKIP: cannot install ${missing[*]} (no apt-get, or no root): their steps are skipped"
    fi
fi
for tool in cargo rustc gcc g++ readelf nm ld objcopy ar; do
    command -v "$tool" >/dev/null || fail "missing $tool"
done

step "install (std) into a temporary prefix"
prefix=$work/prefix
bindings/install.sh "$prefix" > "$work/install.log" 2>&1 || { cat "$work/install.log"; fail "install.sh"; }
grep -E 'Finished|^installed' "$work/install.log"
version=$(sed -n 's/^Version: //p' "$prefix/lib/pkgconfig/arbor.pc")
[ "$version" = 1.0.0 ] || fail "arbor.pc has version '$version'"

# The functions arbor.h declares: what the libraries must define, and all they may.
header_functions() {
    sed -n 's/^[A-Za-z][A-Za-z_0-9 *]*[ *]\(arbor_[a-z_0-9]*\)(.*/\1/p' include/arbor.h | sort -u
}
# Defined global or weak symbols of an ELF file or archive. readelf, not nm: binutils' nm
# loads the LLVM LTO plugin for objects that carry bitcode (Rust's static library does),
# fails on Rust's newer LLVM, and then silently lists nothing for those objects.
defined_globals() {
    readelf -sW "$1" 2>/dev/null | awk '($5 == "GLOBAL" || $5 == "WEAK") && $7 != "UND" && $8 != "" { print $8 }' | sed 's/@.*//' | sort -u
}
check_symbols() { # $1: prefix, $2: label
    local lib=$1/lib expected=$work/expected
    header_functions > "$expected"
    [ -s "$expected" ] || fail "no function found in include/arbor.h"
    nm -D --defined-only "$lib/libarbor.so.1.0.0" | awk '{ print $3 }' | sort -u > "$work/so"
    diff -u "$expected" "$work/so" > "$work/so.diff" || { cat "$work/so.diff"; fail "$2: libarbor.so exports other symbols than arbor.h declares"; }
    defined_globals "$lib/libarbor.a" > "$work/a"
    diff -u "$expected" "$work/a" > "$work/a.diff" || { head -40 "$work/a.diff"; fail "$2: libarbor.a defines other global symbols than arbor.h declares"; }
    local original
    original=$(defined_globals "$3" | grep -vc '^arbor_' || true)
    echo "$2: libarbor.so and libarbor.a define the $(wc -l < "$expected") functions of arbor.h and nothing else ($original other globals in cargo's libarbor.a made local)"
    readelf -d "$lib/libarbor.so.1.0.0" | grep -q 'Library soname: \[libarbor.so.1\]' || fail "$2: SONAME is not libarbor.so.1"
    [ "$(readlink "$lib/libarbor.so.1")" = libarbor.so.1.0.0 ] || fail "$2: libarbor.so.1 link"
    [ "$(readlink "$lib/libarbor.so")" = libarbor.so.1 ] || fail "$2: libarbor.so link"
    echo "$2: SONAME libarbor.so.1, links libarbor.so -> libarbor.so.1 -> libarbor.so.1.0.0"
}
step "symbols and SONAME (std)"
check_symbols "$prefix" std "${CARGO_TARGET_DIR:-target}/release/libarbor.a"

step "every function of arbor.h is bound in arbor.hpp and Arbor.cs"
unbound=()
for fn in $(header_functions); do
    grep -qw "$fn" include/arbor.hpp || unbound+=("arbor.hpp: $fn")
    grep -q "extern [A-Za-z]* $fn(" bindings/csharp/Arbor.cs || unbound+=("Arbor.cs: $fn")
done
[ ${#unbound[@]} -eq 0 ] || { printf '%s\n' "${unbound[@]}"; fail "functions of arbor.h without a binding"; }
echo "the $(header_functions | wc -l) functions of arbor.h are called by arbor.hpp and declared in Arbor.cs's Native"

step "the installed static library links beside another Rust static library"
# The reason for localizing: two Rust static libraries in one program. A small one with
# std, linked before and after arbor's; both must link and work.
cat > "$work/other.rs" <<'RUST'
#[unsafe(no_mangle)]
pub extern "C" fn other_sum(n: u32) -> u64 {
    let v: Vec<u64> = (0..u64::from(n)).collect();
    v.iter().sum()
}
RUST
rustc --edition 2024 -O -C panic=abort --crate-type staticlib "$work/other.rs" -o "$work/libother.a"
cat > "$work/both.c" <<'C'
#include <arbor.h>
#include <stdio.h>
uint64_t other_sum(uint32_t n);
int main(void) {
    const uint8_t cards[5] = {51, 47, 43, 39, 35};
    uint16_t rank = 0;
    if (arbor_hand_rank(cards, 5, &rank) != ARBOR_OK || rank != 7462 || other_sum(10) != 45) {
        return 1;
    }
    printf("arbor and another Rust library: rank %u, sum %u\n", (unsigned)rank, (unsigned)other_sum(10));
    return 0;
}
C
system_libs=(-lgcc_s -lutil -lrt -lpthread -lm -ldl)
gcc -std=c11 -I"$prefix/include" "$work/both.c" "$prefix/lib/libarbor.a" "$work/libother.a" "${system_libs[@]}" -o "$work/both1" ||
    fail "libarbor.a then another Rust library do not link"
gcc -std=c11 -I"$prefix/include" "$work/both.c" "$work/libother.a" "$prefix/lib/libarbor.a" "${system_libs[@]}" -o "$work/both2" ||
    fail "another Rust library then libarbor.a do not link"
"$work/both1"
"$work/both2"

step "the C programs of ffi-tests against the installed static library"
# Every area is at ABI 1.0: each program must compile against the installed arbor.h and pass.
for source in ffi-tests/*.c; do
    name=$(basename "$source" .c)
    gcc -std=c11 -w -I"$prefix/include" -Iffi-tests "$source" "$prefix/lib/libarbor.a" \
        -lgcc_s -lutil -lrt -lpthread -lm -ldl -o "$work/$name" || fail "ffi-tests/$name.c does not compile against arbor.h"
    "$work/$name" | tail -1
done

step "C++ layer (ffi-tests/cpp)"
cxxflags=(-std=c++17 -Wall -Wextra -Werror -pedantic -Wconversion -Wsign-conversion)
g++ "${cxxflags[@]}" -I"$prefix/include" ffi-tests/cpp/arbor_test.cpp "$prefix/lib/libarbor.a" -lgcc_s -lutil -lrt -lpthread -lm -ldl -o "$work/cpp_static"
"$work/cpp_static"
g++ "${cxxflags[@]}" -I"$prefix/include" -fsanitize=address,undefined -fno-sanitize-recover=all -g ffi-tests/cpp/arbor_test.cpp \
    -L"$prefix/lib" -larbor -o "$work/cpp_asan"
LD_LIBRARY_PATH=$prefix/lib "$work/cpp_asan"
if command -v clang++ >/dev/null; then
    clang++ "${cxxflags[@]}" -I"$prefix/include" ffi-tests/cpp/arbor_test.cpp -L"$prefix/lib" -larbor -o "$work/cpp_clang"
    LD_LIBRARY_PATH=$prefix/lib "$work/cpp_clang" | tail -1
fi
for snippet in nodiscard_c nodiscard_cpp; do
    if g++ "${cxxflags[@]}" -I"$prefix/include" -c "ffi-tests/cpp/$snippet.cpp" -o "$work/$snippet.o" 2> "$work/$snippet.err"; then
        fail "$snippet.cpp compiled: an ignored status must be an error ([[nodiscard]])"
    fi
    grep -q 'nodiscard\|unused-result' "$work/$snippet.err" || { cat "$work/$snippet.err"; fail "$snippet.cpp failed for another reason than [[nodiscard]]"; }
    # The same code with the result used compiles: the failure was the attribute's.
    sed -e 's/^    arbor_hand_rank(/    (void)arbor_hand_rank(/' -e 's/^    arbor::hand_rank(/    (void)arbor::hand_rank(/' \
        "ffi-tests/cpp/$snippet.cpp" > "$work/${snippet}_used.cpp"
    g++ "${cxxflags[@]}" -I"$prefix/include" -c "$work/${snippet}_used.cpp" -o "$work/${snippet}_used.o" || fail "$snippet.cpp with (void) does not compile"
    echo "$snippet.cpp: an ignored result is refused ([[nodiscard]]), a used one compiles"
done

step "pkg-config"
if command -v pkg-config >/dev/null; then
    export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
    [ "$(pkg-config --modversion arbor)" = 1.0.0 ] || fail "pkg-config --modversion arbor"
    pkg-config --atleast-version=1.0 arbor || fail "pkg-config --atleast-version=1.0"
    # shellcheck disable=SC2046
    gcc -std=c11 -Wall -Wextra -Werror -pedantic ffi-tests/cmake-consumer/main.c $(pkg-config --cflags --libs arbor) -o "$work/pc_shared"
    LD_LIBRARY_PATH=$prefix/lib "$work/pc_shared"
    # Static: -l:libarbor.a picks the archive; --static adds Libs.private.
    # shellcheck disable=SC2046
    gcc -std=c11 -Wall -Wextra -Werror -pedantic ffi-tests/cmake-consumer/main.c \
        $(pkg-config --cflags --libs --static arbor | sed 's/-larbor/-l:libarbor.a/') -o "$work/pc_static"
    ! readelf -d "$work/pc_static" | grep -q libarbor || fail "the pkg-config static program needs libarbor.so"
    "$work/pc_static"
    unset PKG_CONFIG_PATH
else
    skipped+=(pkg-config)
fi

step "CMake package (ffi-tests/cmake-consumer)"
if command -v cmake >/dev/null; then
    for linkage in shared static; do
        static=OFF
        [ $linkage = static ] && static=ON
        build=$work/cmake-$linkage
        cmake -S ffi-tests/cmake-consumer -B "$build" -DCMAKE_PREFIX_PATH="$prefix" \
            -DARBOR_STATIC=$static -DCMAKE_BUILD_TYPE=Release > "$build.log" 2>&1 || { cat "$build.log"; fail "cmake configure ($linkage)"; }
        cmake --build "$build" >> "$build.log" 2>&1 || { cat "$build.log"; fail "cmake build ($linkage)"; }
        "$build/arbor_consumer"
        "$build/arbor_consumer_c"
        if [ $linkage = shared ]; then
            readelf -d "$build/arbor_consumer" | grep -q 'NEEDED.*\[libarbor.so.1\]' || fail "the shared consumer does not need libarbor.so.1"
        else
            ! readelf -d "$build/arbor_consumer" | grep -q libarbor || fail "the static consumer needs libarbor.so"
        fi
    done
    # SameMajorVersion: 1.0 is accepted (above), 1.1 and 2.0 are not.
    for wanted in 1.1 2.0; do
        mkdir -p "$work/want-$wanted"
        printf 'cmake_minimum_required(VERSION 3.16)\nproject(v LANGUAGES NONE)\nfind_package(arbor %s REQUIRED)\n' "$wanted" > "$work/want-$wanted/CMakeLists.txt"
        if cmake -S "$work/want-$wanted" -B "$work/want-$wanted/build" -DCMAKE_PREFIX_PATH="$prefix" > "$work/want-$wanted.log" 2>&1; then
            fail "find_package(arbor $wanted) accepted arbor 1.0.0"
        fi
    done
    echo "find_package(arbor 1.1) and (arbor 2.0) refuse 1.0.0"
else
    skipped+=(cmake)
fi

step "C# bindings (bindings/csharp)"
# Every constant of Arbor.cs marked "// ARBOR_X" has the value arbor.h gives ARBOR_X.
checked=0
while read -r value macro; do
    header=$(sed -n "s/^#define $macro ((size_t)\([0-9]*\))\$/\1/p; s/^#define $macro UINT[0-9]*_C(\([0-9]*\))\$/\1/p" include/arbor.h)
    [ -n "$header" ] || fail "Arbor.cs names $macro, which arbor.h does not define as a number"
    [ "$header" = "$value" ] || fail "Arbor.cs has $macro = $value, arbor.h $header"
    checked=$((checked + 1))
done < <(sed -n 's/^ *public const [a-z]* [A-Za-z0-9]* = \([0-9]*\); *\/\/ \(ARBOR_[A-Z0-9_]*\)$/\1 \2/p' bindings/csharp/Arbor.cs)
[ "$checked" -gt 0 ] || fail "no constant of Arbor.cs is marked with its arbor.h name"
echo "Arbor.cs: $checked constants equal arbor.h's"
if command -v mcs >/dev/null && command -v mono >/dev/null; then
    mcs -warnaserror -nologo -out:"$work/ArborTest.exe" bindings/csharp/Arbor.cs bindings/csharp/ArborTest.cs
    LD_LIBRARY_PATH=$prefix/lib mono "$work/ArborTest.exe"
    # The quick start of docs/bindings.md.
    mcs -warnaserror -nologo -out:"$work/Example.exe" bindings/csharp/Arbor.cs bindings/csharp/Example.cs
    LD_LIBRARY_PATH=$prefix/lib mono "$work/Example.exe"
else
    skipped+=("C# (mcs/mono)")
fi

step "install --no-std into a temporary prefix"
nostd=$work/nostd
bindings/install.sh "$nostd" --no-std > "$work/install-nostd.log" 2>&1 || { cat "$work/install-nostd.log"; fail "install.sh --no-std"; }
grep -E 'Finished|^installed' "$work/install-nostd.log"
check_symbols "$nostd" no_std "${CARGO_TARGET_DIR:-target}/embedded/libarbor.a"
[ -z "$(sed -n 's/^Libs.private: *//p' "$nostd/lib/pkgconfig/arbor.pc")" ] || fail "no_std arbor.pc has Libs.private"
# The no_std static library needs only libc's mem* functions: no -lpthread and the rest.
g++ "${cxxflags[@]}" -I"$nostd/include" ffi-tests/cpp/arbor_test.cpp "$nostd/lib/libarbor.a" -o "$work/cpp_nostd"
"$work/cpp_nostd" | tail -1
gcc -std=c11 -Wall -Wextra -Werror -pedantic -I"$nostd/include" ffi-tests/cmake-consumer/main.c "$nostd/lib/libarbor.a" -o "$work/c_nostd"
"$work/c_nostd" | grep -q 'features none' || fail "the no_std library does not say 'features none'"

if [ ${#skipped[@]} -gt 0 ]; then
    step "bindings checks passed, SKIPPED: ${skipped[*]} (tools missing)"
else
    step "bindings checks passed"
fi
