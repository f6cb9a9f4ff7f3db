# Points whose ranks would share CPUs: with the job confined to one CPU (taskset), world size
# 2 oversubscribes it. "once" runs such a point's first repetition alone and never repeats it
# adaptively, "leave_out" drops it; the dry run says which, and meta.json records it.
source "$(dirname "$0")/lib.bash"
command -v taskset >/dev/null || { echo "skip: no taskset (util-linux)"; exit 77; }

smoke=(tests/fixtures/smoke_train.json --set repetitions=2 --set settings.epochs=1
       --set settings.min_time_s=0.02 --set settings.quiet_wait_s=0)
one_cpu() { taskset -c 0 "$@"; }

one_cpu "$HARNESS" "${smoke[@]}" --set oversubscribed=once --dry-run > "$WORK/once.txt"
cat "$WORK/once.txt"
grep -q "^world size 2: oversubscribed (2 ranks would share 1 CPU(s) on a host): one repetition each" \
  "$WORK/once.txt" || fail "the dry run does not say that world size 2 runs once"
grep -q "^6 trial(s); run with mpirun -np 2$" "$WORK/once.txt" ||
  fail "once: expected world 1's 4 trials and world 2's 2"

one_cpu "$HARNESS" "${smoke[@]}" --set oversubscribed=leave_out --dry-run > "$WORK/out.txt"
grep -q "left out (oversubscribed: leave_out)" "$WORK/out.txt" || fail "the dry run does not say leave_out"
grep -q "^4 trial(s); run with mpirun -np 1$" "$WORK/out.txt" || fail "leave_out: expected world 1 alone"

# The rule in a real run, adaptive repetitions on: world 2 runs once, whatever its spread.
one_cpu $MPIRUN -np 2 "$HARNESS" "${smoke[@]}" --set oversubscribed=once --set max_repetitions=4 \
  --set target_ci=0.000001 --set adaptive_budget_s=20 --results-dir "$WORK/r" > "$WORK/console" 2>&1 ||
  { cat "$WORK/console"; fail "the run failed"; }
grep -q "^harness: world size 2: oversubscribed" "$WORK/console" || fail "the console does not say it"
py "$(only_run_dir "$WORK/r")" <<'PY'
import json, os, sys
d = sys.argv[1]
meta = json.load(open(os.path.join(d, "meta.json")))
assert meta["oversubscribed"]["rule"] == "once" and meta["oversubscribed"]["world_sizes"] == [2], meta["oversubscribed"]
records = [json.loads(l) for l in open(os.path.join(d, "trials.jsonl"))]
world2 = [r for r in records if r["world_size"] == 2]
assert len(world2) == 2 and {r["repetition"] for r in world2} == {0}, [(r["world_size"], r["repetition"]) for r in records]
assert all(r["status"] == "ok" for r in records), [r["status"] for r in records]
assert len([r for r in records if r["world_size"] == 1]) > 4, "world 1 got no adaptive repetition"
print("once: world 2 ran once,", len(records), "trials")
PY
echo PASS
