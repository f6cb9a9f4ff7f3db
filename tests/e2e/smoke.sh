# harness tests/fixtures/smoke_train.json under mpirun -np 2 writes complete, consistent result files;
# a plain process (no mpirun) runs world-size-1 trials.
source "$(dirname "$0")/lib.bash"

$MPIRUN -np 2 "$HARNESS" tests/fixtures/smoke_train.json --results-dir "$WORK/r" > "$WORK/console"
cat "$WORK/console"
dir=$(only_run_dir "$WORK/r")
grep -q "\[4/4\] ok" "$WORK/console" || fail "console lacks the last trial's line"
# One line per trial, with its figure and interval; nothing else but the run's first and last lines.
[ "$(grep -c '^\[[0-9]/4\] ' "$WORK/console")" -eq 4 ] || fail "expected one console line per trial"
[ "$(wc -l < "$WORK/console")" -le 7 ] || fail "the console says more than one line per trial"
grep -qE "^\[1/4\] ok .* [0-9.]+[kM]? \[[0-9.]+[kM]?, [0-9.]+[kM]?\] samples/s" "$WORK/console" ||
  fail "a trial's line lacks its samples/s with their interval"
grep -q "^harness: the Answer and report.md: scripts/plot .*/smoke_train/" "$WORK/console" || fail "the console does not say where the Answer and report come from"
py "$dir" <<'PY'
import json, sys, csv, os
d = sys.argv[1]
records = [json.loads(l) for l in open(os.path.join(d, "trials.jsonl"))]
assert len(records) == 4, len(records)
assert len({r["key"] for r in records}) == 4
for r in records:
    assert r["status"] == "ok", r["reason"]
    assert r["params_consistent"] is True
    assert r["throughput"]["samples_per_s"] > 0
    assert len(r["throughput"]["samples_per_s_per_rank"]) == r["world_size"]
    assert len(r["loss"]["per_epoch"]) == 3
    assert 0.5 < r["detection"]["auroc"] <= 1.0, r["detection"]
    for part in ("compute", "exposed_comm", "comm", "optimizer"):
        assert r["step_time_ms"][part] >= 0
    assert r["bytes_reduced_per_step"] == 4 * (r["model"]["parameters"] + 2)  # + loss, failure flag
assert sorted(r["world_size"] for r in records) == [1, 1, 2, 2]
rows = list(csv.DictReader(open(os.path.join(d, "summary.csv"))))
assert len(rows) == 4 and "throughput.samples_per_s" in rows[0] and "detection.auroc" in rows[0]
meta = json.load(open(os.path.join(d, "meta.json")))
for key in ("experiment", "command", "git_sha", "host", "cpu", "mpi", "binding", "versions", "plugins", "seeds", "finished_at"):
    assert key in meta, key
assert meta["mpi"]["world_size"] == 2 and len(meta["binding"]["ranks"]) == 2
assert meta["versions"]["libtorch"].startswith("1.")
assert {p["name"] for p in meta["plugins"]} >= {"mpi", "autoencoder"}
print("smoke results ok:", d)
PY

# A plain process is world 1.
"$HARNESS" tests/fixtures/smoke_train.json --set 'sweep.world_size=[1]' --set settings.epochs=1 \
  --results-dir "$WORK/plain" -q
[ "$(wc -l < "$(only_run_dir "$WORK/plain")/trials.jsonl")" -eq 2 ] || fail "plain run did not record 2 trials"

# --dry-run prints the table and runs nothing.
"$HARNESS" tests/fixtures/smoke_train.json --set 'sweep.world_size=[1]' --dry-run --results-dir "$WORK/dry" > "$WORK/dry.txt"
grep -q "2 trial(s)" "$WORK/dry.txt" || fail "dry run table"
[ ! -e "$WORK/dry" ] || fail "dry run wrote results"

"$HARNESS" --list-plugins > "$WORK/plugins.txt"
grep -q "^autoencoder *model" "$WORK/plugins.txt" || fail "--list-plugins lacks autoencoder"
grep -q "^mpi *communicator" "$WORK/plugins.txt" || fail "--list-plugins lacks mpi"
echo PASS
