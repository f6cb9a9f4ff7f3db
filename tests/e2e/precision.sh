# Repetitions, orders and uncertainty end to end: for each order (sequential, interleaved,
# random) the dry run lists the trials in that order, a run cut short resumes to exactly the
# missing trials; trials over their cv threshold are marked noisy (record, console, report);
# aggregates.csv summarises each point over its repetitions; scripts/plot draws error bars.
source "$(dirname "$0")/lib.bash"

experiment() {  # ORDER -> an experiment file
  cat > "$WORK/$1.json" <<JSON
{"name": "precision-$1", "seed": 5, "repetitions": 3, "order": "$1", "parts": [
  {"name": "train", "kind": "train",
   "settings": {"dataset": {"rows": 1000}, "epochs": 1, "min_time_s": 0.05, "noise_cv_threshold": 0,
                "quiet_wait_s": 0},
   "sweep": {"world_size": [1, 2]}},
  {"name": "coll", "kind": "collective",
   "settings": {"world_size": 2, "min_bytes": 1024, "max_bytes": 65536, "step_factor": 64,
                "iters": 5, "min_time_s": 0.01, "quiet_wait_s": 0},
   "sweep": {"backend": ["mpi", "ring"]}}]}
JSON
  echo "$WORK/$1.json"
}

for order in sequential interleaved random; do
  file=$(experiment "$order")
  "$HARNESS" "$file" --dry-run > "$WORK/$order.table"
  "$HARNESS" "$file" --dry-run | cmp -s - "$WORK/$order.table" || fail "$order: dry run not deterministic"
  $MPIRUN -np 2 "$HARNESS" "$file" --results-dir "$WORK/$order" > "$WORK/$order.console" 2>&1 ||
    { cat "$WORK/$order.console"; fail "$order: run failed"; }
  dir=$(only_run_dir "$WORK/$order")
  # Cut the run short after 4 records and resume it.
  head -n 4 "$dir/trials.jsonl" > "$WORK/kept"
  cp "$WORK/kept" "$dir/trials.jsonl"
  $MPIRUN -np 2 "$HARNESS" --resume "$dir" -q
  cmp <(head -n 4 "$dir/trials.jsonl") "$WORK/kept" || fail "$order: recorded trials were rewritten"
  py "$dir" "$order" "$WORK/$order.table" <<'PY'
import json, os, sys
d, order, table = sys.argv[1:]
records = [json.loads(l) for l in open(os.path.join(d, "trials.jsonl"))]
keys = [r["key"] for r in records]
assert len(keys) == 12 and len(set(keys)) == 12, (order, len(keys), len(set(keys)))
# The dry run's table (TRIAL KIND KEY REP ...) is the run order.
planned = [row for row in map(str.split, open(table)) if len(row) > 3 and row[1] in ("train", "collective")]
reps = [int(row[3]) for row in planned]
if order == "sequential":
    assert reps == [0, 1, 2] * 4, reps
elif order == "interleaved":
    assert reps == sorted(reps), reps
else:
    assert reps != [0, 1, 2] * 4 and reps != sorted(reps), reps
by_key = {r["key"]: r for r in records}
for position, row in enumerate(planned):
    assert by_key[row[2]]["index"] == position, (order, position)
print(order, "order and resume ok")
PY
done

# Noise marks, aggregates and error bars (on the interleaved run).
dir=$(only_run_dir "$WORK/interleaved")
grep -q "noisy" "$WORK/interleaved.console" || fail "no console warning for noisy trials"
py "$dir" <<'PY'
import csv, json, os, sys
d = sys.argv[1]
records = [json.loads(l) for l in open(os.path.join(d, "trials.jsonl"))]
train = [r for r in records if r["kind"] == "train"]
assert all(r["noisy"] is True and "noise_cv_threshold" in r["noisy_because"] for r in train), \
    "cv threshold 0 must mark every train trial noisy, saying why"
for r in train:
    t, s = r["throughput"], r["step_time_ms"]
    assert t["samples_per_s_ci95"][0] <= t["samples_per_s"] <= t["samples_per_s_ci95"][1], t
    assert s["p50"] <= s["p90"] <= s["p99"] and s["ci95"][0] <= s["p50"] <= s["ci95"][1], s
    assert r["timing"]["steps"] >= 5 and r["timing"]["seconds"] >= 0.05, r["timing"]
    assert len(s["per_rank_median"]) == r["world_size"]
for r in records:
    for p in r.get("points", []):
        assert r["settings"]["timing"] == "loop" and p["iters"] >= 5, p
        assert p["ci_low_us"] <= p["p50_us"] <= p["ci_high_us"], p
        assert p["busbw_ci_low_gbps"] <= p["busbw_gbps"] <= p["busbw_ci_high_gbps"], p
rows = list(csv.DictReader(open(os.path.join(d, "aggregates.csv"))))
rates = [r for r in rows if r["figure"] == "samples_per_s"]
assert len(rates) == 2 and all(r["n"] == "3" for r in rates), rates
busbw = [r for r in rows if r["figure"] == "busbw_gbps"]
assert len(busbw) == 2 * 2 and all(r["n"] == "3" for r in busbw), busbw
for r in rows:
    assert float(r["min"]) <= float(r["median"]) <= float(r["max"]), r
meta = json.load(open(os.path.join(d, "meta.json")))
assert meta["machine"]["start"]["loadavg"] and meta["machine"]["cpu_shares"]["busy"] is not None
print("noise marks, aggregates and machine state ok")
PY
if /usr/bin/python3 -c "import matplotlib, pandas" 2>/dev/null; then
  scripts/plot "$dir" --out "$WORK/plots" > /dev/null
  py "$WORK/plots" <<'PY'
import json, os, sys
out = sys.argv[1]
figures = json.load(open(os.path.join(out, "figures.json")))["series"]
plots = {f["plot"] for f in figures}
assert "busbw" in plots and any(p.startswith("throughput") for p in plots), plots
widths = []
for f in figures:
    for lo, y, hi in zip(f["lo"], f["y"], f["hi"]):
        assert lo <= y <= hi, f
        widths.append(hi - lo)
assert any(w > 0 for w in widths), "no error bar has a width"
report = open(os.path.join(out, "report.md")).read()
for text in ("## Answer", "## Noise", "Noisy trials", "95% intervals"):
    assert text in report, text
assert "within noise" in report or "×" in report
print("plots with error bars ok:", len(figures), "series")
PY
fi
echo PASS
