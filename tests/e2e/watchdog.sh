# The watchdog: a rank stopped (SIGSTOP) in the middle of a training trial is named within
# timeout_s, the trial is recorded hung with that reason, meta.json says the job was aborted,
# and the job ends with exit status 3 instead of hanging; finished trials stay intact.
# Over the default backend (MPI), over gloo in its sync mode (receive busy_poll),
# where the waiting rank spins on its sockets on the calling thread instead of sleeping in a
# library call: the watchdog must still see it stuck and end the job; and over shm, whose
# ranks wait for each other on flags in a shared segment.
source "$(dirname "$0")/lib.bash"

# stall_and_check NAME BACKEND_JSON: runs a two-rank job, stops rank 1 inside the first
# trial's timing phase and checks how the job ends.
stall_and_check() {
  local name=$1 backend=$2 dir="$WORK/$1"
  mkdir -p "$dir"
  cat > "$dir/stall.json" <<JSON
{"name": "stall", "seed": 1, "timeout_s": 3,
 "settings": {"world_size": 2, "dataset": {"rows": 4000}, "epochs": 1, "min_time_s": 30,
              $backend},
 "sweep": {"batch_size": [64, 32]}}
JSON
  # The first trial's timing phase lasts 30 s: plenty of time to stop rank 1 inside it.
  # -v: the console says when the trial starts.
  setsid $MPIRUN -np 2 "$HARNESS" "$dir/stall.json" -v --results-dir "$dir/r" > "$dir/console" 2>&1 &
  local job=$! rank1="" pid
  # Rank 1 is the process whose environment says so (OpenMPI sets OMPI_COMM_WORLD_RANK).
  for _ in $(seq 600); do
    for pid in $(pgrep -f "harness $dir/stall.json" || true); do
      grep -qxz "OMPI_COMM_WORLD_RANK=1" /proc/"$pid"/environ 2>/dev/null && rank1=$pid
    done
    [ -n "$rank1" ] && grep -q " start  " "$dir/console" 2>/dev/null && break
    sleep 0.05
  done
  [ -n "$rank1" ] || fail "$name: could not find rank 1"
  sleep 2  # inside the first trial's timing phase by now
  kill -STOP "$rank1"
  local started status=0 elapsed
  started=$(date +%s)
  for _ in $(seq 600); do kill -0 "$job" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$job" 2>/dev/null; then  # never wait for ctest's timeout: end it and say so
    kill -CONT "$rank1" 2>/dev/null || true
    kill -KILL -- -"$job" 2>/dev/null || true
    cat "$dir/console"
    fail "$name: the job had not ended 60 s after rank 1 was stopped"
  fi
  wait "$job" || status=$?
  elapsed=$(( $(date +%s) - started ))
  kill -CONT "$rank1" 2>/dev/null || true
  cat "$dir/console"
  [ "$status" -eq 3 ] || fail "$name: exit status $status, expected 3 (hung)"
  [ "$elapsed" -le 30 ] || fail "$name: the hang took $elapsed s to be reported"
  grep -q "rank 1 has not entered" "$dir/console" || fail "$name: the console does not name rank 1"
  py "$(only_run_dir "$dir/r")" "$name" <<'PY'
import json, sys, os
folder, name = sys.argv[1], sys.argv[2]
records = [json.loads(l) for l in open(os.path.join(folder, "trials.jsonl"))]
assert records[-1]["status"] == "hung", (name, records[-1]["status"])
assert "rank 1 has not entered" in records[-1]["reason"], (name, records[-1]["reason"])
meta = json.load(open(os.path.join(folder, "meta.json")))
assert meta["aborted"]["by"] == "watchdog", (name, meta.get("aborted"))
print(f"ok ({name}):", records[-1]["reason"])
PY
  "$HARNESS" --check-records "$(only_run_dir "$dir/r")" >"$dir/check" ||
    fail "$name: the aborted folder does not follow its schemas: $(cat "$dir/check")"
}

stall_and_check mpi '"backend": "mpi"'
stall_and_check gloo_busy_poll '"backend": "gloo", "backend_params": {"receive": "busy_poll"}'
# shm: the waiting rank spins (then yields) on a flag in shared memory, inside no library call.
stall_and_check shm '"backend": "shm"'
echo PASS
