#!/usr/bin/env bash
# Builds the Windows engine for Piskvork and the Gomocup on Linux, and packs the Gomocup zip.
#
# Usage: scripts/build-windows.sh [--target TRIPLE] [--no-zip]
#   default target x86_64-pc-windows-gnu (Windows 10+, what users and the Gomocup run);
#   x86_64-win7-windows-gnu is the copy that Debian's wine 8 can run (see test-windows.sh).
#
# Why it is built this way: rustup cannot fetch other targets' standard libraries here, so the
# build uses Debian's newer toolchain (rustc-web/cargo-web, installed under /usr/bin) with the
# standard library's source (rust-web-src) and rebuilds std for the target with -Zbuild-std
# (RUSTC_BOOTSTRAP lets a stable compiler take that flag). mingw-w64's gcc links. Every setting
# lives in this script's environment, so the normal Linux build (rustup's toolchain, target/)
# is untouched: Windows output goes to target/windows/.
#
# Output: target/windows/<triple>/release/pbrain-wuzi.exe, and for the default target
# target/windows/dist/pbrain-wuzi64.exe plus target/windows/dist/pbrain-wuzi-<version>-win64.zip.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

target=x86_64-pc-windows-gnu
zip=1
while [ $# -gt 0 ]; do
    case "$1" in
        --target) target=${2:?--target needs a triple}; shift 2 ;;
        --no-zip) zip=0; shift ;;
        -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
        *) echo "build-windows.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

# Installs the Debian packages named, if any is missing (a fresh machine must work).
ensure_packages() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "== installing ${missing[*]}"
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -q
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
}

ensure_packages rustc-web cargo-web rust-web-src gcc-mingw-w64-x86-64 binutils-mingw-w64-x86-64 zip

# DLLs every Windows 10+ has. Anything else (libgcc_s_seh-1.dll, libwinpthread-1.dll, …) would
# make the engine fail to load on a user's machine, so the build refuses it.
system_dlls='^(kernel32|ntdll|msvcrt|advapi32|bcrypt|bcryptprimitives|userenv|ws2_32|user32|shell32|ole32|oleaut32|secur32|synchronization|api-ms-win-[a-z0-9-]+)\.dll$'

export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR="$root/target/windows"
export RUSTC=/usr/bin/rustc
export RUSTDOC=/usr/bin/rustdoc
# One environment variable per target instead of a .cargo/config.toml entry: nothing here can
# leak into a Linux build.
target_env=$(echo "$target" | tr 'a-z-' 'A-Z_')
export "CARGO_TARGET_${target_env}_LINKER=x86_64-w64-mingw32-gcc"

echo "== /usr/bin/cargo build --release -Zbuild-std=std,panic_abort --target $target --bin pbrain-wuzi"
/usr/bin/rustc --version
/usr/bin/cargo --version
start=$(date +%s)
PATH="/usr/bin:$PATH" /usr/bin/cargo build --release --locked \
    -Zbuild-std=std,panic_abort --target "$target" --bin pbrain-wuzi
echo "== built in $(( $(date +%s) - start )) s"

exe="$CARGO_TARGET_DIR/$target/release/pbrain-wuzi.exe"
[ -f "$exe" ] || { echo "build-windows.sh: $exe is missing" >&2; exit 1; }
ls -l "$exe"

echo "== DLL imports of $exe"
dlls=$(x86_64-w64-mingw32-objdump -p "$exe" | sed -n 's/^[[:space:]]*DLL Name: //p')
echo "$dlls" | sed 's/^/    /'
bad=$(echo "$dlls" | tr 'A-Z' 'a-z' | grep -Ev "$system_dlls" || true)
if [ -n "$bad" ]; then
    echo "build-windows.sh: $exe needs DLLs a plain Windows lacks: $bad" >&2
    exit 1
fi

[ "$zip" -eq 1 ] && [ "$target" = x86_64-pc-windows-gnu ] || exit 0

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)
dist="$CARGO_TARGET_DIR/dist"
mkdir -p "$dist"
# Gomocup reads "64" in the name as a 64-bit build; one executable serves every rule, since
# the manager says the rule with INFO rule.
# Stripped: the symbols only help a debugger, and the zip must stay well under 8 MB.
x86_64-w64-mingw32-strip -o "$dist/pbrain-wuzi64.exe" "$exe"
zipfile="$dist/pbrain-wuzi-$version-win64.zip"
rm -f "$zipfile"
(cd "$dist" && zip -9 -X -q "$(basename "$zipfile")" pbrain-wuzi64.exe)
echo "== $zipfile"
unzip -l "$zipfile"
size=$(stat -c %s "$zipfile")
echo "zip size: $size bytes"
if [ "$size" -ge $((8 * 1024 * 1024)) ]; then
    echo "build-windows.sh: the zip is over Gomocup's 8 MB" >&2
    exit 1
fi
