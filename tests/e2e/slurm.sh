# Under Slurm, as a cluster runs it: scripts/slurm starts a one-node Slurm of its own (munged,
# slurmctld, slurmd; PMIx), srun -n 2 runs the smoke experiment (world sizes 1 and 2), every
# trial finishes ok with rank 0 writing the results, and scripts/slurm down stops it all.
# Skipped (exit 77) with the reason where the daemons cannot run here.
source "$(dirname "$0")/lib.bash"
export HARNESS_SLURM_DIR="$WORK/slurm"
status=0
scripts/slurm up >"$WORK/up.out" 2>&1 || status=$?
if [ "$status" -eq 4 ]; then echo "SKIP: $(tail -1 "$WORK/up.out")"; exit 77; fi
[ "$status" -eq 0 ] || { cat "$WORK/up.out"; fail "scripts/slurm up: exit $status"; }
trap 'scripts/slurm down >/dev/null 2>&1; rm -rf "$WORK" "$SEGMENTS"' EXIT
timeout 300 scripts/slurm run -n 2 "$HARNESS" tests/fixtures/smoke_train.json --results-dir "$WORK/r" -q
py "$(only_run_dir "$WORK/r")" <<'PY'
import json, os, sys
d = sys.argv[1]
records = [json.loads(l) for l in open(os.path.join(d, "trials.jsonl"))]
assert len(records) == 4 and all(r["status"] == "ok" for r in records), [(r["status"], r["reason"]) for r in records]
assert sorted(r["world_size"] for r in records) == [1, 1, 2, 2]
meta = json.load(open(os.path.join(d, "meta.json")))
assert meta["mpi"]["world_size"] == 2 and len(meta["binding"]["ranks"]) == 2, meta["binding"]
print("ok: srun -n 2 ran the smoke experiment, 4 trials ok")
PY
scripts/slurm down >/dev/null
[ ! -d "$HARNESS_SLURM_DIR" ] || fail "scripts/slurm down left $HARNESS_SLURM_DIR"
echo PASS
