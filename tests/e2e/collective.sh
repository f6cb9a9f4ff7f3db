# The collective benchmark end to end: every CPU backend reduces correctly (#wrong = 0) at
# world sizes 2 and 3; nccl is skipped with its reason where it cannot run (no GPU) and must
# be ok with no wrong element where it can; points.csv has a row per size.
source "$(dirname "$0")/lib.bash"

# What this machine's nccl plugin says of itself: absent, unavailable (the reason) or ready.
nccl_line=$("$HARNESS" --list-plugins | grep '^nccl ' || true)
if [ -z "$nccl_line" ]; then nccl_state=absent
elif grep -q UNAVAILABLE <<<"$nccl_line"; then nccl_state=unavailable
else nccl_state=ready; fi
echo "nccl plugin: $nccl_state"

cat > "$WORK/coll.json" <<'JSON'
{"name": "coll", "parts": [{"name": "bench", "kind": "collective",
  "settings": {"min_bytes": 4, "max_bytes": 1048576, "step_factor": 4, "iters": 3, "warmup_iters": 1,
               "min_time_s": 0.001, "quiet_wait_s": 0},
  "sweep": {"world_size": [2, 3], "dtype": ["fp32", "fp64"],
            "backend, backend_params": [["ring", {"chunk_bytes": 4096}], ["gloo", {"algorithm": "ring"}],
                                        ["gloo", {"algorithm": "halving_doubling"}], ["mpi", {}], ["nccl", {}]]}}]}
JSON
[ "$nccl_state" != absent ] || sed -i 's/, \["nccl", {}\]//' "$WORK/coll.json"
$MPIRUN -np 3 "$HARNESS" "$WORK/coll.json" --results-dir "$WORK/r" -v > "$WORK/console"
grep -q "algbw" "$WORK/console" || fail "no nccl-tests style table on the console with -v"
dir=$(only_run_dir "$WORK/r")
py "$dir" "$nccl_state" <<'PY'
import csv, json, os, sys
d, nccl_state = sys.argv[1], sys.argv[2]
records = [json.loads(l) for l in open(os.path.join(d, "trials.jsonl"))]
assert len(records) == 2 * 2 * (4 if nccl_state == "absent" else 5), len(records)
for r in records:
    name = r["settings"]["backend"]
    if name == "nccl" and nccl_state == "unavailable":
        assert r["status"] == "skipped", ("nccl without a GPU must be skipped", r["status"], r["reason"])
        assert "CUDA" in r["reason"] or "GPU" in r["reason"], ("skipped without its reason", r["reason"])
        continue
    assert r["status"] == "ok", (name, r["reason"])
    sizes = [p["bytes"] for p in r["points"]]
    # The range's sizes are the same for every dtype; 4 B is no whole fp64 element.
    assert sizes[0] == 4 or (r["settings"]["dtype"] == "fp64" and sizes[0] == 16), sizes
    assert sizes[-1] == 1048576, sizes
    for p in r["points"]:
        assert p["wrong"] == 0, (name, p)
        assert p["p50_us"] > 0 and p["min_us"] <= p["p50_us"] <= p["p99_us"]
        n = r["world_size"]
        assert abs(p["busbw_gbps"] - p["algbw_gbps"] * 2 * (n - 1) / n) < 1e-9
rows = list(csv.DictReader(open(os.path.join(d, "points.csv"))))
ok_points = sum(len(r.get("points", [])) for r in records)
assert len(rows) == ok_points and ok_points > 0, (len(rows), ok_points)
print("collective results ok:", len(records), "trials,", ok_points, "points")
PY

# Every collective of API 4 on the backends that list them, at world 2: exact results, the
# nccl-tests sizes and bus factors; a backend that does not list one is refused by the dry run.
cat > "$WORK/every.json" <<'JSON'
{"name": "every", "kind": "collective",
 "settings": {"world_size": 2, "sizes": [4, 36, 4100, 262144], "iters": 2, "warmup_iters": 1,
              "min_time_s": 0.01, "dtype": "fp32"},
 "sweep": {"collective": ["reduce_scatter", "allgather", "broadcast", "alltoall"],
           "backend": ["mpi", "ring", "gloo", "shm"]}}
JSON
$MPIRUN -np 2 "$HARNESS" "$WORK/every.json" --results-dir "$WORK/every" -q
py "$(only_run_dir "$WORK/every")" <<'PY'
import json, os, sys
records = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert len(records) == 16, len(records)
factor = {"reduce_scatter": 0.5, "allgather": 0.5, "alltoall": 0.5, "broadcast": 1.0}
for r in records:
    collective = r["settings"]["collective"]
    assert r["status"] == "ok", (collective, r["settings"]["backend"], r["reason"])
    # The whole buffer, split in whole elements per rank, as nccl-tests rounds: 36 B is 9 fp32,
    # 8 over 2 ranks; 4 B is no element per rank, so nothing is measured there.
    split = collective != "broadcast"
    assert [p["bytes"] for p in r["points"]] == ([32, 4096, 262144] if split else [4, 36, 4100, 262144]), r["points"]
    for p in r["points"]:
        assert p["wrong"] == 0, (collective, p)
        assert abs(p["busbw_gbps"] - p["algbw_gbps"] * factor[collective]) < 1e-9, (collective, p)
print("every collective ok:", sorted({r["settings"]["collective"] for r in records}))
PY
expect_error 'backend "hierarchical" does not support reduce_scatter (it offers allreduce, broadcast)' \
  "$HARNESS" "$WORK/every.json" --dry-run --set 'sweep.backend=["hierarchical"]' \
  --set 'settings.backend_params={"inter": "mpi"}'
echo PASS
