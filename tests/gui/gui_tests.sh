#!/usr/bin/env bash
# The desktop app in a real window under Xvfb, driven as a person would:
#   1. screenshots of a scenario at two steps: not blank, different in the block view (where the
#      shared memory changed), identical in the controls (where nothing did);
#   2. a running instance: Right/Left/Home/End/Space/F11 sent with xdotool move the timeline, as
#      the state file the app keeps says; Ctrl+Q closes it;
#   3. bad input gets its message and exit code 2 before an offscreen picture; a window opens on
#      the default demo with the message.
# Usage: gui_tests.sh path/to/syncscope source-dir
set -euo pipefail
APP=$(realpath "$1")
SRC=$(realpath "$2")

if [[ "${3:-}" != "--inside-xvfb" ]]; then
  exec xvfb-run -a -s "-screen 0 3900x2200x24" bash "$0" "$APP" "$SRC" --inside-xvfb
fi

WORK=$(mktemp -d)
export XDG_CONFIG_HOME="$WORK/config"  # the window layout the app saves: this run's, not the user's
PID=""
cleanup() { [[ -n "$PID" ]] && kill "$PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }
json() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, {'d': d}))" "$@"; }
region() {  # region STATEFILE PANEL -> WxH+X+Y
  json "$1" "'%dx%d+%d+%d' % (d['panels']['$2'][2], d['panels']['$2'][3], d['panels']['$2'][0], d['panels']['$2'][1])"
}
differing_pixels() {  # differing_pixels A B GEOMETRY
  convert "$1" -crop "$3" +repage "$WORK/crop1.png"
  convert "$2" -crop "$3" +repage "$WORK/crop2.png"
  compare -metric AE "$WORK/crop1.png" "$WORK/crop2.png" null: 2>&1 | cut -d' ' -f1 || true
}

# ---- 1. screenshots at two steps ----
SCENARIO="$SRC/assets/scenarios/seed003-kogge-stone.json"
"$APP" --scenario "$SCENARIO" --step 1 --screenshot "$WORK/read.png" --state-file "$WORK/read.json"
"$APP" --scenario "$SCENARIO" --step 2 --screenshot "$WORK/write.png" --state-file "$WORK/write.json"
[[ $(json "$WORK/write.json" "d['step']") == 2 ]] || fail "screenshot not at step 2"
for shot in read write; do
  colours=$(identify -format %k "$WORK/$shot.png")
  (( colours > 50 )) || fail "$shot.png looks blank ($colours colours)"
done
pass "screenshots are not blank"
block=$(differing_pixels "$WORK/read.png" "$WORK/write.png" "$(region "$WORK/write.json" 'Block view')")
controls=$(differing_pixels "$WORK/read.png" "$WORK/write.png" "$(region "$WORK/write.json" Controls)")
(( block > 500 )) || fail "the block view did not change between the read and the write phase ($block pixels)"
(( controls == 0 )) || fail "the controls changed between two steps ($controls pixels)"
pass "step 1 -> 2: $block pixels of the block view changed, the controls did not"
"$APP" --scenario "$SCENARIO" --step 4 --screenshot "$WORK/step4.png" --state-file "$WORK/step4.json"
(( $(identify -format %k "$WORK/step4.png") > 50 )) || fail "step4.png looks blank"
block=$(differing_pixels "$WORK/write.png" "$WORK/step4.png" "$(region "$WORK/step4.json" 'Block view')")
controls=$(differing_pixels "$WORK/write.png" "$WORK/step4.png" "$(region "$WORK/step4.json" Controls)")
(( block > 500 && controls == 0 )) || fail "step 2 -> 4: block view $block pixels, controls $controls"
pass "step 2 -> 4 (offset 2 read): $block pixels of the block view changed, the controls did not"

# Renders the step view plainly and with EXTRA options; the second frame must not be blank and
# must differ from the first in the block view (more than MIN pixels) and not in the code panel.
#   step_view_changes NAME MIN "what" -- APP-ARGS... -- EXTRA...
step_view_changes() {
  local name=$1 min=$2 what=$3; shift 4
  local args=() extra=()
  while [[ $1 != -- ]]; do args+=("$1"); shift; done
  shift
  extra=("$@")
  "$APP" "${args[@]}" --screenshot "$WORK/$name-plain.png" --state-file "$WORK/$name-plain.json"
  "$APP" "${args[@]}" "${extra[@]}" --screenshot "$WORK/$name.png" --state-file "$WORK/$name.json"
  (( $(identify -format %k "$WORK/$name.png") > 50 )) || fail "$name.png looks blank"
  local block code
  block=$(differing_pixels "$WORK/$name-plain.png" "$WORK/$name.png" "$(region "$WORK/$name.json" 'Block view')")
  code=$(differing_pixels "$WORK/$name-plain.png" "$WORK/$name.png" "$(region "$WORK/$name.json" Code)")
  (( block > min )) || fail "$what did not change the block view ($block pixels)"
  (( code == 0 )) || fail "$what changed the code panel ($code pixels)"
  pass "$what: $block pixels of the block view changed, the code panel did not"
}

# ---- 1b. the step view's replay: a forward-schedule race, whole step and 10 operations in ----
RACE=(gui kogge-stone --schedule forward --bug no-second-barrier --step 1)
step_view_changes race10 500 "replay at operation 10" -- "${RACE[@]}" -- --replay 10
[[ $(json "$WORK/race10.json" "d['replay']") == 10 ]] || fail "--replay 10 did not put the step view 10 operations in"
if "$APP" "${RACE[@]}" --replay -1 --screenshot "$WORK/bad.png" 2>"$WORK/bad.err"; then fail "--replay -1 was accepted"; fi
grep -q -- "--replay -1" "$WORK/bad.err" || fail "--replay -1 got no message naming it"
pass "--replay -1 is refused with its message"

# The warp scan, replayed into its third shfl_up round (lanes 0..31 each at operation 96..127).
step_view_changes scan3 2000 "warp scan at round 3" -- gui block-exclusive-sum --n 32 --tpb 32 --dtype int32 --step 0 -- --replay 128

# ---- 1c. a large block's focus window ----
step_view_changes focus 2000 "focus window at T512 of 1024" -- gui kogge-stone --n 1024 --tpb 1024 --dtype int32 --step 19 -- --focus 512

# A warp scan of 32 warps in a focus window: every warp's round k on lane row k (8 rounds).
step_view_changes scanfocus 2000 "focus window on the warp scan of 1024 threads" -- gui block-exclusive-sum --n 1024 --tpb 1024 --dtype int32 --step 0 -- --focus 40
[[ $(json "$WORK/scanfocus.json" "sorted(k for k in d['geometry']['rows'] if k.startswith('lanes'))") == "['lanes 0', 'lanes 1', 'lanes 2', 'lanes 3', 'lanes 4', 'lanes 5', 'lanes 6', 'lanes 7']" ]] ||
  fail "the focus window should show 8 lane rows: $(json "$WORK/scanfocus.json" "d['geometry']['rows']")"
pass "the focus window shows the 8 warp-operation rounds as lane rows"

# ---- 1d. layouts that fit: presenter mode at 1280x720, 1920x1080 and 3840x2160, the normal layout at 1280x720 ----
# From the geometry the panels drew with: every step-view row and the caption inside the window and
# inside the step view's visible area (no scrolling needed), no label wider than its box; at TPB 8
# on a 1280x720 projector cells at least 48 px wide.
fits() {  # fits STATEFILE MIN_CELL_W
  /usr/bin/python3 - "$1" "$2" <<'PY' || fail "layout check failed for $1"
import json, sys
d = json.load(open(sys.argv[1])); g = d['geometry']; W, H = g['window']
ax, ay, aw, ah = g['step_view_area']
bad = []
for name, (x, y, w, h) in g['rows'].items():
    if not (0 <= x and x + w <= W + 0.5 and 0 <= y and y + h <= H + 0.5): bad.append(name + ' outside the window')
    if name != 'caption' and not (ay - 0.5 <= y and y + h <= ay + ah + 0.5 and x + w <= ax + aw + 0.5):
        bad.append(name + ' outside the visible step view %s' % [x, y, w, h])
if g['overflowing']: bad.append('labels wider than their box: %s' % g['overflowing'])
if g['cell_w'] < float(sys.argv[2]): bad.append('cells %.1f px wide < %s' % (g['cell_w'], sys.argv[2]))
if 'caption' not in g['rows'] or len(g['rows']) < 5: bad.append('rows missing: %s' % list(g['rows']))
if bad: print('\n'.join(bad)); sys.exit(1)
print('%d rows, %d labels, cells %.0f px' % (len(g['rows']), g['labels'], g['cell_w']))
PY
}
for size in "1280 720 48" "1920 1080 72" "3840 2160 120"; do
  read -r W H MIN <<<"$size"
  whats=(seed003 race scan focus)
  (( W < 3840 )) || whats=(seed003 race)  # 4K: the TPB 8 pictures, where cells must grow with the screen
  for what in "${whats[@]}"; do
    case $what in
      seed003) args=(--scenario "$SCENARIO" --step 1); min=$MIN ;;
      race) args=(gui kogge-stone --schedule forward --bug no-second-barrier --step 1 --replay 10); min=$MIN ;;
      scan) args=(gui block-exclusive-sum --n 32 --tpb 32 --dtype int32 --step 0 --replay 128); min=0 ;;
      focus) args=(gui kogge-stone --n 1024 --tpb 1024 --dtype int32 --step 19 --focus 512); min=0 ;;
    esac
    "$APP" "${args[@]}" --presenter --width "$W" --height "$H" --screenshot "$WORK/presenter-$what-$W.png" \
      --state-file "$WORK/presenter-$what-$W.json"
    echo -n "presenter $W x $H $what: "
    fits "$WORK/presenter-$what-$W.json" "$min"
  done
done
"$APP" --scenario "$SCENARIO" --step 1 --width 1280 --height 720 --screenshot "$WORK/normal-1280.png" --state-file "$WORK/normal-1280.json"
echo -n "normal 1280 x 720 seed003: "
fits "$WORK/normal-1280.json" 0
# Eight lane rows of shuffles (fit squeezes the rows rather than scroll) and a 2D shared tile.
for what in scan tile; do
  case $what in
    scan) args=(gui block-exclusive-sum --n 32 --tpb 32 --dtype int32 --step 0) ;;
    tile) args=(gui "$SRC/tests/cuda/transpose_tiled_padded.cu" --step 1) ;;
  esac
  "$APP" "${args[@]}" --width 1280 --height 720 --screenshot "$WORK/normal-$what-1280.png" --state-file "$WORK/normal-$what-1280.json"
  echo -n "normal 1280 x 720 $what: "
  fits "$WORK/normal-$what-1280.json" 0
done
[[ $(json "$WORK/normal-tile-1280.json" "'tile 0' in d['geometry']['rows']") == True ]] ||
  fail "the transpose's tile[32][33] is not drawn as a tile: $(json "$WORK/normal-tile-1280.json" "list(d['geometry']['rows'])")"
pass "presenter layouts at 1280x720 and 1920x1080 and the normal one at 1280x720 show every row, labels fit"
# Stepping through the middle of a launch keeps every cell where it was (the frame reserves the
# tallest caption and the rows any step draws).
for k in 2 5; do
  "$APP" --scenario "$SCENARIO" --step $k --presenter --width 1280 --height 720 --state-file "$WORK/steady-$k.json" \
    --screenshot "$WORK/steady-$k.png"
done
steady="d['geometry']['cell_w'], d['geometry']['rows']['shared before'], d['geometry']['rows']['shared after']"
[[ $(json "$WORK/steady-2.json" "$steady") == "$(json "$WORK/steady-5.json" "$steady")" && \
   $(json "$WORK/steady-2.json" "$steady") == "$(json "$WORK/presenter-seed003-1280.json" "$steady")" ]] ||
  fail "the picture moved between steps 1, 2 and 5: $(json "$WORK/steady-2.json" "$steady") / $(json "$WORK/steady-5.json" "$steady")"
pass "steps 1, 2 and 5 draw their cells in the same places"

# The race lab in presenter mode: one bar per distinct output of the 19 schedules (as the CLI counts
# them), labels inside their boxes.
LAB=(kogge-stone --bug no-second-barrier)
"$APP" gui "${LAB[@]}" --compare-schedules --presenter --width 1280 --height 720 --screenshot "$WORK/presenter-lab-1280.png" \
  --state-file "$WORK/presenter-lab-1280.json"
distinct=$("$APP" run "${LAB[@]}" --schedule all --json | /usr/bin/python3 -c "import json,sys; print(len(json.load(sys.stdin)['schedules']['distinct']))")
bars=$(json "$WORK/presenter-lab-1280.json" "d['geometry']['race_lab_bars']")
[[ "$bars" == "$distinct" ]] || fail "race lab chart: $bars bars for $distinct distinct outputs"
[[ $(json "$WORK/presenter-lab-1280.json" "len(d['geometry']['overflowing'])") == 0 ]] || fail "race lab labels overflow"
pass "race lab chart in presenter mode: $bars bars, one per distinct output"
[[ -n "${GUI_SHOTS:-}" ]] && cp "$WORK"/presenter-*.png "$WORK"/normal-1280.png "$GUI_SHOTS"/

# ---- 1e. hand-outs: GIF, sheet, step-view PNG, Perfetto trace ----
"$APP" --scenario "$SCENARIO" --width 1280 --height 720 --gif "$WORK/seed003.gif" --sheet "$WORK/sheet.png" \
  --step-png "$WORK/step.png" --trace "$WORK/trace.json" >"$WORK/handouts.out"
frames=$(sed -n 's/.*seed003.gif: \([0-9]*\) frames/\1/p' "$WORK/handouts.out")
decoded=$(identify "$WORK/seed003.gif" | wc -l)
[[ -n "$frames" && "$decoded" == "$frames" ]] || fail "GIF: $decoded frames decoded, the exporter wrote ${frames:-?}"
steps=8  # seed 003: load, 3 offsets x (read, write), store
(( frames > 2 * steps )) || fail "GIF: $frames frames for $steps steps (no in-step replay?)"
bytes=$(stat -c %s "$WORK/seed003.gif")
(( bytes <= 2 * 1024 * 1024 )) || fail "GIF: $bytes bytes > 2 MiB"
grep -q "sheet.png: $steps steps" "$WORK/handouts.out" || fail "sheet: not one band per step: $(cat "$WORK/handouts.out")"
sheet_h=$(identify -format %h "$WORK/sheet.png"); step_h=$(identify -format %h "$WORK/step.png")
(( sheet_h >= 4 * step_h )) || fail "sheet: $sheet_h px tall, one step is $step_h"
pass "GIF: $frames frames, $bytes bytes; sheet: $steps bands, $sheet_h px; step PNG $step_h px"
# The trace: parses; one process per launch; reads, writes and barriers as many as the CLI counts.
"$APP" run kogge-stone --json >"$WORK/run.json"
/usr/bin/python3 - "$WORK/trace.json" "$WORK/run.json" <<'PY' || fail "Perfetto trace does not match the run"
import json, sys
t = json.load(open(sys.argv[1]))['traceEvents']; total = json.load(open(sys.argv[2]))['counters']['total']
count = lambda ph, cat=None: sum(1 for e in t if e['ph'] == ph and (cat is None or e.get('cat') == cat))
assert sum(1 for e in t if e['ph'] == 'M' and e['name'] == 'process_name') == 1, 'one launch'
assert count('X', 'step') == 8, 'slices: %d' % count('X', 'step')
assert count('i', 'read') == total['shared_reads'] + total['global_reads'], 'reads'
assert count('i', 'write') == total['shared_writes'] + total['global_writes'], 'writes'
assert count('i', 'sync') == total['barriers'], 'barriers'
assert all(e['ts'] >= 0 for e in t if 'ts' in e)
PY
"$APP" gui hierarchical-scan --trace "$WORK/h.json" >/dev/null
[[ $(json "$WORK/h.json" "sum(1 for e in d['traceEvents'] if e['name'] == 'process_name')") == 3 ]] || fail "hierarchical-scan trace: not 3 launches"
pass "Perfetto trace: launches, steps, reads, writes and barriers match the run"
if "$APP" --scenario "$SCENARIO" --gif "$WORK/x.gif" --from 99 2>"$WORK/bad.err"; then fail "--from 99 accepted"; fi
grep -q -- "--from 99" "$WORK/bad.err" || fail "--from 99: no message naming it"
[[ -n "${GUI_SHOTS:-}" ]] && cp "$WORK"/seed003.gif "$WORK"/sheet.png "$WORK"/step.png "$GUI_SHOTS"/

# ---- 1f. a write that fails: exit 1, the reason and the file named, the old file kept ----
# A file-size limit of 4 KiB (SIGXFSZ ignored: a write past it fails with "File too large", as on
# a full disk); each output already holds an old version that must survive.
for output in --screenshot:shot.png --gif:anim.gif --sheet:sheet-old.png --step-png:step-old.png --trace:trace-old.json; do
  option=${output%%:*}; file="$WORK/${output#*:}"
  echo "the old file" >"$file"
  code=0
  ( ulimit -f 4; trap '' XFSZ; exec "$APP" gui kogge-stone "$option" "$file" ) >/dev/null 2>"$WORK/full.err" || code=$?
  (( code == 1 )) || fail "$option with a full disk: exit $code, expected 1: $(cat "$WORK/full.err")"
  grep -qF "syncscope: $file: cannot write (File too large)" "$WORK/full.err" || fail "$option with a full disk: $(cat "$WORK/full.err")"
  [[ $(cat "$file") == "the old file" ]] || fail "$option with a full disk: the old file was not kept"
  [[ -z $(find "$WORK" -maxdepth 1 -name ".*.tmp-*") ]] || fail "$option with a full disk: a temporary file was left"
done
pass "a failed write (screenshot, GIF, sheet, step PNG, trace): exit 1, 'cannot write (File too large)', the old file kept"
# A scenario's step past the end of its run: a script fails with the limit.
printf '{"algorithm": "kogge-stone", "step": 99}' >"$WORK/past.json"
code=0
"$APP" --scenario "$WORK/past.json" --screenshot "$WORK/past.png" 2>"$WORK/past.err" || code=$?
(( code == 2 )) || fail "a scenario's step 99: exit $code"
grep -qF "past.json: \"step\" 99: launch 0 has steps 0..7; shown at launch 0, step 7" "$WORK/past.err" || fail "step 99: $(cat "$WORK/past.err")"
printf '{"algorithm": "kogge-stone", "time_limit": "5"}' >"$WORK/typo.json"
if "$APP" --scenario "$WORK/typo.json" --screenshot "$WORK/typo.png" 2>"$WORK/typo.err"; then fail "an unknown key was accepted"; fi
grep -qF 'unknown key "time_limit"; did you mean "time-limit"?' "$WORK/typo.err" || fail "time_limit: $(cat "$WORK/typo.err")"
pass "a scenario's step past the end and an unknown key: exit 2 with the limit, the nearest key"

# ---- 2. a running instance, driven with keys ----
STATE="$WORK/state.json"
"$APP" --state-file "$STATE" &
PID=$!
for _ in $(seq 100); do [[ -s "$STATE" ]] && break; sleep 0.2; done
[[ -s "$STATE" ]] || fail "the app never wrote its state file"
[[ $(json "$STATE" "d['algorithm'], d['position'], d['steps']") == "('kogge-stone', 0, 8)" ]] || fail "not the default demo: $(cat "$STATE")"
WID=$(xdotool search --sync --onlyvisible --name '^syncscope' | head -1)
xdotool windowfocus --sync "$WID" 2>/dev/null || true
wait_for() {  # wait_for EXPRESSION VALUE
  for _ in $(seq 50); do
    [[ $(json "$STATE" "$1" 2>/dev/null) == "$2" ]] && return 0
    sleep 0.1
  done
  fail "expected $1 == $2, state: $(cat "$STATE")"
}
xdotool key Right; wait_for "d['position']" 1
xdotool key Right Right; wait_for "d['position']" 3
xdotool key Left; wait_for "d['position']" 2
xdotool key End; wait_for "d['position']" 7
xdotool key Home; wait_for "d['position']" 0
pass "Right, Left, End, Home move the timeline"
xdotool key Right; wait_for "d['position']" 1
xdotool key period; wait_for "d['replay']" 1
xdotool key period period; wait_for "d['replay']" 3
xdotool key Right; wait_for "d['replay']" 0   # the next step starts at its beginning
xdotool key comma; wait_for "d['replay']" -1  # back past the start: the whole step again
xdotool key Home; wait_for "d['position']" 0
pass ". and , walk through the operations of a step"
xdotool key space; wait_for "d['playing']" True
for _ in $(seq 60); do (( $(json "$STATE" "d['position']") >= 2 )) && break; sleep 0.1; done
(( $(json "$STATE" "d['position']") >= 2 )) || fail "playing did not advance"
xdotool key space; wait_for "d['playing']" False
pass "Space plays and pauses"
xdotool key F11; wait_for "d['presenter']" True
pass "F11 switches to presenter mode"
xdotool key F5; wait_for "'Race lab' in d['panels']" True
xdotool key Escape; wait_for "'Race lab' in d['panels']" False
pass "F5 shows the race lab over the step view in presenter mode, Esc hides it"
xdotool key ctrl+q
for _ in $(seq 50); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
wait "$PID" || fail "the app exited with $?"
PID=""
pass "Ctrl+Q closes the app"
grep -q '^\[Window\]\[' "$XDG_CONFIG_HOME/syncscope/layout.ini" || fail "the window layout was not saved on closing"
[[ -z $(find "$XDG_CONFIG_HOME/syncscope" -name '.*.tmp-*') ]] || fail "a temporary layout file was left"
pass "the window layout is saved on closing, atomically"

# Two blocks side by side: a click on the second's name makes the caption, Code and Metrics follow it.
"$APP" gui two-phase-scan --step 0 --state-file "$STATE" &
PID=$!
for _ in $(seq 100); do [[ $(json "$STATE" "'block 1 name' in d['geometry']['rows']" 2>/dev/null) == True ]] && break; sleep 0.2; done
[[ $(json "$STATE" "d['focus_block']") == 0 ]] || fail "seed 000 should start on block 0: $(cat "$STATE")"
WID=$(xdotool search --sync --onlyvisible --name '^syncscope' | head -1)
read -r X Y < <(json "$STATE" "'%d %d' % (d['geometry']['rows']['block 1 name'][0] + 10, d['geometry']['rows']['block 1 name'][1] + 5)")
xdotool mousemove --window "$WID" "$X" "$Y" click 1
wait_for "d['focus_block']" 1
kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
pass "a click on a block's name beside others makes the views follow it"

# File > Export GIF (step view): the dialog's default path (in the working directory), Enter; the
# GIF has as many frames as --gif draws, and the view comes back where it was.
(cd "$WORK" && exec "$APP" --state-file "$STATE") &
PID=$!
for _ in $(seq 100); do [[ -s "$STATE" ]] && break; sleep 0.2; done
WID=$(xdotool search --sync --onlyvisible --name '^syncscope' | head -1)
xdotool key Right Right; wait_for "d['position']" 2
before=$(json "$STATE" "d['panels']['Block view']")
xdotool mousemove --window "$WID" 20 10 click 1
item="menu: Export GIF (step view)..."
for _ in $(seq 50); do [[ $(json "$STATE" "'$item' in d['geometry']['rows']" 2>/dev/null) == True ]] && break; sleep 0.1; done
read -r X Y < <(json "$STATE" "'%d %d' % (d['geometry']['rows']['$item'][0] + 20, d['geometry']['rows']['$item'][1] + 5)") ||
  fail "the File menu has no '$item'"
xdotool mousemove --window "$WID" "$X" "$Y" click 1
sleep 0.5
xdotool keydown Return; sleep 0.1; xdotool keyup Return  # Dear ImGui 1.86 misses a press shorter than a frame
for _ in $(seq 150); do [[ $(json "$STATE" "d['message']") == *frames* ]] && break; sleep 0.2; done
[[ $(json "$STATE" "d['message']") == "syncscope.gif: "*" frames" ]] || fail "File > Export GIF said: $(json "$STATE" "d['message']")"
frames=$(identify "$WORK/syncscope.gif" | wc -l)
expected=$(identify "$WORK/seed003.gif" | wc -l)
(( frames == expected )) || fail "File > Export GIF wrote $frames frames, --gif $expected"
wait_for "d['position']" 2
wait_for "d['panels']['Block view']" "$before"
kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
pass "File > Export GIF: $frames frames, the view back at step 2 in its place"

# A kernel file, live: opened with --kernel, edited on disk while the app runs (the new trace
# arrives without a click), broken (the compiler's message at its line, the last trace kept, the
# app alive), mended.
export SYNCSCOPE_CACHE_DIR="$WORK/kernel-cache"
cp "$SRC/assets/kernels/brent_kung_scan.h" "$WORK/live.h"
"$APP" gui --kernel "$WORK/live.h" --state-file "$STATE" &
PID=$!
for _ in $(seq 150); do [[ $(json "$STATE" "d.get('algorithm')" 2>/dev/null) == brent-kung-scan ]] && break; sleep 0.2; done
wait_for "d['algorithm']" brent-kung-scan
wait_for "d['steps']" 10
extra=$(( $(grep -n 'c.caption("store' "$WORK/live.h" | cut -d: -f1) - 1 ))
sed -n "${extra}p" "$WORK/live.h" | grep -q 'c.sync();' || fail "live.h: no barrier before the store at line $extra"
t0=$(date +%s.%N)
sed -i "${extra}d" "$WORK/live.h"  # the barrier before the store was one too many
for _ in $(seq 150); do [[ $(json "$STATE" "d['steps']") == 9 ]] && break; sleep 0.1; done
wait_for "d['steps']" 9
edit_s=$(echo "$(date +%s.%N) - $t0" | bc)
bad=$(grep -n 's\[k\] += s\[k - d\];' "$WORK/live.h" | cut -d: -f1)
sed -i 's/s\[k\] += s\[k - d\];/s[k] += s[k - dd];/' "$WORK/live.h"
for _ in $(seq 150); do [[ $(json "$STATE" "d['kernel']") == *"live.h:$bad: error"* ]] && break; sleep 0.1; done
[[ $(json "$STATE" "d['kernel']") == *"live.h:$bad: error"* ]] || fail "no compiler message at line $bad: $(json "$STATE" "d['kernel']")"
[[ $(json "$STATE" "d['steps']") == 9 ]] || fail "the last good trace was not kept"
kill -0 "$PID" || fail "the app died on a syntax error"
sed -i 's/s\[k - dd\]/s[k - d]/' "$WORK/live.h"  # mended: the edited version again, from the cache
for _ in $(seq 150); do [[ $(json "$STATE" "d['kernel']") == *"from the cache"* ]] && break; sleep 0.1; done
wait_for "d['kernel']" "brent-kung-scan from live.h: from the cache"
wait_for "d['steps']" 9
# A save that makes thread 3 call abort(): its worker dies, the window stays up with the last
# trace and the message at the line.
store=$(grep -n 'c.caption("store' "$WORK/live.h" | cut -d: -f1)
sed -i "${store}i if (c.thread_idx().x == 3) std::abort();" "$WORK/live.h"
for _ in $(seq 200); do [[ $(json "$STATE" "d.get('stopped', '')") == *"abort"* ]] && break; sleep 0.1; done
[[ $(json "$STATE" "d.get('stopped', '')") == "the kernel called abort() (a failed assert?) at live.h:$store" ]] ||
  fail "an aborting save: $(json "$STATE" "d.get('stopped', 'no stop')")"
kill -0 "$PID" || fail "the app died when the kernel called abort()"
[[ $(json "$STATE" "d['steps']") == 9 ]] || fail "the last good trace was not kept after abort()"
kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
pass "a kernel file, live: edit -> new trace in ${edit_s} s; a syntax error shows line $bad and keeps the trace; mended; a save that calls abort() at line $store: the window stays up with the message at the line"
# A .cu program, live: a barrier taken out of a copy of kogge_stone_scan.cu while the app shows it
# (17 steps -> 9: the translation, its compile and the run, as a student's edit goes), then put back.
cp "$SRC/tests/cuda/kogge_stone_scan.cu" "$WORK/live.cu"
"$APP" gui "$WORK/live.cu" --state-file "$STATE" &
PID=$!
for _ in $(seq 150); do [[ $(json "$STATE" "d.get('algorithm')" 2>/dev/null) == live.cu ]] && break; sleep 0.2; done
wait_for "d['algorithm']" live.cu
wait_for "d['steps']" 17
barrier=$(grep -n '__syncthreads();' "$WORK/live.cu" | tail -1 | cut -d: -f1)
t0=$(date +%s.%N)
sed -i "${barrier}s|__syncthreads();|// no barrier|" "$WORK/live.cu"
for _ in $(seq 300); do grep -q '"steps":9[,}]' "$STATE" 2>/dev/null && break; sleep 0.05; done  # grep: no python between looks
cu_edit_s=$(echo "$(date +%s.%N) - $t0" | bc)
wait_for "d['steps']" 9
[[ $(json "$STATE" "d['kernel']") == "live.cu from live.cu: compiled in "* ]] || fail "the edited .cu: $(json "$STATE" "d['kernel']")"
sed -i "${barrier}s|// no barrier|__syncthreads();|" "$WORK/live.cu"  # as it was: from the cache
for _ in $(seq 150); do [[ $(json "$STATE" "d['kernel']") == *"from the cache"* ]] && break; sleep 0.1; done
wait_for "d['steps']" 17
kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
pass "a .cu program, live: a barrier taken out -> new trace (17 steps -> 9) in ${cu_edit_s} s; put back, from the cache"
# File > Open CUDA program, a .cu without main(): its launch typed into the dialog's fields (what
# --grid, --block and --arg say on the command line); a size of 0 is refused in the dialog.
(cd "$WORK" && exec "$APP" --state-file "$STATE") &
PID=$!
for _ in $(seq 100); do [[ -s "$STATE" ]] && break; sleep 0.2; done
WID=$(xdotool search --sync --onlyvisible --name '^syncscope' | head -1)
xdotool key Right; wait_for "d['position']" 1
xdotool mousemove --window "$WID" 20 10 click 1
click_row() {  # click_row NAME: the middle-left of a row the frame's geometry names
  for _ in $(seq 50); do [[ $(json "$STATE" "'$1' in d['geometry']['rows']" 2>/dev/null) == True ]] && break; sleep 0.1; done
  read -r X Y < <(json "$STATE" "'%d %d' % (d['geometry']['rows']['$1'][0] + 10, d['geometry']['rows']['$1'][1] + 5)") ||
    fail "no '$1' on screen"
  xdotool mousemove --window "$WID" "$X" "$Y" click 1
  sleep 0.5
}
# Return, held for longer each time until EXPRESSION is True: a press shorter than a frame is missed,
# and a frame under llvmpipe on a busy machine can take longer than any fixed wait.
press_return_until() {
  for hold in 0.1 0.3 0.6 1 1.5; do
    xdotool keydown Return; sleep "$hold"; xdotool keyup Return
    for _ in $(seq 20); do [[ $(json "$STATE" "$1" 2>/dev/null) == True ]] && return 0; sleep 0.1; done
  done
  fail "Return did not make $1 true: $(cat "$STATE")"
}
click_row "menu: Open CUDA program (.cu) or kernel file..."
sleep 0.5
xdotool key ctrl+a; xdotool type --delay 10 "$SRC/tests/cuda/no_main/scale.cu"
click_row "dialog: grid"; xdotool type --delay 10 0
click_row "dialog: block"; xdotool type --delay 10 64
press_return_until "'dialog: error' in d['geometry']['rows']"  # a grid of 0, refused in the dialog
# Ctrl+A held over a frame or more (a tap can fall between two frames and be missed).
click_row "dialog: grid"; xdotool keydown ctrl keydown a; sleep 0.3; xdotool keyup a keyup ctrl
xdotool type --delay 10 " 4 "  # spaces around it: trimmed
click_row "dialog: arguments"; xdotool type --delay 10 factor=0.5
press_return_until "'dialog: grid' not in d['geometry']['rows']"  # the dialog closed
for _ in $(seq 300); do [[ $(json "$STATE" "d.get('algorithm')" 2>/dev/null) == scale.cu ]] && break; sleep 0.2; done
wait_for "d['algorithm']" scale.cu
wait_for "d['steps']" 1
[[ $(json "$STATE" "d['kernel']") == "scale.cu from scale.cu: "* ]] || fail "File > Open scale.cu: $(json "$STATE" "d['kernel']")"
wait_for "d['message']" "$(json "$STATE" "d['kernel']")"  # "compiling ..." in the menu bar no more
kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
pass "File > Open a .cu without main(): grid 0 refused in the dialog; grid 4, block 64, factor=0.5 launch its kernel; the menu bar says how the compile ended"
"$APP" gui --kernel "$SRC/tests/kernel_files/crashing_kernel.h" --screenshot "$WORK/crash.png" --state-file "$WORK/crash.json" ||
  fail "the app did not survive a crashing kernel (exit $?)"
[[ $(json "$WORK/crash.json" "d['algorithm']") == crashing ]] || fail "the crashing kernel was not shown"
pass "a kernel that crashes leaves the app running (its run stopped, the hazards say why)"

# ---- 3. bad input ----
set +e
"$APP" gui kogge-stone --tpb 2000 2>"$WORK/err"; code=$?
set -e
[[ $code == 2 ]] || fail "--tpb 2000 gave exit code $code"
grep -q -- "--tpb 2000: threads per block must be 1..1024" "$WORK/err" || fail "message: $(cat "$WORK/err")"
set +e
"$APP" --scenario "$WORK/missing.json" --screenshot "$WORK/missing.png" 2>"$WORK/err"; code=$?
set -e
[[ $code == 2 ]] || fail "a missing scenario for a screenshot gave exit code $code"
grep -q "cannot open" "$WORK/err" || fail "message: $(cat "$WORK/err")"
pass "bad input: exit code 2 with the option, the value and the limit"

# A window asked for a scenario it cannot read opens on the default demo and says why.
STATE="$WORK/fallback.json"
"$APP" --scenario "$WORK/missing.json" --state-file "$STATE" 2>"$WORK/err" &
PID=$!
for _ in $(seq 100); do [[ -s "$STATE" ]] && break; sleep 0.2; done
[[ -s "$STATE" ]] || fail "the app given a missing scenario never opened"
[[ $(json "$STATE" "d['algorithm']") == kogge-stone ]] || fail "not the default demo: $(cat "$STATE")"
json "$STATE" "d['message']" | grep -q "missing.json" || fail "no message naming the file: $(cat "$STATE")"
kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
pass "a missing scenario: the window opens on the default demo with a message naming the file"

# A window asked for a .cu the translator refuses opens on the demo with the refusal in the Code
# panel, and watches the file: saved mended, its program runs.
cat >"$WORK/refused.cu" <<'CU'
struct P { float x, y; };
__device__ void move(P &p) { p.x += p.y; }
__global__ void k(P *ps) { move(ps[threadIdx.x]); }
int main() { P *d; cudaMalloc(&d, 32 * sizeof(P)); k<<<1, 32>>>(d); return 0; }
CU
STATE="$WORK/refused-state.json"
"$APP" gui "$WORK/refused.cu" --state-file "$STATE" 2>"$WORK/err" &
PID=$!
for _ in $(seq 150); do [[ -s "$STATE" ]] && json "$STATE" "d['kernel']" | grep -q "error" && break; sleep 0.2; done
[[ -s "$STATE" ]] || fail "the app given a refused .cu never opened: $(cat "$WORK/err")"
[[ $(json "$STATE" "d['algorithm']") == kogge-stone ]] || fail "a refused .cu: not the default demo: $(cat "$STATE")"
json "$STATE" "d['message']" | grep -q "refused.cu was refused" || fail "a refused .cu: no message naming the file: $(cat "$STATE")"
json "$STATE" "d['kernel']" | grep -q "refused.cu:3:.*a struct in device memory" || fail "a refused .cu: the refusal is not shown: $(cat "$STATE")"
sed -i 's/__device__ void move(P &p) { p.x += p.y; }/__device__ void move(P *p) { p->x += p->y; }/; s/move(ps\[threadIdx.x\])/move(\&ps[threadIdx.x])/' "$WORK/refused.cu"
touch -d '+2 seconds' "$WORK/refused.cu"
for _ in $(seq 200); do [[ $(json "$STATE" "d['algorithm']") == refused.cu ]] && break; sleep 0.2; done
[[ $(json "$STATE" "d['algorithm']") == refused.cu ]] || fail "the mended .cu did not run: $(cat "$STATE")"
kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
pass "a refused .cu: the window opens on the demo with the refusal in the Code panel, and runs the file once it is mended"
