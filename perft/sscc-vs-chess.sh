#!/usr/bin/env bash
# Whole-process cost of SSCC perft against chess perft playing every leaf move
# (no bulk counting), same binary, start position: the median of RUNS
# alternating runs each. Usage: perft/sscc-vs-chess.sh [RUNS] [DEPTH]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
depth=${2:-5}
catena=./target/release/catena
[ -x "$catena" ] || cargo build --release --quiet

seconds() { # command... -> wall seconds of one run
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    echo "scale=3; ($end - $start) / 1000000000" | bc -l
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

sscc_times=() chess_times=()
for _ in $(seq "$runs"); do
    sscc_times+=("$(seconds "$catena" perft "$depth" --sscc)")
    chess_times+=("$(seconds "$catena" perft "$depth" --no-bulk)")
done
s=$(printf '%s\n' "${sscc_times[@]}" | median)
c=$(printf '%s\n' "${chess_times[@]}" | median)
printf 'sscc perft %s: %ss   chess perft %s --no-bulk: %ss   ratio %.2f\n' \
    "$depth" "$s" "$depth" "$c" "$(echo "$s / $c" | bc -l)"
