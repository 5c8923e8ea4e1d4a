#!/usr/bin/env bash
# The composite action's first step: the released binary of the action's own ref, checked against
# its SHA-256 before it is ever run. Prints `found=true` (and sets PREPUSH in $GITHUB_ENV) when the
# release has an asset for this machine; `found=false` when it has none (a branch or commit ref, a
# platform without an asset), and the action builds from source. A download that does not match its
# checksum is an error: nothing is run, and nothing is built instead.
#
#   PREPUSH_REF=v0.2.0 PREPUSH_REPOSITORY=owner/prepush scripts/fetch-release.sh
#   PREPUSH_RELEASES   the base URL of the releases (default https://github.com/$PREPUSH_REPOSITORY/releases/download)
#   PREPUSH_INSTALL    where to unpack (default $RUNNER_TEMP or /tmp, then prepush-<ref>)
set -euo pipefail
ref=${PREPUSH_REF:-}
out=${GITHUB_OUTPUT:-/dev/stdout}
case "$ref" in
    v[0-9]*) ;;
    *) echo "prepush: the action's ref '${ref:-none}' is not a release tag; prepush is built from source"; echo "found=false" >> "$out"; exit 0 ;;
esac
case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) platform=linux-x86_64 ;;
    Linux-aarch64|Linux-arm64) platform=linux-aarch64 ;;
    Darwin-*) platform=macos-universal ;;
    *) echo "prepush: no release asset for $(uname -s) $(uname -m); prepush is built from source"; echo "found=false" >> "$out"; exit 0 ;;
esac
base=${PREPUSH_RELEASES:-https://github.com/${PREPUSH_REPOSITORY:?}/releases/download}
name="prepush-$ref-$platform"
install=${PREPUSH_INSTALL:-${RUNNER_TEMP:-/tmp}/prepush-$ref}
mkdir -p "$install"
cd "$install"
rm -f "$name.tar.gz" "$name.tar.gz.sha256"
status=$(curl -sSL --retry 3 -o "$name.tar.gz.sha256" -w '%{http_code}' "$base/$ref/$name.tar.gz.sha256") || status=000
if [ "$status" != 200 ]; then
    echo "prepush: the release $ref has no $name (HTTP $status); prepush is built from source"
    echo "found=false" >> "$out"
    exit 0
fi
curl -fsSL --retry 3 -o "$name.tar.gz" "$base/$ref/$name.tar.gz"
# The checksum file names the asset; only that line, for only that file, is checked.
expected=$(awk -v file="$name.tar.gz" '$2 == file || $2 == "*" file { print $1; exit }' "$name.tar.gz.sha256")
[ -n "$expected" ] || { echo "prepush: error: $name.tar.gz.sha256 does not name $name.tar.gz" >&2; exit 1; }
if command -v sha256sum >/dev/null; then actual=$(sha256sum "$name.tar.gz" | cut -d' ' -f1); else actual=$(shasum -a 256 "$name.tar.gz" | cut -d' ' -f1); fi
if [ "$actual" != "$expected" ]; then
    echo "prepush: error: $name.tar.gz has SHA-256 $actual, but its release says $expected; not run" >&2
    rm -f "$name.tar.gz"
    exit 1
fi
tar -xzf "$name.tar.gz"
binary="$install/$name/bin/prepush"
"$binary" --version >/dev/null
echo "prepush: $ref ($platform), SHA-256 $actual"
echo "found=true" >> "$out"
[ -n "${GITHUB_ENV:-}" ] && echo "PREPUSH=$binary" >> "$GITHUB_ENV"
# Pinned for the steps that hold the token (the action's comment step): step outputs, which a stage
# of the pull request cannot change, as $GITHUB_ENV and the file itself can be.
echo "path=$binary" >> "$out"
if command -v sha256sum >/dev/null; then pinned=$(sha256sum "$binary" | cut -d' ' -f1); else pinned=$(shasum -a 256 "$binary" | cut -d' ' -f1); fi
echo "sha256=$pinned" >> "$out"
exit 0
