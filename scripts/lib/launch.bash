# launch_job CONSOLE ERRORS RANKS COMMAND...: runs COMMAND under mpirun on RANKS ranks (with
# --bind-to none: bound ranks give Gloo a ~4 ms floor per call; --oversubscribe: more ranks
# than cores is fine for a functional run on a small machine). stdout and stderr each reach the
# terminal as they come and are kept in CONSOLE and ERRORS. Returns mpirun's status.
#
# Open MPI's shared-memory transport (vader) keeps a segment file per rank in /dev/shm and
# removes it at MPI_Finalize, so a job that is killed (SIGTERM or SIGKILL to mpirun, the OOM
# killer) leaves vader_segment.* files behind. The job's go to a folder of its own under
# /dev/shm instead, removed when the job ends however it ends. A SIGTERM to the caller is
# passed on to mpirun (whose ranks then stop as the harness does when interrupted); SIGINT is
# not, since from a terminal mpirun receives it itself; either way the folder goes once mpirun
# is done.
launch_job() {
  local console=$1 errors=$2 ranks=$3; shift 3
  local segments out err tee_out tee_err pid status=0
  segments=$(mktemp -d /dev/shm/harness-job.XXXXXX)
  exec {out}> >(tee "$console")
  tee_out=$!
  exec {err}> >(tee "$errors" >&2)
  tee_err=$!
  OMPI_MCA_btl_vader_backing_directory=$segments \
    mpirun --bind-to none --oversubscribe -np "$ranks" "$@" >&$out 2>&$err &
  pid=$!
  # shellcheck disable=SC2064  # the pid is fixed now
  trap "kill -TERM $pid 2>/dev/null || true" TERM
  trap : INT
  # A trapped signal ends `wait` early; wait again until mpirun is gone.
  wait "$pid" || status=$?
  while kill -0 "$pid" 2>/dev/null; do status=0; wait "$pid" || status=$?; done
  trap - TERM INT
  exec {out}>&- {err}>&-
  wait "$tee_out" "$tee_err" 2>/dev/null || true
  rm -rf "$segments"
  return "$status"
}

# launch_sweep CONSOLE ERRORS RANKS HARNESS [ARGUMENTS...]: launch_job, then the job again with
# --resume for as long as the watchdog ended it after recording the trial it was in. That is a
# backend call that never returned on a peer (or a rank stuck past timeout_s): no rank can take
# such a call back, so only the job's end frees the ranks, and the trials after it are run by a
# fresh job on the same folder. At most HARNESS_RELAUNCHES times (10); each launch records one
# more trial and --resume skips the recorded ones, so the sweep ends. Returns the last status.
launch_sweep() {
  local console=$1 errors=$2 ranks=$3; shift 3
  local status folder relaunches=0 limit=${HARNESS_RELAUNCHES:-10} arguments=("$@")
  while :; do
    status=0
    launch_job "$console" "$errors" "$ranks" "${arguments[@]}" || status=$?
    [ "$status" -ne 0 ] || return 0
    folder=$(sed -n 's/^harness: watchdog: recorded the trial as [a-z]* in \(.*\)\/trials\.jsonl; .*$/\1/p' \
      "$errors" | tail -1)
    [ -n "$folder" ] && [ "$relaunches" -lt "$limit" ] || return "$status"
    relaunches=$((relaunches + 1))
    echo "scripts/run: the watchdog ended the job after recording the trial it was in;" \
      "going on with the trials after it: --resume $folder (relaunch $relaunches of at most" \
      "$limit, HARNESS_RELAUNCHES)" >&2
    # A job that was resuming already resumes the same folder.
    printf '%s\n' "$@" | grep -qx -- "--resume" || arguments=("$@" --resume "$folder")
  done
}
