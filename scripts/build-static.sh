#!/usr/bin/env bash
# Builds the Linux release binary people install: the Swift runtime, libgit2, libyaml, SQLite (and what
# libgit2 needs: mbedTLS, libssh2 with OpenSSL, http-parser, PCRE2, zlib) linked in statically, so it
# runs on a machine with none of them; libgit2's TLS start-up left out (scripts/static/tls-unused.c).
# Checks with ldd that only C-library-level libraries remain and that the binary runs. Writes
# .build-static/release/prepush, stripped, and its symbols to .build-static/release/prepush.debug.
#
#   scripts/build-static.sh            (Debian/Ubuntu: apt-get install -y libgit2-dev libyaml-dev libsqlite3-dev)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(uname -s)" = Linux ] || { echo "build-static: Linux only (macOS builds a universal binary with swift build --arch arm64 --arch x86_64)" >&2; exit 2; }
scripts/bootstrap.sh

# All of ld's -L folders apply to every -l, in order, and SwiftPM puts pkg-config's folders first:
# pkg-config files of our own, naming a folder that holds only the archives, make ld take them.
libdir=$(pkg-config --variable=libdir libgit2)
includedir=$(pkg-config --variable=includedir libgit2)
archives="$PWD/.build-static/archives"
rm -rf "$archives" && mkdir -p "$archives/pkgconfig"
libraries=(git2 yaml sqlite3 mbedtls mbedx509 mbedcrypto http_parser ssh2 ssl crypto gcrypt gpg-error pcre2-8 z)
for library in "${libraries[@]}"; do
    [ -f "$libdir/lib$library.a" ] || { echo "build-static: $libdir/lib$library.a is missing (the -dev package of $library)" >&2; exit 1; }
    ln -sf "$libdir/lib$library.a" "$archives/lib$library.a"
done
# libgit2 without TLS (see scripts/static/tls-unused.c): a copy of Debian's archive, with its security
# fixes, whose start-up and TLS streams call prepush's stand-ins, so no CA bundle is parsed at start,
# and whose start-up leaves libssh2 (and through it OpenSSL) to start when an ssh session is made.
rm -f "$archives/libgit2.a"
cp "$libdir/libgit2.a" "$archives/libgit2.a"
(
    cd "$archives"
    ar x libgit2.a libgit2.c.o tls.c.o
    objcopy --redefine-sym git_mbedtls_stream_global_init=prepush_tls_not_initialized \
        --redefine-sym git_transport_ssh_global_init=prepush_ssh_initialized_lazily libgit2.c.o
    objcopy --redefine-sym git_mbedtls_stream_new=prepush_tls_stream_new --redefine-sym git_mbedtls_stream_wrap=prepush_tls_stream_wrap tls.c.o
    ar r libgit2.a libgit2.c.o tls.c.o
    # Nothing may still call mbedTLS's start-up or streams: the stand-ins are the only callers' targets.
    if nm libgit2.c.o tls.c.o | grep -qE ' U git_mbedtls_stream_(global_init|new|wrap)$'; then
        echo "build-static: libgit2.a still calls mbedTLS's TLS start-up" >&2
        exit 1
    fi
    if nm libgit2.c.o | grep -qE ' U git_transport_ssh_global_init$'; then
        echo "build-static: libgit2.a still starts libssh2 (and OpenSSL) at git_libgit2_init" >&2
        exit 1
    fi
    rm -f libgit2.c.o tls.c.o
)
cc -O2 -I"$includedir" -c scripts/static/tls-unused.c -o "$archives/tls-unused.o"
# GSSAPI stand-ins (see the file): Debian's libgit2 wants Kerberos, which has no static library.
cc -O2 -c scripts/static/gssapi-unavailable.c -o "$archives/gssapi-unavailable.o"
ar rcs "$archives/libgssapi-unavailable.a" "$archives/gssapi-unavailable.o" "$archives/tls-unused.o"
cat > "$archives/pkgconfig/libgit2.pc" <<PC
Name: libgit2
Description: libgit2, linked statically
Version: $(pkg-config --modversion libgit2)
Libs: -L$archives -lgit2 -lgssapi-unavailable -lmbedtls -lmbedx509 -lmbedcrypto -lhttp_parser -lssh2 -lssl -lcrypto -lgcrypt -lgpg-error -lpcre2-8 -lz -lrt -ldl -lpthread
Cflags: -I$includedir
PC
cat > "$archives/pkgconfig/yaml-0.1.pc" <<PC
Name: LibYAML
Description: libyaml, linked statically
Version: $(pkg-config --modversion yaml-0.1)
Libs: -L$archives -lyaml
Cflags: -I$includedir
PC
cat > "$archives/pkgconfig/sqlite3.pc" <<PC
Name: SQLite
Description: SQLite, linked statically
Version: $(pkg-config --modversion sqlite3)
Libs: -L$archives -lsqlite3 -lm -ldl -lpthread
Cflags: -I$(pkg-config --variable=includedir sqlite3)
PC
# Linker inputs alone do not make SwiftPM link again: remove the binary so it does.
rm -f .build-static/*/release/prepush
# --no-export-dynamic: SwiftPM exports every symbol of an executable (4 MB of dynamic symbol table and
# its hash, which the loader consults at every start); nothing looks prepush's symbols up at run time.
PKG_CONFIG_PATH="$archives/pkgconfig" swift build -c release --product prepush --static-swift-stdlib --scratch-path .build-static \
    -Xlinker --no-export-dynamic

binary=.build-static/release/prepush
# Stripped for what it ships and maps at every start (87 MB → 38 MB); the symbols go to
# prepush.debug beside it for crash reports (gdb and addr2line find them by the debug link).
objcopy --only-keep-debug "$binary" "$binary.debug"
strip --strip-all "$binary"
objcopy --add-gnu-debuglink="$binary.debug" "$binary"
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
