# --resume runs exactly the trials missing from trials.jsonl: none lost, none run twice,
# after a truncated record, after the job is killed mid-sweep, and in the middle of adaptive
# repetitions (which decide from the records, so a resumed run must decide the same).
source "$(dirname "$0")/lib.bash"

# 1. A finished run whose file lost its last two records (one half-written).
$MPIRUN -np 2 "$HARNESS" tests/fixtures/smoke_train.json --results-dir "$WORK/a" -q
dir=$(only_run_dir "$WORK/a")
head -n 2 "$dir/trials.jsonl" > "$WORK/kept"
# No pipe into head -c here: under pipefail, a writer cut off by head's early exit (SIGPIPE)
# would end the test silently.
third=$(sed -n 3p "$dir/trials.jsonl")
{ cat "$WORK/kept"; printf '%s' "${third:0:40}"; } > "$dir/trials.jsonl"
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
"$HARNESS" --check-records "$dir" >"$WORK/check" || fail "the resumed folder does not follow its schemas: $(cat "$WORK/check")"

# 2. Killed (SIGKILL, no chance to clean up) once two trials are recorded, then resumed.
cat > "$WORK/long.json" <<'JSON'
{"name": "long", "seed": 3,
 "settings": {"dataset": {"rows": 20000}, "epochs": 3, "min_time_s": 0.05, "quiet_wait_s": 0},
 "sweep": {"world_size": [1, 2], "batch_size": [16, 32, 64], "optimizer.lr": [0.001, 0.003]}}
JSON
setsid $MPIRUN -np 2 "$HARNESS" "$WORK/long.json" --results-dir "$WORK/b" -q &
job=$!
wait_for_records "$WORK"/b 2
kill_job "$job"
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

# 3. Adaptive repetitions: a target no spread can meet repeats every point up to
# max_repetitions (2 points x 5; adaptive_patience 0: rounds that settle nothing go on); cut
# after the first adaptive round, the resumed run ends with the same trials; with no budget, no
# extra trial runs; with the default patience, the second round that would settle nothing does
# not run.
cat > "$WORK/adaptive.json" <<'JSON'
{"name": "adaptive", "seed": 5, "repetitions": 2, "max_repetitions": 5, "target_ci": 0.000001,
 "adaptive_patience": 0,
 "settings": {"dataset": {"rows": 2000}, "epochs": 1, "min_time_s": 0.02, "world_size": 2},
 "sweep": {"batch_size": [16, 32]}}
JSON
$MPIRUN -np 2 "$HARNESS" "$WORK/adaptive.json" --results-dir "$WORK/c" > "$WORK/console" 2>&1
cat "$WORK/console"
grep -q "adaptive repetition 3: 2 of 2 point(s) still wider than" "$WORK/console" ||
  fail "no adaptive round was announced"
dir=$(only_run_dir "$WORK/c")
py "$dir" <<'PY'
import json, sys, os
records = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
reps = sorted((r["axes"]["batch_size"], r["repetition"]) for r in records)
assert reps == [(b, r) for b in (16, 32) for r in range(5)], reps
adaptive = json.load(open(os.path.join(sys.argv[1], "meta.json")))["adaptive_repetitions"]
assert adaptive["extra_trials"] == 6 and len(adaptive["still_wide"]) == 2, adaptive
assert adaptive["stopped_by"] == "max_repetitions", adaptive
PY
"$HARNESS" --check-records "$dir" >"$WORK/check" || fail "the adaptive folder does not follow its schemas: $(cat "$WORK/check")"
cp "$dir/trials.jsonl" "$WORK/adaptive_all"
head -n 6 "$WORK/adaptive_all" > "$dir/trials.jsonl"
$MPIRUN -np 2 "$HARNESS" --resume "$dir" -q
cmp <(py "$dir/trials.jsonl" <<'PY'
import json, sys
print(sorted(json.loads(l)["key"] for l in open(sys.argv[1])))
PY
) <(py "$WORK/adaptive_all" <<'PY'
import json, sys
print(sorted(json.loads(l)["key"] for l in open(sys.argv[1])))
PY
) || fail "a resumed adaptive run recorded other trials than the uninterrupted one"
$MPIRUN -np 2 "$HARNESS" "$WORK/adaptive.json" --set adaptive_budget_s=0 --results-dir "$WORK/d" -q
[ "$(grep -c . "$(only_run_dir "$WORK/d")/trials.jsonl")" = 4 ] ||
  fail "adaptive repetitions ran without a budget"
$MPIRUN -np 2 "$HARNESS" "$WORK/adaptive.json" --set adaptive_patience=1 --results-dir "$WORK/e" \
  > "$WORK/console" 2>&1 || { cat "$WORK/console"; fail "the run with patience 1 failed"; }
grep -q "adaptive repetitions stop: 1 round(s) in a row settled no point" "$WORK/console" ||
  fail "a round that settled no point did not stop the rounds: $(cat "$WORK/console")"
py "$(only_run_dir "$WORK/e")" <<'PY'
import json, sys, os
adaptive = json.load(open(os.path.join(sys.argv[1], "meta.json")))["adaptive_repetitions"]
assert adaptive["extra_trials"] == 2 and adaptive["stopped_by"] == "no_progress", adaptive
PY
echo "adaptive repetitions resume ok"
echo PASS
