# A model file is code, and one rank's failure is every rank's: what a hostile or careless
# TorchScript file can do, and what the harness answers.
source "$(dirname "$0")/lib.bash"
/usr/bin/python3 -c "import torch" 2>/dev/null || { echo "skip: no python3-torch (scripts/setup --peer)"; exit 77; }
modules="$(dirname "$HARNESS")/tests/torchscript"
[ -f "$modules/raises_on_outlier.pt" ] || fail "no test modules in $modules"

train_json() {  # train_json FILE MODEL_PATH [EXTRA SETTINGS JSON]
  cat > "$1" <<JSON
{"name": "m", "seed": 1, "kind": "train",
 "settings": {"model": "torchscript", "model_params": {"path": "$2"},
              "dataset": {"kind": "synthetic", "rows": 1000, "dim": 20}, "epochs": 1,
              "min_time_s": 0.05, "quiet_wait_s": 0${3:-}}}
JSON
}
train_json "$WORK/m.json" "$modules/dense.pt"
with_module() { echo "settings.model_params.path=\"$modules/$1.pt\""; }

# One rank raises: the trial fails on every rank with that rank's message and number, and the
# sweep goes on. Three outlier rows (0-based 101, 301, 501) beyond 8 standard deviations: the
# module raises in training on whichever rank's shard draws one first.
python3 - "$WORK/outlier.csv" <<'PY'
import random, sys
random.seed(3)
with open(sys.argv[1], "w") as f:
    f.write(",".join("f%d" % i for i in range(20)) + ",label\n")
    for r in range(600):
        values = [random.gauss(0, 1) for _ in range(20)]
        if r in (101, 301, 501):
            values[0] = 1000.0
        f.write(",".join("%.4f" % v for v in values) + ",%d\n" % (1 if r % 50 == 0 else 0))
PY
cat > "$WORK/raise.json" <<JSON
{"name": "raise", "seed": 1, "kind": "train", "timeout_s": 60,
 "settings": {"model": "torchscript", "world_size": 2, "epochs": 2,
              "dataset": {"kind": "csv", "path": "$WORK/outlier.csv"},
              "min_time_s": 0.05, "quiet_wait_s": 0},
 "sweep": {"overlap": [false, true],
           "model_params": [{"path": "$modules/raises_on_outlier.pt"}, {"path": "$modules/dense.pt"}]}}
JSON
timeout 120 $MPIRUN -np 2 "$HARNESS" "$WORK/raise.json" --results-dir "$WORK/raise" -q ||
  fail "a module raising on one rank ended the job (exit $?)"
py "$(only_run_dir "$WORK/raise")" <<'PY'
import json, os, re, sys
records = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert [r["status"] for r in records] == ["failed", "ok", "failed", "ok"], \
    [(r["status"], r["reason"]) for r in records]
for r in (records[0], records[2]):
    assert re.match(r"rank [01]: model forward: the module's forward raised: "
                    r"RuntimeError: the test module met an outlier \(step \d+\)$", r["reason"]), r["reason"]
print("one rank's exception: a failed trial on every rank, with its message; the sweep went on")
PY

# Ranks whose files at the same path hold other architectures are refused before training,
# naming both (one rank per working directory, each with its own model.pt).
mkdir -p "$WORK/a" "$WORK/b"
cp "$modules/dense.pt" "$WORK/a/model.pt"; cp "$modules/narrow.pt" "$WORK/b/model.pt"
train_json "$WORK/arch.json" model.pt ', "world_size": 2'
timeout 120 $MPIRUN -np 1 -wdir "$WORK/a" "$HARNESS" "$WORK/arch.json" --results-dir "$WORK/arch" -q : \
  -np 1 -wdir "$WORK/b" "$HARNESS" "$WORK/arch.json" --results-dir "$WORK/arch" -q ||
  fail "ranks with different architectures ended the job (exit $?)"
py "$(only_run_dir "$WORK/arch")" <<'PY'
import json, os, sys
[r] = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert r["status"] == "failed", r
assert r["reason"].startswith("rank 1: its model differs from rank 0's"), r["reason"]
assert "143 parameters in 4 tensor(s): [3, 20], [3], [20, 3], [20]" in r["reason"], r["reason"]
assert "266 parameters in 4 tensor(s): [6, 20], [6], [20, 6], [20]" in r["reason"], r["reason"]
print("different architectures: refused, naming both")
PY

# The operator guard: a module that reads files is refused before any of its code runs, even
# for --dry-run; allow_operators lets the named operator through.
expect_error "the module's forward() uses operator aten::from_file" \
  "$HARNESS" "$WORK/m.json" --dry-run --set "$(with_module reads_file)"
# __setstate__ runs while the file is loaded: such a file is refused before loading.
expect_error "the module's __setstate__() uses operator aten::from_file (code/__torch__.py)" \
  "$HARNESS" "$WORK/m.json" --dry-run --set "$(with_module reads_file_when_loaded)"
"$HARNESS" "$WORK/m.json" --dry-run --set "$(with_module reads_file)" \
  --set 'settings.model_params.allow_operators=["aten::from_file"]' > /dev/null ||
  fail "allow_operators did not let aten::from_file through"
expect_error '/allow_operators/0: expected qualified operator names' \
  "$HARNESS" "$WORK/m.json" --dry-run --set 'settings.model_params.allow_operators=["from_file"]'

# A forward that never returns: validation ends the job within timeout_s, naming the method.
status=0
timeout 60 "$HARNESS" "$WORK/m.json" --dry-run --set "$(with_module never_returns)" --set timeout_s=2 \
  > "$WORK/never" 2>&1 || status=$?
[ "$status" -eq 3 ] || { cat "$WORK/never"; fail "a forward that never returns: exit $status, expected 3"; }
grep -qF "model \"torchscript\" ($modules/never_returns.pt): forward() in training mode has not returned after 2 s (timeout_s)" \
  "$WORK/never" || { cat "$WORK/never"; fail "the deadline's message"; }
echo "ok: a forward that never returns ends validation with exit 3"

# Tied weights count once: 420 + 20 parameters, one bucket of them (+ loss and failure flag).
"$HARNESS" "$WORK/m.json" --set "$(with_module tied)" --results-dir "$WORK/tied" -q
py "$(only_run_dir "$WORK/tied")" <<'PY'
import json, os, sys
[r] = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert r["status"] == "ok" and r["model"]["parameters"] == 440, (r["status"], r["model"])
assert r["gradient_reduction"]["bucket_bytes"] == [4 * 442], r["gradient_reduction"]
print("tied weights: counted and reduced once")
PY

# Attributes the harness owns, and values the attribute's type cannot hold.
expect_error "/attributes/training: the harness owns it" \
  "$HARNESS" "$WORK/m.json" --dry-run --set "$(with_module throws_after)" \
  --set 'settings.model_params.attributes={"training": false}'
expect_error "/attributes/fail_after: 18446744073709551615 does not fit the attribute's type" \
  "$HARNESS" "$WORK/m.json" --dry-run --set "$(with_module throws_after)" \
  --set 'settings.model_params.attributes={"fail_after": 18446744073709551615}'

# Outputs of the wrong type, and losses without a gradient: named, with the model and method.
expect_error "model \"torchscript\" ($modules/float64_output.pt): on a batch of the data set's shape [4, 20]: the model's forward returned float64 (Double) values for float32 (Float) input" \
  "$HARNESS" "$WORK/m.json" --dry-run --set "$(with_module float64_output)"
expect_error "the model's forward returned int64 (Long) values" \
  "$HARNESS" "$WORK/m.json" --dry-run --set "$(with_module int64_output)"
expect_error "the training loss does not depend on the model's trainable parameters: the output of forward() carries no gradient" \
  "$HARNESS" "$WORK/m.json" --dry-run --set "$(with_module detached_output)"

# A model file replaced during a sweep: the trials that load the new content fail, saying so,
# instead of being recorded under the first file's hash.
cp "$modules/dense.pt" "$WORK/swapped.pt"
cat > "$WORK/swap.json" <<JSON
{"name": "swap", "seed": 1, "kind": "train",
 "settings": {"model": "torchscript", "model_params": {"path": "$WORK/swapped.pt"},
              "dataset": {"kind": "synthetic", "rows": 1000, "dim": 20}, "epochs": 1,
              "min_time_s": 1, "quiet_wait_s": 0},
 "sweep": {"batch_size": [16, 32, 64, 128]}}
JSON
"$HARNESS" "$WORK/swap.json" --results-dir "$WORK/swap" -q &
job=$!
wait_for_records "$WORK/swap" 1
cp "$modules/narrow.pt" "$WORK/swapped.pt"
wait "$job" || true
py "$(only_run_dir "$WORK/swap")" <<'PY'
import json, os, sys
records = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert len(records) == 4, len(records)
assert records[-1]["status"] == "failed", records[-1]
assert "changed since the sweep was planned (content hash" in records[-1]["reason"], records[-1]["reason"]
for r in records:
    assert r["status"] == "failed" or r["model"]["parameters"] == 266, r["model"]
print("a model file replaced midway: later trials refused, none trained on the new content")
PY
echo PASS
