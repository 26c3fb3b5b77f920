#!/usr/bin/env bash
# Runs `rbg perft` on the lines of the suite's perft.tsv whose reference
# time lies in (MIN, MAX] seconds, shortest first, and compares the counts:
#   scripts/perft-check.sh [MIN] [MAX] [RBG_BINARY]   (THREADS=n for --threads)
# Prints one line per game/depth: ok|MISMATCH, counts, our and the
# reference's seconds. Exits 1 on any mismatch.
set -euo pipefail
cd "$(dirname "$0")/.."
min=${1:-2}
max=${2:-inf}
suite=${RBG_SUITE:-../shared/rbg-suite}
rbg=${3:-}
if [ -z "$rbg" ]; then
    cargo build --release -q -p rbg-cli
    rbg=./target/release/rbg
fi
status=0
while IFS=$'\t' read -r game depth leaves states ref; do
    out=$("$rbg" perft "$suite/games/$game" "$depth" --json --threads "${THREADS:-1}")
    read -r gl gs secs < <(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d["leaves"], d["states"], d["seconds"])' "$out")
    if [ "$gl $gs" = "$leaves $states" ]; then verdict=ok; else verdict=MISMATCH; status=1; fi
    printf '%s\t%s\t%s\t%s\t%s\t%.1f\t%s\n' "$verdict" "$game" "$depth" "$gl" "$gs" "$secs" "$ref"
done < <(awk -F'\t' -v min="$min" -v max="$max" 'NR>1 && $5>min && (max=="inf" || $5<=max+0)' "$suite/perft.tsv" | sort -t$'\t' -k5,5g)
exit $status
