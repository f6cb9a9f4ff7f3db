# --resume runs exactly the trials missing from trials.jsonl: none lost, none run twice,
# after a truncated record and after the job is killed mid-sweep.
source "$(dirname "$0")/lib.bash"

# 1. A finished run whose file lost its last two records (one half-written).
$MPIRUN -np 2 "$HARNESS" experiments/smoke.json --results-dir "$WORK/a" -q
dir=$(only_run_dir "$WORK/a")
head -n 2 "$dir/trials.jsonl" > "$WORK/kept"
{ cat "$WORK/kept"; head -n 3 "$dir/trials.jsonl" | tail -n 1 | head -c 40; } > "$dir/trials.jsonl"
$MPIRUN -np 2 "$HARNESS" --resume "$dir" > "$WORK/console" 2>&1
cat "$WORK/console"
grep -q "2 trial(s) already recorded" "$WORK/console" || fail "resume did not skip 2 trials"
cmp <(head -n 2 "$dir/trials.jsonl") "$WORK/kept" || fail "recorded trials were rewritten"
py "$dir" <<'PY'
import json, sys, os
records = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
keys = [r["key"] for r in records]
assert len(keys) == 4 and len(set(keys)) == 4, keys
meta = json.load(open(os.path.join(sys.argv[1], "meta.json")))
assert len(meta["resumed"]) == 1
print("resume after truncation ok")
PY

# 2. Killed (SIGKILL, no chance to clean up) once two trials are recorded, then resumed.
cat > "$WORK/long.json" <<'JSON'
{"name": "long", "seed": 3,
 "settings": {"dataset": {"rows": 20000}, "epochs": 3, "min_time_s": 0.05},
 "sweep": {"world_size": [1, 2], "batch_size": [16, 32, 64], "optimizer.lr": [0.001, 0.003]}}
JSON
setsid $MPIRUN -np 2 "$HARNESS" "$WORK/long.json" --results-dir "$WORK/b" -q &
job=$!
wait_for_records "$WORK"/b 2
kill -KILL -- -"$job" 2>/dev/null || true
wait "$job" 2>/dev/null || true
dir=$(only_run_dir "$WORK/b")
before=$(grep -c . "$dir/trials.jsonl" || true)
echo "killed after $before of 12 trials"
[ "$before" -lt 12 ] || fail "the sweep finished before it could be interrupted"
$MPIRUN -np 2 "$HARNESS" "$WORK/long.json" --resume "$dir" -q
py "$dir" "$before" <<'PY'
import json, sys, os
lines = [l for l in open(os.path.join(sys.argv[1], "trials.jsonl")) if l.strip()]
records = [json.loads(l) for l in lines]
keys = [r["key"] for r in records]
assert len(keys) == 12 and len(set(keys)) == 12, (len(keys), len(set(keys)))
assert all(r["status"] == "ok" for r in records)
print("resume after kill ok (%s trials had been recorded)" % sys.argv[2])
PY
echo PASS
