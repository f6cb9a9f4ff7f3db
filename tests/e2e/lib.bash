# Shared helpers for the end-to-end tests (sourced, not run).
set -euo pipefail
HARNESS=${1:?usage: $0 path/to/harness}
# Tests run from the source root (ctest sets WORKING_DIRECTORY).
MPIRUN=${HARNESS_MPIRUN:-mpirun --oversubscribe --bind-to none}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
WORK=$(mktemp -d)
# Open MPI's shared-memory segments (vader) of this test's jobs go to a folder of the test's
# own, removed with it: the jobs a test kills leave nothing in /dev/shm.
SEGMENTS=$(mktemp -d /dev/shm/harness-e2e.XXXXXX)
export OMPI_MCA_btl_vader_backing_directory=$SEGMENTS
trap 'rm -rf "$WORK" "$SEGMENTS"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
# expect_error EXPECTED_TEXT COMMAND...: the command must exit 2 and print EXPECTED_TEXT.
expect_error() {
  local expected=$1; shift
  local status=0
  "$@" >"$WORK/out" 2>&1 || status=$?
  [ "$status" -eq 2 ] || { cat "$WORK/out"; fail "exit $status, expected 2: $*"; }
  grep -qF -- "$expected" "$WORK/out" || { cat "$WORK/out"; fail "missing '$expected' from: $*"; }
  echo "ok: $expected"
}
# kill_job PID: a job killed outright (SIGKILL): mpirun's process group, and every process whose
# command line names this test's folder (Open MPI starts each rank in a process group of its
# own, so a rank outlives a killed mpirun for a while); returns once none of them is left.
kill_job() {
  kill -KILL -- -"$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
  local pids f
  for _ in $(seq 100); do
    pids=""
    for f in /proc/[0-9]*/cmdline; do
      case "$(tr '\0' ' ' < "$f" 2>/dev/null)" in
        *"$WORK"*) f=${f#/proc/}; pids="$pids ${f%/cmdline}" ;;
      esac
    done
    [ -z "$pids" ] && return 0
    kill -KILL $pids 2>/dev/null || true
    sleep 0.1
  done
  fail "processes of the killed job are still alive:$pids"
}
# The only results folder under $1/<name>/.
only_run_dir() { ls -d "$1"/*/*/ | head -1; }
py() { python3 - "$@"; }
# wait_for_records RESULTS_BASE N: until the run under RESULTS_BASE/<name>/<time>/ has recorded
# N trials (at most 30 s), so a test can interrupt a sweep midway.
wait_for_records() {
  local file
  for _ in $(seq 600); do
    file=$(ls "$1"/*/*/trials.jsonl 2>/dev/null || true)
    [ -n "$file" ] && [ "$(grep -c . "$file")" -ge "$2" ] && return 0
    sleep 0.05
  done
}
