#!/usr/bin/env bash
# Two builds' `catena solve` side by side (docs/solver.md, "Speed (issue
# 53)"): the start position at --plies 8 under each rule, and lines 1, 41
# and 81 of openings/balanced.epd at --plies 7 under rule chain. Each
# position is solved by the old and the new build in turn, RUNS times, so
# that both meet the same machine. Prints one row per position and build:
# verdict, plies, first action, nodes, ms (mean over the runs), nodes per
# second, and for the new build its speed over the old one's in nodes per
# second and in time. Exits 1 if a verdict, bound or first action differs.
# Usage: benches/solver.sh OLD_BINARY NEW_BINARY [RUNS]
set -euo pipefail
old=$1 new=$2 runs=${3:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
opening() { sed -n "${1}p" "$root/openings/balanced.epd"; }
cases=(
    "start chain|--plies 8 --rule chain"
    "start moves|--plies 8 --rule moves"
    "start unlimited|--plies 8 --rule unlimited"
    "balanced 1|--plies 7 --rule chain|$(opening 1)"
    "balanced 41|--plies 7 --rule chain|$(opening 41)"
    "balanced 81|--plies 7 --rule chain|$(opening 81)"
)
printf '| position | build | verdict | plies | first | nodes | ms | nodes/s | nodes/s ratio | time ratio |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
status=0
declare -A nps=()
for case in "${cases[@]}"; do
    IFS='|' read -r name options fen <<<"$case"
    declare -A ms=() line=()
    ms[old]=0 ms[new]=0
    for _ in $(seq "$runs"); do
        for build in old new; do
            binary=${!build}
            # A build with the opening book must solve, not look up.
            book=$("$binary" solve --help | grep -q -- --no-book && echo --no-book || true)
            # shellcheck disable=SC2086 # the options are words
            result=$("$binary" solve ${fen:+"$fen"} $options $book | tail -1)
            # result win|none first <uci>[ switch] plies <d> nodes <n> time <ms>
            line[$build]=$(sed -E 's/ time [0-9]+$//' <<<"$result")
            ms[$build]=$((ms[$build] + $(awk '{print $NF}' <<<"$result")))
        done
    done
    for build in old new; do
        read -r verdict first plies nodes < <(sed -E \
            's/^result (win|none) first (.*) plies ([0-9]+) nodes ([0-9]+)$/\1 \2 \3 \4/;s/ switch/+switch/' \
            <<<"${line[$build]}")
        mean=$((ms[$build] / runs))
        nps[$build]=$(awk -v n="$nodes" -v t="$mean" 'BEGIN {printf "%d", n * 1000 / (t > 0 ? t : 1)}')
        ratios="| |"
        if [ "$build" = new ]; then
            ratios=$(awk -v a="${nps[new]}" -v b="${nps[old]}" -v o="${ms[old]}" -v n="${ms[new]}" \
                'BEGIN {printf "| %.2f | %.2f |", a / b, o / (n > 0 ? n : 1)}')
        fi
        printf '| %s | %s | %s | %s | %s | %s | %s | %s %s\n' "$name" "$build" "$verdict" \
            "$plies" "${first/+/ }" "$nodes" "$mean" "${nps[$build]}" "$ratios"
    done
    if [ "${line[old]% nodes *}" != "${line[new]% nodes *}" ]; then
        echo "verdicts differ: ${line[old]} / ${line[new]}" >&2
        status=1
    fi
    unset ms line
done
exit $status
