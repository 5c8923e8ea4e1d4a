#!/usr/bin/env bash
# Packages one release asset the way release.yml publishes it and the action fetches it:
#   dist/prepush-<version>-<platform>.tar.gz          prepush-<version>-<platform>/bin/prepush and share/prepush/AgenticTodo
#   dist/prepush-<version>-<platform>.tar.gz.sha256   its SHA-256, as `sha256sum` writes it
#
#   scripts/package-release.sh BINARY VERSION PLATFORM [DIST]     (PLATFORM: linux-x86_64, linux-aarch64, macos-universal)
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: package-release.sh BINARY VERSION PLATFORM [DIST]" >&2; exit 2; }
binary=$1 version=$2 platform=$3 dist=${4:-dist}
root="$(cd "$(dirname "$0")/.." && pwd)"
name="prepush-$version-$platform"
rm -rf "${dist:?}/$name" && mkdir -p "$dist/$name/bin" "$dist/$name/share/prepush"
cp "$binary" "$dist/$name/bin/prepush"
cp -R "$root/Examples/AgenticTodo" "$dist/$name/share/prepush/AgenticTodo"
tar -C "$dist" -czf "$dist/$name.tar.gz" "$name"
rm -rf "${dist:?}/$name"
# sha256sum on Linux, shasum on macOS: the same line either way.
if command -v sha256sum >/dev/null; then sum=(sha256sum); else sum=(shasum -a 256); fi
(cd "$dist" && "${sum[@]}" "$name.tar.gz" > "$name.tar.gz.sha256")
echo "$dist/$name.tar.gz"
