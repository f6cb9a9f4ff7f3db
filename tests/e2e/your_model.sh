# Your own model end to end: export with scripts/export_model.py, check it with --dry-run, train
# it under mpirun, report it; a changed model file is another trial for --resume.
source "$(dirname "$0")/lib.bash"
/usr/bin/python3 -c "import torch" 2>/dev/null || { echo "skip: no python3-torch (scripts/setup --peer)"; exit 77; }

# The shipped experiments that train exported files validate against this build's models.
for shipped in your_model fusion_study; do
  "$HARNESS" "experiments/$shipped.json" --dry-run > "$WORK/$shipped.txt" ||
    fail "experiments/$shipped.json does not validate"
done
tail -1 "$WORK/fusion_study.txt" | grep -q "^51 trial(s)" || fail "fusion_study.json: expected 51 trials"

/usr/bin/python3 scripts/export_model.py autoencoder "$WORK/model.pt" --seed 1 > "$WORK/export.txt"
grep -q "503 parameters" "$WORK/export.txt" ||
  fail "the export did not report the tutorial autoencoder's 503 parameters"
cat > "$WORK/mine.json" <<JSON
{"name": "mine", "seed": 1, "kind": "train",
 "settings": {"model": "torchscript", "model_params": {"path": "$WORK/model.pt"},
              "dataset": {"kind": "synthetic", "rows": 1000, "dim": 20}, "epochs": 1,
              "min_time_s": 0.05, "quiet_wait_s": 0},
 "sweep": {"world_size": [1, 2]}}
JSON

# Validation before anything runs: a missing file, and a module that cannot take the data.
expect_error "/settings/model_params/path: $WORK/none.pt: No such file or directory" \
  "$HARNESS" "$WORK/mine.json" --dry-run --set "settings.model_params.path=\"$WORK/none.pt\""
expect_error "on a batch of the data set's shape [4, 12]" \
  "$HARNESS" "$WORK/mine.json" --dry-run --set settings.dataset.dim=12
"$HARNESS" "$WORK/mine.json" --dry-run > "$WORK/dry" || fail "a valid model file fails --dry-run"

$MPIRUN -np 2 "$HARNESS" "$WORK/mine.json" --results-dir "$WORK/r" -q
dir=$(only_run_dir "$WORK/r")
echo "results: $dir"
py "$dir" <<'PY'
import json, os, sys
records = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert [r["status"] for r in records] == ["ok", "ok"], [(r["status"], r["reason"]) for r in records]
for r in records:
    assert r["model"]["name"] == "torchscript" and r["model"]["parameters"] == 503, r["model"]
    assert r["model"]["objective"]["loss"] == "reconstruction mse", r["model"]
    assert len(r["model_files"]["path"]) == 16, r.get("model_files")
    assert r["params_consistent"] is True and r["detection"]["auroc"] > 0.5
print("trained ok")
PY

# A module that raises during training fails its trial, with its message, and the sweep goes on.
modules="$(dirname "$HARNESS")/tests/torchscript"
cat > "$WORK/raises.json" <<JSON
{"name": "raises", "seed": 1, "kind": "train",
 "settings": {"model": "torchscript", "dataset": {"kind": "synthetic", "rows": 1000, "dim": 20},
              "epochs": 1, "min_time_s": 0.05, "quiet_wait_s": 0, "world_size": 2},
 "sweep": {"model_params": [{"path": "$modules/throws_after.pt"}, {"path": "$modules/dense.pt"}]}}
JSON
$MPIRUN -np 2 "$HARNESS" "$WORK/raises.json" --results-dir "$WORK/raises" -q
py "$(only_run_dir "$WORK/raises")" <<'PY'
import json, os, re, sys
records = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert [r["status"] for r in records] == ["failed", "ok"], [(r["status"], r["reason"]) for r in records]
assert re.search(r"RuntimeError: the test module fails at step 11 \(step \d+\)$", records[0]["reason"]), records[0]["reason"]
print("a raising module fails its trial; the sweep goes on")
PY

scripts/plot "$dir" > "$WORK/plot" 2>&1 || { cat "$WORK/plot"; fail "scripts/plot failed"; }
grep -q "| torchscript:model.pt | mpi | 32 | 2 |" "$dir/plots/report.md" || fail "the report does not name the model file"

# The same path with other weights is another model: --resume refuses to mix the two, and the
# new file's trials have other keys (--extend adds them beside the first ones).
/usr/bin/python3 scripts/export_model.py autoencoder "$WORK/model.pt" --seed 2 > /dev/null
expect_error "changed since its trials were recorded: $WORK/model.pt (content hash" \
  $MPIRUN -np 2 "$HARNESS" --resume "$dir"
$MPIRUN -np 2 "$HARNESS" --resume "$dir" --extend -q
py "$dir" <<'PY'
import json, os, sys
records = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert len(records) == 4 and len({r["key"] for r in records}) == 4, [r["key"] for r in records]
assert len({r["model_files"]["path"] for r in records}) == 2
print("a changed model file is another trial")
PY
# After --extend the folder holds the new file's trials: resuming it again has nothing to run.
$MPIRUN -np 2 "$HARNESS" --resume "$dir" > "$WORK/again" 2>&1 || { cat "$WORK/again"; fail "resume after --extend"; }
grep -q "nothing to run" "$WORK/again" || { cat "$WORK/again"; fail "resume after --extend ran trials again"; }
