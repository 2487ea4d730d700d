# Shared by the .cu test scripts (sourced after APP is set): how a case fails or passes, and what
# its output must or must not hold.
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }
# `has_lines WHAT OUTPUT PATTERN...`: OUTPUT has a line matching each PATTERN, else WHAT fails.
has_lines() {
  local what=$1 output=$2
  shift 2
  for pattern in "$@"; do grep -q -- "$pattern" <<<"$output" || fail "$what: no line '$pattern': $output"; done
}
# `lacks_lines WHAT OUTPUT PATTERN...`: no line of OUTPUT matches any PATTERN.
lacks_lines() {
  local what=$1 output=$2
  shift 2
  for pattern in "$@"; do ! grep -q -- "$pattern" <<<"$output" || fail "$what: a line '$pattern': $output"; done
}
# `expect_refused FILE PATTERN WHAT [RUN ARGS...]`: `run FILE` exits 2 with a message matching PATTERN.
expect_refused() {
  local file=$1 pattern=$2 what=$3 out rc
  shift 3
  set +e
  out=$("$APP" run "$file" "$@" 2>&1)
  rc=$?
  set -e
  [[ $rc -eq 2 ]] && grep -q -- "$pattern" <<<"$out" || fail "$what: exit $rc: $out"
}
# Skips the script (exit 0, saying why) where the build cannot translate .cu files or is a sanitizer's.
skip_unless_translating() {
  if [[ ! -x "$(dirname "$APP")/syncscope-translate" ]]; then
    echo "skip: this build has no syncscope-translate (Clang 14's libraries were not found)"
    exit 0
  fi
  if ldd "$APP" 2>/dev/null | grep -q 'libasan\|libubsan\|libtsan'; then
    echo "skip: these programs run on the release build, not under a sanitizer ($APP)"
    exit 0
  fi
}
