#!/bin/bash
# Mutation check of `selective: tests` (docs/selective-tests.md, "Measured on swift-argument-parser").
# Usage: mutants.sh CLONE BASE [IDS...]
#   CLONE  a clone of swift-argument-parser whose BASE commit holds a .prepush.yml with a `unit`
#          stage `swift test`, `selective: tests`, and an impact map recorded at BASE
#          (`prepush impact record`); BASE a commit.
#   IDS    mutant ids of mutants.txt (default: all).
# Environment: PREPUSH (default: prepush on PATH), OUT (default: /work/eval-impact/mutants),
#   WRAP (a command prefix every build/test runs under; default none),
#   MUTANTS (the list, default: mutants.txt beside this script; mutants-openapikit.txt is the second package's).
# For each mutant: a commit on top of BASE with the one-line change, `prepush run --base BASE`;
# when that passes, a full `swift test` says whether the suite kills the mutant at all
# (passes too: not killed, discard; fails: a MISS, a false green).
# Writes OUT/results.tsv: id, file:line, selected, total, selective exit, full exit, seconds.
set -u
CLONE=$1; BASE=$2; shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
PREPUSH=${PREPUSH:-prepush}; OUT=${OUT:-/work/eval-impact/mutants}; WRAP=${WRAP:-}
mkdir -p "$OUT"
RES="$OUT/results.tsv"
[ -f "$RES" ] || printf 'id\tsite\tselected\ttotal\tselective_exit\tfull_exit\tseconds\n' > "$RES"
cd "$CLONE" || exit 2
grep -v '^#' "${MUTANTS:-$HERE/mutants.txt}" | while IFS='|' read -r id file line before after; do
  [ -n "$id" ] || continue
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$id"; then continue; fi
  git checkout -q --detach "$BASE" && git reset -q --hard "$BASE" || exit 2
  python3 - "Sources/$file" "$line" "$before" "$after" <<'PY' || { echo "$id: does not apply"; continue; }
import sys
path, n, a, b = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
lines = open(path).read().split('\n')
if a not in lines[n-1]: sys.exit(1)
lines[n-1] = lines[n-1].replace(a, b, 1)
open(path, 'w').write('\n'.join(lines))
PY
  git -c user.name=mutant -c user.email=mutant@example.invalid commit -qam "mutant $id: $file:$line" </dev/null
  start=$(date +%s)
  $WRAP "$PREPUSH" run --base "$BASE" --reports-dir "$OUT/$id-reports" </dev/null > "$OUT/$id.log" 2>&1
  sel=$?
  picked=$(grep -oE 'selective: [0-9]+ of [0-9]+ tests' "$OUT/$id.log" | head -1)
  n=$(echo "$picked" | awk '{print $2}'); m=$(echo "$picked" | awk '{print $4}')
  full=-
  if [ "$sel" -eq 0 ]; then
    $WRAP swift test </dev/null > "$OUT/$id.full.log" 2>&1
    full=$?
  fi
  printf '%s\t%s:%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$file" "$line" "${n:-?}" "${m:-?}" "$sel" "$full" "$(( $(date +%s) - start ))" >> "$RES"
  tail -1 "$RES"
done
git checkout -q --detach "$BASE"; git reset -q --hard "$BASE"
