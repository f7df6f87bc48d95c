#!/bin/sh
# A scripted UCI engine for tests/match.rs: at each `go` it answers the move
# of its argument list whose index is the number of moves played so far (the
# moves of the last `position` command), whichever colour it has.
# Usage: sh scripted.sh MOVE...
played=0
while IFS= read -r line; do
    case $line in
    uci) echo "id name Scripted" && echo "uciok" ;;
    isready) echo "readyok" ;;
    position*)
        played=0
        counting=
        for word in $line; do
            [ -n "$counting" ] && played=$((played + 1))
            [ "$word" = moves ] && counting=1
        done
        ;;
    go*)
        index=0
        for mv in "$@"; do
            if [ "$index" -eq "$played" ]; then
                echo "bestmove $mv"
                break
            fi
            index=$((index + 1))
        done
        ;;
    quit) exit 0 ;;
    esac
done
