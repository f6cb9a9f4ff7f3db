# The shm backend end to end: collectives and training at world 2 through a shared segment
# (with the memcpy bound read around a 64 MB trial),
# in the memory it provides, by cross-memory attach and staged; replicas bit-identical, the
# hierarchical composition over it, its parameters refused with the field named, and nothing
# left in /dev/shm — after a run, and after a job killed outright mid-allreduce (segments are
# anonymous memory files that never have a name there).
source "$(dirname "$0")/lib.bash"

leftovers() { ls /dev/shm 2>/dev/null | grep -c '^harness-shm-' || true; }
before=$(leftovers)

cat > "$WORK/shm.json" <<'JSON'
{"name": "shm", "seed": 1, "timeout_s": 60,
 "parts": [
  {"name": "allreduce", "kind": "collective",
   "settings": {"world_size": 2, "min_bytes": 4, "max_bytes": 4194304, "step_factor": 16,
                "iters": 5, "min_time_s": 0.01, "quiet_wait_s": 0},
   "sweep": {"backend, backend_params": [["shm", {}], ["shm", {"in_place": true}],
                                          ["shm", {"chunk_bytes": 4096, "provide_memory": false}],
                                          ["shm", {"provide_memory": false, "cross_memory": true}]],
             "dtype": ["fp32", "fp16"]}},
  {"name": "training", "kind": "train",
   "settings": {"world_size": 2, "backend": "shm", "dataset": {"rows": 2000}, "epochs": 2,
                "min_time_s": 0.05, "quiet_wait_s": 0},
   "sweep": {"overlap": [false, true], "compression": ["none", "fp16"]}},
  {"name": "bound", "kind": "collective",
   "settings": {"world_size": 2, "backend": "shm", "sizes": [67108864], "iters": 2,
                "warmup_iters": 1, "min_time_s": 0.01, "quiet_wait_s": 0}},
  {"name": "composed", "kind": "train",
   "settings": {"world_size": 2, "backend": "hierarchical", "backend_params": {"inter": "mpi"},
                "dataset": {"rows": 2000}, "epochs": 2, "min_time_s": 0.05, "quiet_wait_s": 0}}]}
JSON
$MPIRUN -np 2 "$HARNESS" "$WORK/shm.json" --results-dir "$WORK/a" -q
py "$(only_run_dir "$WORK/a")" <<'PY'
import json, os, sys
records = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert len(records) == 14 and all(r["status"] == "ok" for r in records), [(r["status"], r.get("reason")) for r in records]
for r in records:
    if r["kind"] == "collective":
        assert all(p["wrong"] == 0 for p in r["points"]), r["points"]
    else:
        assert r["params_consistent"], r
    # Buffers lie in the memory shm provides unless it was told not to provide any.
    provides = r["settings"]["backend_params"].get("provide_memory", True)
    assert r["backend"]["memory"] == ("communicator" if provides else "host"), (r["axes"], r["backend"])
# One thread's memcpy is read just before and after the messages where they reach 64 MB.
for r in records:
    reaches = r["kind"] == "collective" and r["points"][-1]["bytes"] >= 64 << 20
    assert ("memcpy" in r) == reaches, (r["part"], r["axes"], r.get("memcpy"))
    if reaches:
        m = r["memcpy"]
        assert m["bytes"] == 64 << 20 and m["before_gbps"] > 0.1 and m["after_gbps"] > 0.1, m
in_place = [r for r in records if r["settings"]["backend_params"].get("in_place")]
assert len(in_place) == 2 and all("reduced in place" in r["backend"]["algorithm"] for r in in_place), \
    [r["backend"] for r in in_place]
cma = [r for r in records if r["kind"] == "collective" and r["settings"]["backend_params"].get("cross_memory")]
assert cma and all("cross-memory attach" in r["backend"]["algorithm"] for r in cma), [r["backend"] for r in cma]
composed = [r for r in records if r["part"] == "composed"][0]
assert composed["backend"]["name"] == "hierarchical" and "shm within hosts" in composed["backend"]["algorithm"], composed["backend"]
# shm offers reduce-scatter and allgather, so the host's level goes by them, and the record says
# so in the field the cost model reads.
sys.path.insert(0, "scripts")
from harness_analysis.labels import host_level_by_halves
assert composed["backend"]["within_hosts"] == "reduce_scatter+allgather", composed["backend"]
assert host_level_by_halves(composed), composed["backend"]
print("shm ok:", [r["axes"] for r in records])
PY
[ "$(leftovers)" = "$before" ] || fail "a run left a segment in /dev/shm"

# Killed outright in the middle of its allreduces: still nothing in /dev/shm.
cat > "$WORK/long.json" <<'JSON'
{"name": "long", "kind": "collective",
 "settings": {"world_size": 2, "backend": "shm", "sizes": [67108864], "iters": 1000,
              "min_time_s": 30, "quiet_wait_s": 0}}
JSON
setsid $MPIRUN -np 2 "$HARNESS" "$WORK/long.json" --results-dir "$WORK/b" -q &
job=$!
sleep 4
kill_job "$job"
[ "$(leftovers)" = "$before" ] || fail "a killed job left a segment in /dev/shm"
echo "ok: nothing left in /dev/shm after a run and after SIGKILL"

# The composition's parameters are checked before anything runs, each level by its own plugin.
expect_error '/settings/backend_params: missing required key "inter"' "$HARNESS" tests/fixtures/smoke_train.json --dry-run \
  --set settings.backend=hierarchical --set 'settings.backend_params={}'
expect_error 'backend_params/inter: unknown communicator plugin "nope"' "$HARNESS" tests/fixtures/smoke_train.json \
  --dry-run --set settings.backend=hierarchical --set 'settings.backend_params={"inter": "nope"}'
expect_error '/settings/backend_params/intra_params/chunk_bytes' "$HARNESS" tests/fixtures/smoke_train.json \
  --dry-run --set settings.backend=hierarchical \
  --set 'settings.backend_params={"inter": "mpi", "intra_params": {"chunk_bytes": 1}}'
# A composition is held to its parts' rules: gloo alone refuses bf16, and so as a level.
expect_error '/settings/compression: backend "gloo" does not reduce bf16' "$HARNESS" tests/fixtures/smoke_train.json \
  --dry-run --set settings.backend=hierarchical --set settings.compression='"bf16"' \
  --set 'settings.backend_params={"intra": "gloo", "inter": "mpi"}'

echo PASS
