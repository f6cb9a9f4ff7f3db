# Across hosts, on the test bed (scripts/testbed: 2 network-namespace hosts x 2 ranks, real
# mpirun -H through an rsh agent): the conformance suite passes; a training trial on every CPU
# backend finishes ok with bit-identical replicas, the watchdog on (its connections to rank 0
# cross the hosts), gloo listening on the bed's addresses (not
# loopback: the same-host decision is MPI's, not the host name's); meta.json lists each rank's
# host and local rank; MPI between the hosts needs TCP (without it the job fails, quickly);
# Slurm with one slurmd per bed host runs the same training under srun -N 2 (that part is
# skipped, saying why, where Slurm is not installed); and a rate limit on the links slows large
# messages down. Skipped (exit 77) where network namespaces cannot be made, with the reason.
source "$(dirname "$0")/lib.bash"
build=$(dirname "$HARNESS")
status=0
scripts/testbed up -k 2 >"$WORK/up.out" 2>&1 || status=$?
if [ "$status" -eq 4 ]; then echo "SKIP: $(cat "$WORK/up.out")"; exit 77; fi
[ "$status" -eq 0 ] || { cat "$WORK/up.out"; fail "scripts/testbed up: exit $status"; }
# Under Slurm each bed host has a /tmp of its own, as real hosts do: what every node must see
# lives in the build folder instead.
shared=$(mktemp -d -p "$(cd "$build" && pwd)" e2e-multihost.XXXXXX)
export HARNESS_SLURM_DIR="$shared/slurm"
trap 'scripts/slurm down >/dev/null 2>&1; scripts/testbed down >/dev/null 2>&1; rm -rf "$WORK" "$SEGMENTS" "$shared"' EXIT

# Every backend crosses the hosts; the variants that change only how one host's ranks meet
# (shm's chunk, copy and idle settings, gloo's receive modes) are the single-host tiers'.
timeout 400 scripts/testbed run -n 2 -- "$build/mpi_tests" \
  '--gtest_filter=EveryCommunicator/*:-*/shm?*:*/glooalgorithmringreceive*' \
  --gtest_brief=1 >"$WORK/conformance.out" 2>&1 || { tail -40 "$WORK/conformance.out"; fail "conformance across hosts"; }
echo "ok: conformance suite across 2 hosts x 2 ranks"

cat > "$WORK/multihost.json" <<'JSON'
{"name": "multihost_e2e", "kind": "train", "seed": 2,
 "settings": {"world_size": 4, "epochs": 1, "batch_size": 32, "dataset": {"rows": 2000}, "min_time_s": 0.1,
              "quiet_wait_s": 0},
 "sweep": {"backend, backend_params": [["mpi", {}], ["ring", {}],
                                       ["gloo", {"algorithm": "halving_doubling", "timeout_ms": 20000}]]}}
JSON
timeout 300 scripts/testbed run -n 2 -- "$HARNESS" "$WORK/multihost.json" --results-dir "$WORK/r" -q
py "$(only_run_dir "$WORK/r")" <<'PY'
import json, os, sys
d = sys.argv[1]
records = [json.loads(l) for l in open(os.path.join(d, "trials.jsonl"))]
assert [r["settings"]["backend"] for r in records] == ["mpi", "ring", "gloo"], records
for r in records:
    assert r["status"] == "ok", (r["settings"]["backend"], r["reason"])
    assert r["params_consistent"] is True, r["settings"]["backend"]
gloo = records[2]["backend"]["algorithm"]
assert "over tcp (198.18.0." in gloo, gloo
meta = json.load(open(os.path.join(d, "meta.json")))
ranks = meta["binding"]["ranks"]
assert [r["host"] for r in ranks] == ["hxtb-h1", "hxtb-h1", "hxtb-h2", "hxtb-h2"], ranks
assert [r["local_rank"] for r in ranks] == [0, 1, 0, 1], ranks
# The watchdog's connections to rank 0 reach across hosts too (it is on, not off with a reason).
assert meta["watchdog"].get("timeout_s"), meta["watchdog"]
print("ok: mpi, ring and gloo train across hosts;", gloo, "; hosts and local ranks in meta.json;",
      "the watchdog on")
PY

# Without the TCP BTL the two hosts cannot reach each other: MPI says so and the job ends.
status=0
timeout 120 scripts/testbed run -n 1 --mca btl self,vader -- "$HARNESS" "$WORK/multihost.json" \
  --set settings.world_size=2 --results-dir "$WORK/notcp" -q >"$WORK/notcp.out" 2>&1 || status=$?
[ "$status" -ne 0 ] && [ "$status" -ne 124 ] || { cat "$WORK/notcp.out"; fail "no-TCP run: exit $status"; }
grep -qi "unable to reach\|reach each other\|unreachable" "$WORK/notcp.out" ||
  { cat "$WORK/notcp.out"; fail "no-TCP run did not say the hosts are unreachable"; }
echo "ok: between hosts MPI needs TCP"

# srun across the bed: one slurmd per host, in its namespace under its name.
status=0
scripts/slurm up --testbed >"$WORK/slurm.out" 2>&1 || status=$?
if [ "$status" -eq 4 ]; then
  echo "skipped: Slurm across hosts: $(tail -1 "$WORK/slurm.out")"
else
  [ "$status" -eq 0 ] || { cat "$WORK/slurm.out"; fail "scripts/slurm up --testbed: exit $status"; }
  cp "$WORK/multihost.json" "$shared/"
  timeout 300 scripts/slurm run -N 2 -n 4 "$(cd "$build" && pwd)/harness" "$shared/multihost.json" \
    --results-dir "$shared/r" -q
  py "$(only_run_dir "$shared/r")" <<'PY'
import json, os, sys
d = sys.argv[1]
records = [json.loads(l) for l in open(os.path.join(d, "trials.jsonl"))]
assert len(records) == 3 and all(r["status"] == "ok" and r["world_size"] == 4 for r in records), \
    [(r["status"], r["reason"]) for r in records]
ranks = json.load(open(os.path.join(d, "meta.json")))["binding"]["ranks"]
assert [(r["host"], r["local_rank"]) for r in ranks] == \
    [("hxtb-h1", 0), ("hxtb-h1", 1), ("hxtb-h2", 0), ("hxtb-h2", 1)], ranks
print("ok: srun -N 2 -n 4 trains across the bed's hosts (one slurmd each)")
PY
  scripts/slurm down >/dev/null
fi

# A 20 Mbit/s link: a 1 MB allreduce takes well over 10x as long as on the open link.
cat > "$WORK/rate.json" <<'JSON'
{"name": "rate_e2e", "kind": "collective", "seed": 1,
 "settings": {"world_size": 2, "backend": "mpi", "sizes": [1048576], "iters": 3, "warmup_iters": 1, "min_time_s": 0}}
JSON
time_us() {
  timeout 300 scripts/testbed run -n 1 -- "$HARNESS" "$WORK/rate.json" --results-dir "$WORK/$1" -q
  py "$(only_run_dir "$WORK/$1")" <<'PY'
import json, os, sys
print(json.loads(open(os.path.join(sys.argv[1], "trials.jsonl")).readline())["points"][0]["p50_us"])
PY
}
open=$(time_us open)
scripts/testbed rate 20mbit >/dev/null
limited=$(time_us limited)
py "$open" "$limited" <<'PY'
import sys
open_us, limited_us = map(float, sys.argv[1:])
assert limited_us > 10 * open_us, (open_us, limited_us)
print(f"ok: 1 MB allreduce {open_us:.0f} us open, {limited_us:.0f} us at 20 Mbit/s")
PY
echo PASS
