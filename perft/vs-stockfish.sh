#!/usr/bin/env bash
# Whole-process perft timings of Catena against Stockfish's `go perft` on the
# same machine, one thread each, no hashing: the median of RUNS alternating runs.
# Usage: perft/vs-stockfish.sh [RUNS]   (needs a release build and `stockfish`)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
catena=./target/release/catena
stockfish=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$catena" ] || cargo build --release --quiet
[ -x "$stockfish" ] || { echo "stockfish not found (apt-get install stockfish)" >&2; exit 1; }

kiwipete="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
startpos="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

seconds() { # command... -> wall seconds of one run
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

stockfish_perft() { # fen depth
    printf 'setoption name Threads value 1\nposition fen %s\ngo perft %s\nquit\n' "$1" "$2" | "$stockfish"
}

printf '%-22s %10s %10s %8s\n' position catena_s stockfish_s speedup
for case in "startpos 6 $startpos" "kiwipete 5 $kiwipete"; do
    read -r name depth fen <<<"$case"
    catena_times=() stockfish_times=()
    for _ in $(seq "$runs"); do
        catena_times+=("$(seconds "$catena" perft "$depth" --fen "$fen")")
        stockfish_times+=("$(seconds stockfish_perft "$fen" "$depth")")
    done
    c=$(printf '%s\n' "${catena_times[@]}" | median)
    s=$(printf '%s\n' "${stockfish_times[@]}" | median)
    printf '%-22s %10.3f %10.3f %7.2fx\n' "$name perft $depth" "$c" "$s" "$(echo "$s / $c" | bc -l)"
done
