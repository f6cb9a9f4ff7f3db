# The README's main-job command: scripts/run launches mpirun with as many ranks as the
# experiment needs (the harness's own --dry-run answer, which sees parts and zipped axes).
source "$(dirname "$0")/lib.bash"

"$HARNESS" experiments/ring_vs_gloo.json --dry-run | grep -q "run with mpirun -np 4$" ||
  fail "ring_vs_gloo.json should ask for 4 ranks"
"$HARNESS" experiments/models.json --dry-run | grep -q "run with mpirun -np 2$" ||
  fail "models.json should ask for 2 ranks"

scripts/run experiments/smoke.json --results-dir "$WORK/r" -q
dir=$(only_run_dir "$WORK/r")
py "$dir" <<'PY'
import json, os, sys
meta = json.load(open(os.path.join(sys.argv[1], "meta.json")))
assert meta["mpi"]["world_size"] == 2, meta["mpi"]
records = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert len(records) == 4 and all(r["status"] == "ok" for r in records)
print("scripts/run launched", meta["mpi"]["world_size"], "ranks")
PY
echo PASS
