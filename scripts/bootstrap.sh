#!/usr/bin/env bash
# Installs the system libraries prepush builds against, if they are missing:
# libgit2, libyaml and SQLite (found through pkg-config), and git. Debian/Ubuntu: apt-get; macOS: Homebrew.
# With --tests, also what the tests use: xmllint (libxml2-utils), an OpenSSH server, client and
# rsync for the remote-run tests (macOS has xmllint, ssh and rsync; its sshd needs root, so those
# tests run on Linux CI), Chromium to render the HTML report headless, and Python's jsonschema for
# the SARIF schema check.
# Swift itself (6.0 or later) must already be installed: https://www.swift.org/install/
set -euo pipefail

if ! command -v swift >/dev/null 2>&1; then
    echo "bootstrap: swift is not on PATH; install Swift 6.0 or later (https://www.swift.org/install/)" >&2
    exit 1
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

case "$(uname -s)" in
Linux)
    packages=(libgit2-dev libyaml-dev libsqlite3-dev pkg-config git)
    [ "${1:-}" = "--tests" ] && packages+=(libxml2-utils openssh-server openssh-client rsync chromium curl)
    missing=()
    for package in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "bootstrap: installing ${missing[*]}"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
    ;;
Darwin)
    command -v brew >/dev/null 2>&1 || { echo "bootstrap: Homebrew is needed on macOS (https://brew.sh)" >&2; exit 1; }
    for formula in libgit2 libyaml sqlite pkg-config; do
        brew list --formula "$formula" >/dev/null 2>&1 || brew install "$formula"
    done
    ;;
*)
    echo "bootstrap: unsupported system $(uname -s); install libgit2, libyaml, SQLite and pkg-config yourself" >&2
    ;;
esac
pkg-config --exists libgit2 yaml-0.1 || { echo "bootstrap: pkg-config cannot find libgit2 or yaml-0.1" >&2; exit 1; }
# macOS has SQLite in its SDK (Homebrew's is keg-only); on Linux pkg-config must find it.
[ "$(uname -s)" != Linux ] || pkg-config --exists sqlite3 || { echo "bootstrap: pkg-config cannot find sqlite3" >&2; exit 1; }

if [ "${1:-}" = "--tests" ] && ! python3 -c "import jsonschema" >/dev/null 2>&1; then
    # The tests run `python3` from PATH: install for that interpreter (pip), or Debian's package
    # when that interpreter is the system one.
    echo "bootstrap: installing Python's jsonschema"
    if [ "$(uname -s)" = Linux ]; then
        python3 -m pip install --quiet jsonschema 2>/dev/null \
            || $sudo apt-get install -y -qq python3-jsonschema >/dev/null \
            || { echo "bootstrap: could not install Python's jsonschema (pip install jsonschema)" >&2; exit 1; }
    else
        # Homebrew's Python refuses plain pip installs (PEP 668); the SARIF test skips on macOS without it.
        python3 -m pip install --quiet --user jsonschema 2>/dev/null \
            || python3 -m pip install --quiet --user --break-system-packages jsonschema 2>/dev/null \
            || echo "bootstrap: Python's jsonschema is not installed; the SARIF schema test will be skipped" >&2
    fi
fi

if [ "${1:-}" = "--tests" ] && ! command -v lefthook >/dev/null 2>&1; then
    # The hook-manager test pushes through real lefthook (its pip wheel is the Go binary); it is
    # skipped where lefthook cannot be installed.
    echo "bootstrap: installing lefthook"
    python3 -m pip install --quiet lefthook 2>/dev/null \
        || python3 -m pip install --quiet --user --break-system-packages lefthook 2>/dev/null \
        || echo "bootstrap: lefthook is not installed; the lefthook test will be skipped" >&2
fi
