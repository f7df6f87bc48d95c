#!/bin/sh
# A scripted UCI engine for tests/match.rs: at each `go` it answers the move
# of its argument list whose index is the number of moves played so far (the
# moves of the last `position` command), whichever colour it has. A move
# written `d2d3:switch` is answered `bestmove d2d3 switch`.
# Usage: sh scripted.sh [--sscc] [--delay SECONDS] [--score CP] [--latin1] MOVE...
#   --sscc    offer `UCI_Variant` with `sscc`, and read `switch` tokens;
#             without it a `switch` token ends the move list, as an engine
#             that does not know SSCC would stop at a move it cannot read
#   --delay   wait this long before each answer
#   --score   report this score (`info depth 1 score cp CP`) before each answer
#   --latin1  write its author and an `info string` before each answer in
#             Latin-1, which is not UTF-8
sscc=
delay=0
score=
latin1=
while :; do
    case $1 in
    --sscc) sscc=1 && shift ;;
    --delay) delay=$2 && shift 2 ;;
    --score) score=$2 && shift 2 ;;
    --latin1) latin1=1 && shift ;;
    *) break ;;
    esac
done
played=0
while IFS= read -r line; do
    case $line in
    uci)
        echo "id name Scripted"
        [ -n "$latin1" ] && printf 'id author J\374rgen\n'
        [ -n "$sscc" ] && echo "option name UCI_Variant type combo default chess var chess var sscc"
        echo "uciok"
        ;;
    isready) echo "readyok" ;;
    position*)
        played=0
        counting=
        for word in $line; do
            if [ "$word" = switch ]; then
                [ -z "$sscc" ] && counting=
                continue
            fi
            [ -n "$counting" ] && played=$((played + 1))
            [ "$word" = moves ] && counting=1
        done
        ;;
    go*)
        sleep "$delay"
        [ -n "$score" ] && echo "info depth 1 score cp $score"
        [ -n "$latin1" ] && printf 'info string caf\351\n'
        index=0
        for mv in "$@"; do
            if [ "$index" -eq "$played" ]; then
                echo "bestmove $(printf '%s' "$mv" | tr ':' ' ')"
                break
            fi
            index=$((index + 1))
        done
        ;;
    quit) exit 0 ;;
    esac
done
