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
