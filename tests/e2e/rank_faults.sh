# A backend that fails on one rank, at 2 ranks (rank_faults_world3.sh: at 3): the trial is failed
# on every rank with that rank's message, fast (well under the watchdog's timeout_s), and the
# sweep goes on to the next trial: the collective trials, ddp and sharded training, the first
# broadcast. A NaN in one rank's result is a wrong result, never an ok trial. A rank that crashes
# is named in the record with the trial it crashed in. A backend that fails without taking part
# in its call (its peer is left inside it) still ends the trial failed with its message, within
# seconds, and ends the job (nothing can take the peer back); scripts/run's launcher then goes
# on with the trials after it (--resume), so the sweep ends with every other trial run.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/rank_faults.bash"

# 1. A backend error on one rank, where the backend took part in the call.
experiment coll_mpi collective 2 "$COLLECTIVE" '{"inner": "mpi", "rank": 1, "call": 4}'
run_case coll_mpi 2 failed "rank 1: allreduce: faulty: injected error in allreduce call 4 on rank 1"
experiment ddp_mpi train 2 "$TRAIN" '{"inner": "mpi", "rank": 1, "collective": "allreduce", "call": 9}'
run_case ddp_mpi 2 failed "rank 1: allreduce: faulty: injected error in allreduce call 9 on rank 1"
experiment sharded_gather train 2 "$TRAIN, \"strategy\": \"sharded\"" \
  '{"inner": "mpi", "rank": 1, "collective": "allgather", "call": 5}'
run_case sharded_gather 2 failed "rank 1: allgather: faulty: injected error in allgather call 5"
experiment broadcast train 2 "$TRAIN" '{"inner": "ring", "rank": 1, "collective": "broadcast"}'
run_case broadcast 2 failed "rank 1: broadcast: faulty: injected error in broadcast call 1"

# 2. Non-finite results: NaN in one rank's output is wrong.
experiment coll_nan collective 2 "$COLLECTIVE" '{"inner": "mpi", "rank": 1, "fault": "nan", "repeat": true}'
run_case coll_nan 2 failed "wrong elements"
# A NaN in the last allgather: the losses were finite, the parameters are not.
experiment last_gather_nan train 2 "\"dataset\": {\"rows\": 2000}, \"epochs\": 1, \"batch_size\": 64,
  \"max_steps\": 3, \"warmup_steps\": 0, \"min_time_s\": 0, \"quiet_wait_s\": 0, \"strategy\": \"sharded\"" \
  '{"inner": "mpi", "rank": 0, "collective": "allgather", "fault": "nan", "call": 3}'
run_case last_gather_nan 2 failed "are NaN or infinite after training"

# 3. A rank that crashes (SIGSEGV in the backend): the job ends, and the record names the rank,
# the signal and what it was in, in the trial it was in; meta.json says why the job ended.
experiment crash collective 2 "$COLLECTIVE" '{"inner": "mpi", "rank": 1, "fault": "crash", "call": 3}'
code=0
timeout 120 $MPIRUN -np 2 "$HARNESS" "$WORK/crash.json" --plugin-dir "$TEST_PLUGINS" -q \
  --results-dir "$WORK/crash" > "$WORK/crash.console" 2>&1 || code=$?
[ "$code" -ne 0 ] && [ "$code" -ne 124 ] || { cat "$WORK/crash.console"; fail "crash: exit $code"; }
grep -q "harness: rank 1 crashed (SIGSEGV) in collective" "$WORK/crash.console" ||
  { cat "$WORK/crash.console"; fail "crash: rank 1 did not say it crashed"; }
py "$(only_run_dir "$WORK/crash")" <<'PY'
import json, os, sys
[record] = map(json.loads, open(os.path.join(sys.argv[1], "trials.jsonl")))
assert record["part"] == "faulty" and record["status"] == "failed", record
assert record["reason"].startswith("rank 1 crashed (SIGSEGV) in collective"), record["reason"]
meta = json.load(open(os.path.join(sys.argv[1], "meta.json")))
assert "rank 1 crashed (SIGSEGV)" in meta["aborted"]["reason"], meta.get("aborted", meta.get("interrupted"))
print("ok: crash:", record["reason"])
PY

# 4. A backend that fails without taking part in its call: its peer waits inside the backend,
# which nothing can end but the job's end. The trial is failed with the backend's message
# within seconds (not hung after timeout_s), and meta.json says why the job ended.
experiment alone collective 2 "$COLLECTIVE" '{"inner": "mpi", "rank": 1, "fault": "error_alone", "call": 3}'
code=0
started=$(date +%s)
timeout 120 $MPIRUN -np 2 "$HARNESS" "$WORK/alone.json" --plugin-dir "$TEST_PLUGINS" -q \
  --results-dir "$WORK/alone" > "$WORK/alone.console" 2>&1 || code=$?
elapsed=$(( $(date +%s) - started ))
[ "$code" -ne 0 ] && [ "$code" -ne 124 ] || { cat "$WORK/alone.console"; fail "alone: exit $code"; }
[ "$elapsed" -lt 30 ] || fail "alone: took $elapsed s (the watchdog's timeout is $TIMEOUT_S s)"
py "$(only_run_dir "$WORK/alone")" <<'PY'
import json, os, sys
[record] = map(json.loads, open(os.path.join(sys.argv[1], "trials.jsonl")))
assert record["status"] == "failed", (record["status"], record["reason"])
assert record["reason"].startswith("rank 1: allreduce: faulty: injected error_alone in allreduce call 3"), record["reason"]
meta = json.load(open(os.path.join(sys.argv[1], "meta.json")))
assert "injected error_alone" in meta["aborted"]["reason"], meta
print("ok: alone:", record["reason"])
PY
echo "   ($elapsed s)"

# 5. The same under scripts/run's launcher: the job the watchdog ended is launched again with
# --resume, and the part after the wedged one runs; the sweep ends ok.
source scripts/lib/launch.bash
code=0
launch_sweep "$WORK/sweep.console" "$WORK/sweep.errors" 2 "$HARNESS" "$WORK/alone.json" \
  --plugin-dir "$TEST_PLUGINS" -q --results-dir "$WORK/sweep" > "$WORK/sweep.out" 2>&1 || code=$?
[ "$code" -eq 0 ] || { cat "$WORK/sweep.out"; fail "launch_sweep after a wedged call: exit $code"; }
grep -q "going on with the trials after it: --resume" "$WORK/sweep.out" ||
  { cat "$WORK/sweep.out"; fail "launch_sweep did not say it goes on"; }
py "$(only_run_dir "$WORK/sweep")" <<'PY'
import json, os, sys
records = {r["part"]: r for r in map(json.loads, open(os.path.join(sys.argv[1], "trials.jsonl")))}
assert records["faulty"]["status"] == "failed", records["faulty"]
assert "injected error_alone" in records["faulty"]["reason"], records["faulty"]["reason"]
assert records["after"]["status"] == "ok", records["after"]
print("ok: the sweep went on after the wedged trial:", sorted((p, r["status"]) for p, r in records.items()))
PY
