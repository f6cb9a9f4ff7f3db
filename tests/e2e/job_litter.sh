# A job that scripts/run starts (its launcher, scripts/lib/launch.bash) leaves nothing in
# /dev/shm however it ends: SIGTERM to the launcher, SIGKILL to mpirun. Open MPI's vader segments
# go to a folder of the job's own, removed when mpirun is done.
source "$(dirname "$0")/lib.bash"
source scripts/lib/launch.bash
# As a user's shell would be: no segment folder set (lib.bash sets one for the tests' own jobs).
unset OMPI_MCA_btl_vader_backing_directory

cat > "$WORK/long.json" <<'JSON'
{"name": "long", "kind": "collective",
 "settings": {"world_size": 2, "max_bytes": 64, "min_time_s": 1, "quiet_wait_s": 0},
 "sweep": {"warmup_iters": [1, 2, 3, 4, 5, 6, 7, 8]}}
JSON

# What is in /dev/shm that no live process uses: a running job's segments are mapped by its
# ranks, and its folder named in mpirun's environment; litter is neither.
unused_shm() {
  local in_use path
  in_use=$(cat /proc/[0-9]*/maps /proc/[0-9]*/environ 2>/dev/null | tr '\0' '\n' | grep -ao '/dev/shm/[^ ]*' | sort -u || true)
  for path in /dev/shm/vader_segment.* /dev/shm/harness-job.*; do
    [ -e "$path" ] || continue
    grep -qxF "$path" <<<"$in_use" || grep -qF "=$path" <<<"$in_use" || echo "$path"
  done | sort
}
before=$(unused_shm)
# Until the job's ranks are past MPI_Init (its results folder has its meta.json).
wait_for_start() {
  for _ in $(seq 600); do
    ls "$1"/*/*/meta.json > /dev/null 2>&1 && return 0
    sleep 0.05
  done
  fail "the job under $1 did not start within 30 s"
}

# 1. SIGTERM to the launcher (scripts/run): passed on to mpirun, the folder removed.
( launch_job "$WORK/console1" "$WORK/errors1" 2 "$HARNESS" "$WORK/long.json" -q \
    --results-dir "$WORK/t1" ) > /dev/null 2>&1 &
launcher=$!
wait_for_start "$WORK/t1"
kill -TERM "$launcher"
wait "$launcher" || true
grep -q 'harness: interrupted (SIGTERM)' "$WORK/errors1" ||
  { cat "$WORK/errors1"; fail "the job was not interrupted by the SIGTERM passed on"; }
left=$(comm -13 <(echo "$before") <(unused_shm))
[ -z "$left" ] || fail "SIGTERM to the launcher left in /dev/shm: $left"
echo "ok: SIGTERM to the launcher leaves nothing in /dev/shm"

# 2. SIGKILL to mpirun: Open MPI cannot clean up, the launcher does.
( launch_job "$WORK/console2" "$WORK/errors2" 2 "$HARNESS" "$WORK/long.json" -q \
    --results-dir "$WORK/t2" ) > /dev/null 2>&1 &
launcher=$!
wait_for_start "$WORK/t2"
pkill -KILL -f "^mpirun.*$WORK/long.json" || fail "no mpirun to kill"
wait "$launcher" || true
kill_job "$launcher"  # the ranks a killed mpirun leaves for a while
left=$(comm -13 <(echo "$before") <(unused_shm))
[ -z "$left" ] || fail "SIGKILL to mpirun left in /dev/shm: $left"
echo "ok: SIGKILL to mpirun leaves nothing in /dev/shm"
echo PASS
