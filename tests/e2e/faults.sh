# Faults end in a recorded status and reason, never a hang or an ok: non-finite anomaly scores,
# an exploding loss; a non-plugin library in the plugin directory never runs, even under
# --dry-run; --resume refuses another experiment (unless --extend); Ctrl-C marks meta.json.
source "$(dirname "$0")/lib.bash"
BUILD=$(dirname "$HARNESS")
TEST_PLUGINS="$BUILD/tests/test_plugins"

# 1. A model whose evaluation output is NaN, then +inf: diverged with the reason, in bounded time.
for output in nan inf; do
  timeout 120 "$HARNESS" tests/fixtures/smoke_train.json --plugin-dir "$TEST_PLUGINS" -q \
    --results-dir "$WORK/nonfinite-$output" --set 'sweep.world_size=[1]' \
    --set 'sweep.batch_size=[64]' --set settings.model=nonfinite \
    --set 'settings.model_params={"output": "'$output'"}' --set settings.min_time_s=0.01 ||
    fail "the run with $output scores did not finish (status $?)"
  py "$(only_run_dir "$WORK/nonfinite-$output")" <<'PY'
import json, sys, os
[record] = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert record["status"] == "diverged", record["status"]
assert "anomaly scores are not finite" in record["reason"], record["reason"]
print("ok:", record["reason"])
PY
done

# 2. Adam at lr 100: the loss explodes long before it is NaN.
"$HARNESS" tests/fixtures/smoke_train.json -q --results-dir "$WORK/explode" --set 'sweep.world_size=[1]' \
  --set 'sweep.batch_size=[32]' --set settings.optimizer.lr=100 --set settings.min_time_s=0.01
py "$(only_run_dir "$WORK/explode")" <<'PY'
import json, sys, os
[record] = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert record["status"] == "diverged", (record["status"], record["loss"]["final"])
assert "divergence_factor" in record["reason"] or "nan" in record["reason"], record["reason"]
print("ok:", record["reason"])
PY

# 3. Libraries with a constructor, one named like a plugin: nothing runs, dry run or not.
mkdir "$WORK/plugins"
cp "$BUILD/tests/probe/libconstructor_probe.so" "$WORK/plugins/libharness_comm_probe.so"
cp "$BUILD/tests/probe/libconstructor_probe.so" "$WORK/plugins/libprobe.so"
export HARNESS_CONSTRUCTOR_PROBE="$WORK/constructor_ran"
"$HARNESS" tests/fixtures/smoke_train.json --plugin-dir "$WORK/plugins" --dry-run > /dev/null
"$HARNESS" --list-plugins --plugin-dir "$WORK/plugins" > "$WORK/list"
unset HARNESS_CONSTRUCTOR_PROBE
[ ! -e "$WORK/constructor_ran" ] || fail "a non-plugin library's constructor ran"
grep -q "does not export harness_plugin_info_v1" "$WORK/list" || fail "the probe was not reported"
chmod o+w "$WORK/plugins"
"$HARNESS" tests/fixtures/smoke_train.json --plugin-dir "$WORK/plugins" --dry-run > /dev/null 2> "$WORK/err"
grep -q "plugin directory refused: it is writable by every user" "$WORK/err" ||
  fail "a world-writable plugin directory was not refused loudly"
echo "ok: plugin directory checks"

# 4. --resume with another experiment or --set is refused, --extend accepts it.
"$HARNESS" tests/fixtures/smoke_train.json -q --results-dir "$WORK/c" --set 'sweep.world_size=[1]' \
  --set 'sweep.batch_size=[64]' --set settings.min_time_s=0.01
dir=$(only_run_dir "$WORK/c")
expect_error "the experiment differs from the one recorded in meta.json at /sweep/batch_size" \
  "$HARNESS" tests/fixtures/smoke_train.json --resume "$dir" --set 'sweep.world_size=[1]' \
  --set 'sweep.batch_size=[32]' --set settings.min_time_s=0.01
expect_error "the experiment differs" "$HARNESS" experiments/lr_scaling.json --resume "$dir"
"$HARNESS" tests/fixtures/smoke_train.json --resume "$dir" --extend -q --set 'sweep.world_size=[1]' \
  --set 'sweep.batch_size=[32]' --set settings.min_time_s=0.01
py "$dir" <<'PY'
import json, sys, os
records = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert len(records) == 2, len(records)
meta = json.load(open(os.path.join(sys.argv[1], "meta.json")))
assert "experiment" in meta["resumed"][0], meta["resumed"]
print("ok: --extend recorded the second experiment")
PY

# 5. Ctrl-C (SIGINT to mpirun) mid-sweep: meta.json says interrupted and how to resume.
setsid $MPIRUN -np 2 "$HARNESS" tests/fixtures/smoke_train.json --results-dir "$WORK/d" \
  --set settings.min_time_s=2 > "$WORK/console" 2>&1 &
job=$!
wait_for_records "$WORK"/d 1
kill -INT -- -"$job"
wait "$job" 2>/dev/null || true
dir=$(only_run_dir "$WORK/d")
dir=${dir%/}
grep -q '"interrupted"' "$dir/meta.json" || { cat "$WORK/console"; fail "meta.json not marked interrupted"; }
grep -q "harness --resume $dir" "$dir/meta.json" || fail "meta.json does not say how to resume"
"$HARNESS" --check-records "$dir" >"$WORK/check" || fail "the interrupted folder does not follow its schemas: $(cat "$WORK/check")"
echo "ok: interrupted run marked"

# 6. Messages too big for this host's memory: the trial is recorded failed with the figures,
# nothing is allocated (it used to be OOM-killed with no record).
cat > "$WORK/big.json" <<'JSON'
{"name": "big", "kind": "collective",
 "settings": {"world_size": 1, "min_bytes": 1000000000000, "max_bytes": 1000000000000}}
JSON
"$HARNESS" "$WORK/big.json" --results-dir "$WORK/e" -q
py "$(only_run_dir "$WORK/e")" <<'PY'
import json, sys, os
[record] = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert record["status"] == "failed", record["status"]
assert "through mpi on 1 ranks (about 18000.0 GB each) needs about 18000.0 GB; this host has" in record["reason"], record["reason"]
print("ok:", record["reason"])
PY
# 7. A backend the build left out (the note a build without CUDA writes for nccl): its trials are
# skipped with the note's reason, the others run, --list-plugins says why; a name with no note
# is still refused as unknown.
mkdir "$WORK/left_out"
echo "this build found nothing to make it with" > "$WORK/left_out/libharness_comm_absent.so.not-built"
cat > "$WORK/left_out.json" <<'JSON'
{"name": "left_out", "kind": "collective",
 "settings": {"world_size": 1, "min_bytes": 4, "max_bytes": 4, "iters": 2, "warmup_iters": 1},
 "sweep": {"backend": ["absent", "mpi"]}}
JSON
"$HARNESS" "$WORK/left_out.json" --plugin-dir "$WORK/left_out" --results-dir "$WORK/f" -q
py "$(only_run_dir "$WORK/f")" <<'PY'
import json, sys, os
records = {r["settings"]["backend"]: r for r in map(json.loads, open(os.path.join(sys.argv[1], "trials.jsonl")))}
assert records["absent"]["status"] == "skipped", records["absent"]
assert records["absent"]["reason"] == "absent is not built: this build found nothing to make it with", records["absent"]["reason"]
assert records["mpi"]["status"] == "ok", records["mpi"]["status"]
print("ok:", records["absent"]["reason"])
PY
"$HARNESS" --list-plugins --plugin-dir "$WORK/left_out" > "$WORK/list"
grep -q "not built: communicator absent: this build found nothing to make it with" "$WORK/list" ||
  fail "--list-plugins does not say which plugin was left out: $(cat "$WORK/list")"
expect_error 'unknown communicator plugin "absent"' "$HARNESS" "$WORK/left_out.json" --dry-run
echo PASS
