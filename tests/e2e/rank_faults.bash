# Helpers of the tests of a failure on one rank (rank_faults.sh, rank_faults_world3.sh),
# sourced after lib.bash: experiments over the test plugin "faulty" (a shipped backend with one
# fault injected on one rank, tests/plugins/faulty_plugin.cpp), and the check of their records.
BUILD=$(dirname "$HARNESS")
TEST_PLUGINS="$BUILD/tests/test_plugins"
TIMEOUT_S=60  # the watchdog's: a run that reaches it has waited for it

# experiment NAME KIND NP SETTINGS_JSON FAULTY_PARAMS: part "faulty" over the faulty backend,
# then part "after", the same over its inner backend.
experiment() {
  local name=$1 kind=$2 np=$3 settings=$4 faulty=$5 inner
  inner=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1]).get("inner","mpi"))' "$faulty")
  cat > "$WORK/$name.json" <<JSON
{"name": "$name", "seed": 1, "timeout_s": $TIMEOUT_S,
 "parts": [
  {"name": "faulty", "kind": "$kind",
   "settings": {"world_size": $np, "backend": "faulty", "backend_params": $faulty, $settings}},
  {"name": "after", "kind": "$kind",
   "settings": {"world_size": $np, "backend": "$inner", $settings}}]}
JSON
}

COLLECTIVE='"min_bytes": 4096, "max_bytes": 4096, "iters": 5, "warmup_iters": 2, "min_time_s": 0.01,
            "quiet_wait_s": 0'
TRAIN='"dataset": {"rows": 2000}, "epochs": 1, "batch_size": 64, "min_time_s": 0.01,
       "fusion_bytes": 256, "quiet_wait_s": 0'

# run_case NAME NP EXPECTED_STATUS EXPECTED_TEXT: runs the experiment, checks the faulty part's
# record on rank 0 (which records every trial) and that the next part ran ok, in under 30 s.
run_case() {
  local name=$1 np=$2 status=$3 text=$4 started elapsed code=0
  started=$(date +%s)
  timeout 120 $MPIRUN -np "$np" "$HARNESS" "$WORK/$name.json" --plugin-dir "$TEST_PLUGINS" -q \
    --results-dir "$WORK/$name" > "$WORK/$name.console" 2>&1 || code=$?
  elapsed=$(( $(date +%s) - started ))
  [ "$code" -eq 0 ] || { cat "$WORK/$name.console"; fail "$name: exit $code"; }
  [ "$elapsed" -lt 30 ] || fail "$name: took $elapsed s (the watchdog's timeout is $TIMEOUT_S s)"
  py "$(only_run_dir "$WORK/$name")" "$name" "$status" "$text" <<'PY'
import json, os, sys
folder, name, status, text = sys.argv[1:]
records = {r["part"]: r for r in map(json.loads, open(os.path.join(folder, "trials.jsonl")))}
faulty = records["faulty"]
assert faulty["status"] == status, (name, faulty["status"], faulty["reason"])
assert text in faulty["reason"], (name, faulty["reason"])
assert records["after"]["status"] == "ok", (name, records["after"]["status"], records["after"]["reason"])
print(f"ok: {name}: {faulty['status']}: {faulty['reason']}")
PY
  echo "   ($elapsed s)"
}

