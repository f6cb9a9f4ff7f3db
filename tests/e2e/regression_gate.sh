# The regression gate: scripts/export_gbench turns a results folder into Google Benchmark JSON
# that compare.py reads (repetitions as runs, aggregates, counters; broken input is refused),
# and the gate's quick self-test: a 50% slower mpi backend fails the gate naming an mpi
# benchmark, the build against itself passes.
source "$(dirname "$0")/lib.bash"
COMPARE=/usr/share/benchmark/compare.py
[ -f "$COMPARE" ] || fail "$COMPARE missing (libbenchmark-tools; scripts/setup)"

scripts/export_gbench tests/fixtures/mixed_results -o "$WORK/a.json" 2>"$WORK/err"
grep -q "truncated last line dropped" "$WORK/err" || fail "the truncated fixture line was not reported"
grep -q "left out 3 trial(s)" "$WORK/err" || fail "trials that did not finish ok were not counted"
py "$WORK/a.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
runs = [b for b in d["benchmarks"] if b["run_type"] == "iteration"]
name = 'train/autoencoder/lr_rule:none/lr_warmup_epochs:0/optimizer:{"lr":0.001,"name":"adam"}/world_size:4'
mine = [b for b in runs if b["name"] == name]
assert len(mine) == 2, f"two repetitions expected for {name}, got {len(mine)}"
assert sorted(b["repetition_index"] for b in mine) == [0, 1]
for b in mine:
    assert abs(b["real_time"] - 1e9 / b["samples_per_s"]) < 1e-6 * b["real_time"], b
aggregates = {b["aggregate_name"]: b for b in d["benchmarks"] if b.get("run_name") == name
              and b["run_type"] == "aggregate"}
assert set(aggregates) == {"mean", "median", "stddev", "cv"}, aggregates.keys()
times = sorted(b["real_time"] for b in mine)
assert abs(aggregates["median"]["real_time"] - sum(times) / 2) < 1e-9 * times[0]
sizes = [b for b in runs if b["name"].startswith("collective/") and b["time_unit"] == "us"]
assert len(sizes) >= 10 and all("busbw_gbps" in b for b in sizes), len(sizes)
print("ok: export structure")
PY
/usr/bin/python3 "$COMPARE" -d "$WORK/cmp.json" benchmarks "$WORK/a.json" "$WORK/a.json" >"$WORK/table" ||
  fail "compare.py rejected the export"
grep -q "world_size:4" "$WORK/table" || fail "compare.py's table lacks the exported benchmarks"

status=0
scripts/export_gbench "$WORK/nowhere" >/dev/null 2>"$WORK/err" || status=$?
[ "$status" -ne 0 ] && grep -q "no trials.jsonl" "$WORK/err" || fail "a folder without results should fail with a message"

scripts/regression_selftest --check --out "$WORK/selftest" || fail "the gate self-test failed"
echo PASS
