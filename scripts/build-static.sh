#!/usr/bin/env bash
# Builds the Linux release binary people install: the Swift runtime, libgit2 and libyaml (and what
# libgit2 needs: mbedTLS, libssh2 with OpenSSL, http-parser, PCRE2, zlib) linked in statically, so it
# runs on a machine with none of them. Checks with ldd that only C-library-level libraries remain
# and that the binary runs. Writes .build-static/release/prepush.
#
#   scripts/build-static.sh            (Debian/Ubuntu: apt-get install -y libgit2-dev libyaml-dev)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(uname -s)" = Linux ] || { echo "build-static: Linux only (macOS builds a universal binary with swift build --arch arm64 --arch x86_64)" >&2; exit 2; }
scripts/bootstrap.sh

# ld looks for libX.so, then libX.a, one folder at a time: a folder holding only the archives, first
# on the search path, makes it take the archives.
libdir=$(pkg-config --variable=libdir libgit2)
archives=.build-static/archives
rm -rf "$archives" && mkdir -p "$archives"
libraries=(git2 yaml mbedtls mbedx509 mbedcrypto http_parser ssh2 ssl crypto gcrypt gpg-error pcre2-8 z)
for library in "${libraries[@]}"; do
    [ -f "$libdir/lib$library.a" ] || { echo "build-static: $libdir/lib$library.a is missing (the -dev package of $library)" >&2; exit 1; }
    ln -sf "$libdir/lib$library.a" "$archives/lib$library.a"
done
flags=(-Xlinker -L"$PWD/$archives")
for library in "${libraries[@]}"; do flags+=(-Xlinker -l"$library"); done
swift build -c release --product prepush --static-swift-stdlib --scratch-path .build-static "${flags[@]}"

binary=.build-static/release/prepush
echo "== ldd $binary"
ldd "$binary"
# What every Linux has: the C library, its math, threads, dynamic loader, and the C++ and GCC runtimes.
unexpected=$(ldd "$binary" | awk '{print $1}' | grep -vE '^(linux-vdso\.so|/lib64/ld-linux|ld-linux|libc\.so|libm\.so|libpthread\.so|libdl\.so|librt\.so|libutil\.so|libstdc\+\+\.so|libgcc_s\.so)' || true)
if [ -n "$unexpected" ]; then
    echo "build-static: the binary still needs: $unexpected" >&2
    exit 1
fi
"$binary" --version
echo "build-static: $binary needs only C-library-level libraries"
