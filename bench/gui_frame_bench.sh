#!/usr/bin/env bash
# Frame times of the app at TPB 1024 while playing (one step per frame), under Xvfb + Mesa
# llvmpipe: the whole app, and the block view alone filling the window. Software rendering on the
# CPU, with llvmpipe's own threads (default) and on one thread (LP_NUM_THREADS=1); then the step
# view's replay animation at TPB 8.
#   bench/gui_frame_bench.sh [build/syncscope]
set -euo pipefail
APP=${1:-build/syncscope}
FRAMES=${FRAMES:-300}
run() { xvfb-run -a -s "-screen 0 1600x1000x24" "$APP" gui kogge-stone --n 1024 --tpb 1024 --bench-frames "$FRAMES"; }
echo "== llvmpipe, default threads"
run
echo "== llvmpipe, one thread (LP_NUM_THREADS=1): CPU time = render time"
LP_NUM_THREADS=1 run
# The step view's replay at the seed size: one operation per frame through a forward-schedule race.
echo "== replay animation, TPB 8 (one operation per frame), llvmpipe default threads"
xvfb-run -a -s "-screen 0 1600x1000x24" "$APP" gui kogge-stone --schedule forward --bug no-second-barrier --replay 0 \
  --bench-frames "$FRAMES"
