# gloo's receive "auto" picks busy polling where every rank has a core (world 2 on 2 cores);
# what it picks must run every collective gloo offers: alltoall, and reduce_scatter and allgather
# with blocks over 1 MiB (which sync-mode receiving cannot run) all end ok with no wrong element.
source "$(dirname "$0")/lib.bash"
"$HARNESS" --list-plugins | grep -q '^gloo ' || { echo "SKIP: no gloo plugin in this build"; exit 77; }

cat > "$WORK/auto.json" <<'JSON'
{"name": "auto", "kind": "collective",
 "settings": {"backend": "gloo", "backend_params": {"receive": "auto"}, "world_size": 2,
              "min_bytes": 2097152, "max_bytes": 4194304, "iters": 2, "warmup_iters": 1,
              "min_time_s": 0.001, "quiet_wait_s": 0},
 "sweep": {"collective": ["alltoall", "allgather", "reduce_scatter", "allreduce"]}}
JSON
$MPIRUN -np 2 "$HARNESS" "$WORK/auto.json" -q --results-dir "$WORK/r" > "$WORK/console" 2>&1 ||
  { cat "$WORK/console"; fail "the run exited $?"; }
py "$(only_run_dir "$WORK/r")" <<'PY'
import json, os, sys
records = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert len(records) == 4, len(records)
for r in records:
    what = (r["settings"]["collective"], r["backend"].get("algorithm"))
    assert r["status"] == "ok", (what, r["status"], r.get("reason"))
    assert [p["bytes"] for p in r["points"]] == [2097152, 4194304], (what, r["points"])
    assert all(p["wrong"] == 0 for p in r["points"]), (what, r["points"])
    print("ok:", *what)
PY
echo PASS
