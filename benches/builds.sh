#!/usr/bin/env bash
# Two builds of catena side by side, runs alternating so that both meet the
# same machine: chess perft 7 from the start position (bulk counting), SSCC
# perft 6, and `catena bench`'s speed. Prints one line per run; compare the
# sums. Usage: benches/builds.sh OLD_BINARY NEW_BINARY [RUNS]
set -euo pipefail
old=$1 new=$2 runs=${3:-3}
for _ in $(seq "$runs"); do
    for binary in "$old" "$new"; do
        perft=$("$binary" perft 7 | awk '{print $4}')
        sscc=$("$binary" perft 6 --sscc | awk '{print $4}')
        nps=$("$binary" bench 2>&1 | tail -1 | awk '{print $3}')
        echo "$binary perft7_ms $perft sscc_perft6_ms $sscc bench_nps $nps"
    done
done
