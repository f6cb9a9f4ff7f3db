# The README's main-job command: scripts/run launches mpirun with as many ranks as the
# experiment needs (the harness's own --dry-run answer, which sees parts and zipped axes).
source "$(dirname "$0")/lib.bash"

"$HARNESS" experiments/ring_vs_gloo.json --dry-run | grep -q "run with mpirun -np 4$" ||
  fail "ring_vs_gloo.json should ask for 4 ranks"
"$HARNESS" experiments/models.json --dry-run | grep -q "run with mpirun -np 2$" ||
  fail "models.json should ask for 2 ranks"

# What scripts/run builds: the plugins the trials name, a hierarchical backend's two levels too.
[ "$("$HARNESS" experiments/ring_vs_gloo.json --plugins-needed | tr '\n' ' ')" = \
  "comm:gloo comm:mpi comm:nccl comm:ring comm:shm model:autoencoder " ] ||
  fail "ring_vs_gloo.json --plugins-needed: $("$HARNESS" experiments/ring_vs_gloo.json --plugins-needed)"
[ "$("$HARNESS" experiments/hierarchical.json --plugins-needed | tr '\n' ' ')" = \
  "comm:gloo comm:mpi comm:ring comm:shm " ] ||
  fail "hierarchical.json --plugins-needed: $("$HARNESS" experiments/hierarchical.json --plugins-needed)"

scripts/run experiments/smoke.json --results-dir "$WORK/r" -q
dir=$(only_run_dir "$WORK/r")
py "$dir" <<'PY'
import json, os, sys
meta = json.load(open(os.path.join(sys.argv[1], "meta.json")))
assert meta["mpi"]["world_size"] == 2, meta["mpi"]
records = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert all(r["status"] == "ok" for r in records), [(r["status"], r["reason"]) for r in records]
# Two backends, each at least 3 times, in both parts (repetitions may add more).
runs = {}
for r in records:
    key = (r["kind"], r["backend"]["name"])
    runs[key] = runs.get(key, 0) + 1
assert set(runs) == {(k, b) for k in ("collective", "train") for b in ("mpi", "shm")}, runs
assert min(runs.values()) >= 3, runs
print("scripts/run launched", meta["mpi"]["world_size"], "ranks")
PY

# SIGTERM to mpirun: Open MPI's mpirun then exits 1 whatever its ranks did; scripts/run exits
# 128 + the signal the harness names, as the harness itself does.
cat > "$WORK/long.json" <<'JSON'
{"name": "long", "kind": "collective",
 "settings": {"world_size": 2, "max_bytes": 64, "min_time_s": 1, "quiet_wait_s": 0},
 "sweep": {"warmup_iters": [1, 2, 3, 4, 5, 6, 7, 8]}}
JSON
scripts/run "$WORK/long.json" --results-dir "$WORK/t" -q > "$WORK/console" 2>&1 &
job=$!
wait_for_records "$WORK/t" 1
pkill -TERM -f "^mpirun.*$WORK/long.json" || fail "no mpirun to signal"
status=0; wait "$job" || status=$?
[ "$status" -eq 143 ] || { cat "$WORK/console"; fail "scripts/run after SIGTERM: exit $status, expected 143"; }
echo "ok: scripts/run exits 143 on SIGTERM"
echo PASS
