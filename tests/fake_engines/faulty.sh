#!/bin/sh
# A faulty UCI engine for tests/match.rs: the Catena binary CATENA, except that
# at its Nth `go` it does MODE:
#   crash    kills itself (signal 9) without answering
#   orphan   kills itself the same way, but leaves a child that holds its
#            output open for 20 seconds, so that the output does not close
#   exit     stops reading, so Catena and then the script end normally (status 0)
#   hang     never answers again
#   illegal  answers its move backwards (from the destination to the origin:
#            never legal, since no move ends on one's own piece)
#   switch   answers its move with `switch` (illegal on a first move: no chain
#            can form in the first two plies)
#   garbage  prints garbage and a `bestmove` that names no move
#   mute     (N is ignored) never finishes the `uci` handshake
# Usage: sh faulty.sh MODE N CATENA
# Plain `read` loops, not awk: they pass each line on at once.
mode=$1
n=$2
catena=$3
script=$$
if [ "$mode" = mute ]; then
    while read -r line; do
        [ "$line" = uci ] && echo "id name Mute" && echo "this is not uciok"
    done
    exit 0
fi
# The input filter writes its own answers to the script's output (fd 3).
exec 3>&1
gos=0
hung=
while IFS= read -r line; do
    case $line in go*)
        gos=$((gos + 1))
        if [ "$gos" -eq "$n" ]; then
            case $mode in
                crash) kill -9 "$script"; exit 0 ;;
                orphan) sleep 20 >&3 & kill -9 "$script"; exit 0 ;;
                exit) exit 0 ;;
                hang) hung=1 ;;
                garbage)
                    printf 'info depth ? score cp banana\n%%$#@!\nbestmove it depends\n' >&3
                    hung=1
                    ;;
            esac
        fi
        ;;
    esac
    [ -n "$hung" ] && continue
    printf '%s\n' "$line"
done | "$catena" | {
    moves=0
    while IFS= read -r line; do
        case $line in bestmove*)
            moves=$((moves + 1))
            if [ "$moves" -eq "$n" ]; then
                set -- $line
                to_promotion=${2#??}
                to=${to_promotion%"${to_promotion#??}"}
                from=${2%"$to_promotion"}
                case $mode in
                    illegal) line="bestmove $to$from" ;;
                    switch) line="bestmove $2 switch" ;;
                esac
            fi
            ;;
        esac
        printf '%s\n' "$line"
    done
}
