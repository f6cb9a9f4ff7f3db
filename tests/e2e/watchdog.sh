# The watchdog: a rank stopped (SIGSTOP) in the middle of a training trial is named within
# timeout_s, the trial is recorded hung with that reason, meta.json says the job was aborted,
# and the job ends with exit status 3 instead of hanging; finished trials stay intact.
source "$(dirname "$0")/lib.bash"

cat > "$WORK/stall.json" <<'JSON'
{"name": "stall", "seed": 1, "timeout_s": 3,
 "settings": {"world_size": 2, "dataset": {"rows": 4000}, "epochs": 1, "min_time_s": 30},
 "sweep": {"batch_size": [64, 32]}}
JSON
# The first trial's timing phase lasts 30 s: plenty of time to stop rank 1 inside it.
setsid $MPIRUN -np 2 "$HARNESS" "$WORK/stall.json" --results-dir "$WORK/r" > "$WORK/console" 2>&1 &
job=$!
# Rank 1 is the process whose environment says so (OpenMPI sets OMPI_COMM_WORLD_RANK).
rank1=""
for _ in $(seq 600); do
  for pid in $(pgrep -f "harness $WORK/stall.json" || true); do
    tr '\0' '\n' < /proc/"$pid"/environ 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=1" && rank1=$pid
  done
  [ -n "$rank1" ] && grep -q "start" "$WORK/console" 2>/dev/null && break
  sleep 0.05
done
[ -n "$rank1" ] || fail "could not find rank 1"
sleep 2  # inside the first trial's timing phase by now
kill -STOP "$rank1"
started=$(date +%s)
for _ in $(seq 600); do kill -0 "$job" 2>/dev/null || break; sleep 0.1; done
status=0
wait "$job" || status=$?
elapsed=$(( $(date +%s) - started ))
kill -CONT "$rank1" 2>/dev/null || true
cat "$WORK/console"
[ "$status" -eq 3 ] || fail "exit status $status, expected 3 (hung)"
[ "$elapsed" -le 30 ] || fail "the hang took $elapsed s to be reported"
grep -q "rank 1 has not entered" "$WORK/console" || fail "the console does not name rank 1"
dir=$(only_run_dir "$WORK/r")
py "$dir" <<'PY'
import json, sys, os
records = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert records[-1]["status"] == "hung", records[-1]["status"]
assert "rank 1 has not entered" in records[-1]["reason"], records[-1]["reason"]
meta = json.load(open(os.path.join(sys.argv[1], "meta.json")))
assert meta["aborted"]["by"] == "watchdog", meta.get("aborted")
print("ok:", records[-1]["reason"])
PY
echo PASS
