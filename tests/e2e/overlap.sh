# Buckets, overlap, compression and timelines end to end: a small sweep at world 2 records
# exposed communication and overlap fractions, keeps replicas identical, files each trial's
# timeline as a Chrome trace beside (not inside) trials.jsonl, and scripts/plot draws the
# breakdown and one step of a timeline and answers in report.md. The shipped overlap and
# gpu_check experiments validate (scripts/gpu_check itself: gpu_rehearsal.sh).
source "$(dirname "$0")/lib.bash"

cat > "$WORK/overlap.json" <<'JSON'
{"name": "overlap_e2e", "kind": "train", "seed": 3,
 "settings": {"world_size": 2, "model": "transformer",
              "model_params": {"d_model": 16, "heads": 2, "layers": 1, "feedforward": 32},
              "dataset": {"kind": "synthetic_series", "length": 600, "dim": 2, "window": 8, "stride": 4},
              "epochs": 1, "batch_size": 16, "min_time_s": 0.1, "timeline": true, "timeline_steps": 2},
 "sweep": {"fusion_bytes": [0, 26214400], "overlap": [false, true], "compression": ["none", "fp16"]}}
JSON
$MPIRUN -np 2 "$HARNESS" "$WORK/overlap.json" --results-dir "$WORK/r" -q
dir=$(only_run_dir "$WORK/r")
py "$dir" <<'PY'
import json, os, sys
d = sys.argv[1]
lines = open(os.path.join(d, "trials.jsonl")).read().splitlines()
records = [json.loads(l) for l in lines]
assert len(records) == 8, len(records)
hashes = {}
for r in records:
    assert r["status"] == "ok", r["reason"]
    assert r["params_consistent"] is True
    assert "trace" not in r, "the trace belongs in its own file"
    s = r["settings"]
    g = r["gradient_reduction"]
    assert g["overlap"] == s["overlap"] and g["compression"] == s["compression"], g
    assert (g["buckets"] > 1) == (s["fusion_bytes"] == 0), g
    assert g["wire_dtype"] == ("fp16" if s["compression"] == "fp16" else "fp32")
    assert 0 <= r["overlap_fraction"] <= 1 and r["step_time_ms"]["exposed_comm"] >= 0, r
    assert r["step_time_ms"]["comm"] > 0
    hashes.setdefault(s["compression"], set()).add(r["param_hash"])
    trace = json.load(open(os.path.join(d, r["trace_file"])))
    events = [e for e in trace["traceEvents"] if e["ph"] != "M"]
    assert {e["pid"] for e in events} == {0, 1}
    assert len({e["args"]["step"] for e in events}) == 2, "timeline_steps"
    names = {e["name"] for e in events}
    assert {"forward", "backward", "allreduce", "wait for communication", "optimizer"} <= names, names
    lane = {e["tid"] for e in events if e["name"] == "allreduce"}
    assert lane == ({1} if s["overlap"] else {0}), (s, lane)
# Two ranks: every bucket size and mode gives the same bits; fp16 gives other bits.
assert len(hashes["none"]) == 1 and len(hashes["fp16"]) == 1 and hashes["none"] != hashes["fp16"], hashes
print("ok: 8 trials, identical replicas, traces filed")
PY
scripts/plot "$dir" --out "$WORK/plots" >/dev/null
for f in timeline.png step_time_breakdown.png report.md; do
  [ -s "$WORK/plots/$f" ] || fail "scripts/plot did not write $f"
done
grep -q "## Buckets, overlap and compression" "$WORK/plots/report.md" || fail "report.md lacks the answers"
grep -q "What compression costs in convergence" "$WORK/plots/report.md" || fail "report.md lacks compression's cost"
echo "ok: plots and report"

"$HARNESS" experiments/overlap.json --dry-run | tail -1 | grep -q "^864 trial(s)" || fail "overlap.json"
sed 's/"nccl"/"mpi"/' experiments/gpu_check.json > "$WORK/gpu_check.json"
"$HARNESS" "$WORK/gpu_check.json" --dry-run >/dev/null || fail "gpu_check.json does not validate"
echo "ok: shipped experiments validate"
echo PASS
