#!/usr/bin/env bash
# Runs `rbg perft GAME 1` and one `rbg bench` playout on every suite game,
# each under a time limit (default 60 s):   scripts/all-games.sh [SECONDS]
# Prints one line per game: perft-1 leaves, playout length and seconds, or
# TIMEOUT/FAIL.
set -uo pipefail
cd "$(dirname "$0")/.."
limit=${1:-60}
suite=${RBG_SUITE:-../shared/rbg-suite}
cargo build --release -q -p rbg-cli
rbg=./target/release/rbg
status=0
for f in $(cd "$suite/games" && find . -name '*.rbg' | sed 's|^\./||' | sort); do
    p=$(timeout "$limit" "$rbg" perft "$suite/games/$f" 1 --json) || { echo "$f perft FAIL/TIMEOUT"; status=1; continue; }
    start=$(date +%s.%N)
    b=$(timeout "$limit" "$rbg" bench "$suite/games/$f" --playouts 1 --json) || { echo "$f bench FAIL/TIMEOUT"; status=1; continue; }
    end=$(date +%s.%N)
    python3 - "$p" "$b" "$f" "$start" "$end" <<'PY'
import json, sys
p, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
secs = float(sys.argv[5]) - float(sys.argv[4])
print("%s\tperft1=%d\tplayout_length=%.0f\t%.2fs" % (sys.argv[3], p["leaves"], b["avg_length"], secs))
PY
done
exit $status
