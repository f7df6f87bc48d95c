#!/usr/bin/env bash
# One and two threads of `catena solve` on the start position (rule
# chain, --no-book), two builds alternating so that both meet the same
# machine (docs/solver.md, "--threads"): each round runs the old build on
# one thread, then on two, then the new build alike, and prints the
# result lines. Usage: benches/solver_threads.sh OLD NEW [ROUNDS] [D]
set -euo pipefail
old=$1 new=$2 rounds=${3:-6} plies=${4:-10}
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$rounds"); do
    for build in old new; do
        for threads in 1 2; do
            printf '%s threads %s: ' "$build" "$threads"
            "${!build}" solve --plies "$plies" --rule chain --no-book --threads "$threads" | tail -1
        done
    done
done
