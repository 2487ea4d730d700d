#!/usr/bin/env bash
# Every lesson played end to end at 1280x720 (`gui --play-through`): every shipped scenario, every
# shipped algorithm at its default size, hierarchical-scan at n = 2^20 and kogge-stone at TPB 1024.
# Each from the first step of the first launch to the last step of the last launch and back, in
# the normal layout and presenter mode, with replay off and on, several blocks side by side where
# they fit; midway the window is resized, presenter mode switched and an unrecorded block asked
# for while the lesson plays. A crash, a frame at the wrong place or a step view that neither drew
# nor said what it waits for fails the test. scripts/sanitize.sh runs it under ASan + UBSan too.
# Usage: play_through.sh path/to/syncscope source-dir
set -euo pipefail
APP=$(realpath "$1")
SRC=$(realpath "$2")

if [[ "${3:-}" != "--inside-xvfb" ]]; then
  exec xvfb-run -a -s "-screen 0 1280x720x24" bash "$0" "$APP" "$SRC" --inside-xvfb
fi

lessons=()
for scenario in "$SRC"/assets/scenarios/*.json; do lessons+=("--scenario $scenario"); done
for algorithm in $("$APP" list --json | /usr/bin/python3 -c \
    "import json, sys; print(' '.join(a['name'] for a in json.load(sys.stdin)['algorithms']))"); do
  lessons+=("gui $algorithm")
done
lessons+=("gui hierarchical-scan --n 1048576 --block 0 --block 1" "gui kogge-stone --n 1024 --tpb 1024")
(( ${#lessons[@]} >= 20 )) || { echo "FAIL: only ${#lessons[@]} lessons found" >&2; exit 1; }

failed=0
for lesson in "${lessons[@]}"; do
  # shellcheck disable=SC2086  # a lesson is its words
  if out=$("$APP" $lesson --width 1280 --height 720 --play-through 2>&1); then
    echo "ok: ${lesson#"$SRC/"}: ${out#play-through: }"
  else
    echo "FAIL (exit $?): $lesson" >&2
    echo "$out" | tail -20 >&2
    failed=1
  fi
done
(( failed == 0 )) || exit 1
echo "ok: ${#lessons[@]} lessons played end to end and back"
