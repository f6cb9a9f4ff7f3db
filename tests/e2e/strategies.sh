# The strategy experiment end to end, shortened: experiments/strategies.json with one
# repetition, a few steps, mpi and shm only, and the small exported Transformer in place of the
# 12.6 M one, at world 2. Every trial is ok with consistent replicas; sharded follows ddp's loss
# curve, holds about half of ddp's optimizer state per rank and more parameter memory (its
# master shard);
# the records pass their schema; the report's Answer puts the two strategies side by side. A
# backend without reduce_scatter is refused for sharded by the dry run.
source "$(dirname "$0")/lib.bash"

py experiments/strategies.json "$WORK/strategies.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
e["repetitions"] = 1
e.pop("estimator"); e.pop("estimator_k")
for part in e["parts"]:
    s = part["settings"]
    s.update({"max_steps": 6, "warmup_steps": 1, "min_time_s": 0.05, "quiet_wait_s": 0})
    part["sweep"].pop("world_size", None)
    # Two backends here: every CPU backend trains sharded in the mpirun tests.
    part["sweep"]["backend, backend_params"] = [["mpi", {}], ["shm", {}]]
    s["world_size"] = 2
    if s["model"] == "torchscript":
        s["model_params"]["path"] = "build/models/transformer.pt"  # takes 4 features
        s["dataset"]["dim"] = 4
    else:
        s["dataset"]["length"] = 600
json.dump(e, open(sys.argv[2], "w"))
PY
$MPIRUN -np 2 "$HARNESS" "$WORK/strategies.json" --results-dir "$WORK/r" -q
dir=$(only_run_dir "$WORK/r")
"$HARNESS" --check-records "$dir" > /dev/null || fail "the records do not follow their schemas"
py "$dir" <<'PY'
import json, os, sys
records = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert len(records) == 4 + 4, len(records)
by = {}
for r in records:
    s = r["settings"]
    assert r["status"] == "ok", (s["backend"], s.get("strategy"), r["reason"])
    assert r["params_consistent"] is True
    by[(r["part"], s["backend"], s.get("strategy", "ddp"), r["repetition"])] = r
pairs = 0
for (part, backend, strategy, rep), sharded in by.items():
    if strategy != "sharded":
        continue
    ddp = by[(part, backend, "ddp", rep)]
    m, d = sharded["memory"], ddp["memory"]
    share = m["optimizer_state_bytes"] / d["optimizer_state_bytes"]
    assert 0.5 <= share < 0.51, (part, backend, share)
    assert m["parameter_bytes"] > d["parameter_bytes"], (m, d)
    for x, y in zip(sharded["loss"]["per_step"], ddp["loss"]["per_step"]):
        assert abs(x - y) <= 1e-4 * abs(y), (part, backend, x, y)
    pairs += 1
assert pairs == 4, pairs
print("strategies ok:", pairs, "pairs of ddp and sharded")
PY
scripts/plot "$dir" --out "$WORK/plots" > "$WORK/plot.out"
grep -q "strategy, transformer batch 32, mpi, world 2: \*\*sharded\*\* runs .* holds 0.50× the optimizer memory" \
  "$WORK/plots/report.md" || fail "the Answer does not put the strategies side by side: $(grep strategy "$WORK/plots/report.md")"
echo '{"name": "refused", "kind": "train", "settings": {"world_size": 2, "strategy": "sharded",
  "backend": "hierarchical", "backend_params": {"inter": "mpi"}}}' > "$WORK/refused.json"
expect_error 'backend "hierarchical" does not support reduce_scatter or allgather (it offers allreduce, broadcast), which strategy sharded runs on' \
  "$HARNESS" "$WORK/refused.json" --dry-run
echo PASS
