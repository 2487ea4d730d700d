#!/usr/bin/env bash
# Frame times of the whole app at 1280x720 while playing (one step per frame), for every lesson:
# every shipped scenario, every algorithm at its default size, hierarchical-scan at 2^20 and
# kogge-stone at TPB 1024, in the normal layout and in presenter mode, under Xvfb + Mesa llvmpipe
# (software rendering on this machine's cores). The budget is a 60 Hz frame: median <= 16.7 ms.
# Prints one row per lesson and layout; exits 1 when a median is over the budget.
#   bench/gui_frame_bench.sh [build/syncscope] [source-dir]      FRAMES=120 by default
set -euo pipefail
APP=$(realpath "${1:-build/syncscope}")
SRC=$(realpath "${2:-.}")
FRAMES=${FRAMES:-120}
BUDGET=${BUDGET:-16.7}

lessons=()
for scenario in "$SRC"/assets/scenarios/*.json; do lessons+=("--scenario $scenario"); done
for algorithm in $("$APP" list --json | /usr/bin/python3 -c \
    "import json, sys; print(' '.join(a['name'] for a in json.load(sys.stdin)['algorithms']))"); do
  lessons+=("gui $algorithm")
done
lessons+=("gui hierarchical-scan --n 1048576" "gui kogge-stone --n 1024 --tpb 1024")

over=0
printf '%-58s %-9s %8s %7s %11s %10s\n' "lesson (1280x720, playing)" layout "median" "p95" "block view" triangles
for lesson in "${lessons[@]}"; do
  for layout in normal presenter; do
    flag=(); [[ $layout == presenter ]] && flag=(--presenter)
    # shellcheck disable=SC2086  # a lesson is its words
    out=$(xvfb-run -a -s "-screen 0 1280x720x24" "$APP" $lesson "${flag[@]}" --width 1280 --height 720 --bench-frames "$FRAMES")
    row=$(echo "$out" | awk '/^whole app/ {print $3, $4, $9}')
    alone=$(echo "$out" | awk '/^block view alone/ {print $4}')
    read -r median p95 triangles <<<"$row"
    name=${lesson#--scenario "$SRC"/assets/scenarios/}
    name=${name#gui }
    printf '%-58s %-9s %6s ms %4s ms %8s ms %10s\n' "$name" "$layout" "$median" "$p95" "$alone" "$triangles"
    if awk -v m="$median" -v b="$BUDGET" 'BEGIN {exit !(m > b)}'; then over=$((over + 1)); fi
  done
done
echo "over the ${BUDGET} ms budget: $over of $(( ${#lessons[@]} * 2 ))"
(( over == 0 ))
