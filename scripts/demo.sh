#!/usr/bin/env bash
# The README's first command: set up, build, and run `prepush demo` (a temporary repository with a
# Swift package, its .prepush.yml and a bare remote, pushed twice through the real hook).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build --product prepush
exec .build/debug/prepush demo "$@"
