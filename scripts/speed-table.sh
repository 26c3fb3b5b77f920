#!/usr/bin/env bash
# Flat Monte Carlo side by side with the reference compiled reasoner:
#   scripts/speed-table.sh [SECONDS]   (default 10 s per game)
# Prints a markdown table: game, ours (playouts/s), reference, ours/reference.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
suite=${RBG_SUITE:-../shared/rbg-suite}
cargo build --release -q -p rbg-cli
echo "| game | ours playouts/s | compiled playouts/s | ours / compiled |"
echo "|---|---:|---:|---:|"
awk -F'\t' '$2=="compiled" && $3=="flatmc" {print $1, $6}' "$suite/speed.tsv" |
while read -r game ref; do
    ours=$(./target/release/rbg bench "$suite/games/$game" --seconds "$secs" --json |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["playouts_per_s"])')
    python3 -c "print(f'| $game | {$ours:.1f} | {$ref:.1f} | {$ours/$ref:.2f} |')"
done
