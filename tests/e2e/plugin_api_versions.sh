# Every plugin API this host loads (kOldestApiVersion..kApiVersion): a communicator written and
# registered as the headers tell a user to (tests/plugins/user_api_plugin.cpp, built once per
# version) is listed by --list-plugins, passes --dry-run and runs a real trial at world 2, and
# offers the collectives its version has (API 3: allreduce and broadcast; API 4: what it lists).
source "$(dirname "$0")/lib.bash"
BUILD=$(dirname "$HARNESS")
API_PLUGINS="$BUILD/tests/api_plugins"
version_of() { sed -n "s/^#define HARNESS_PLUGIN_API_$1 \([0-9]*\)$/\1/p" harness/include/harness/plugin/version.h; }
oldest=$(version_of OLDEST) newest=$(version_of NEWEST)
[ -n "$oldest" ] && [ -n "$newest" ] || fail "could not read the API versions from version.h"

for api in $(seq "$oldest" "$newest"); do
  name=user_api$api
  [ -f "$API_PLUGINS/libharness_comm_$name.so" ] || fail "no test plugin for API $api in $API_PLUGINS"
  mkdir "$WORK/$name"
  cp "$API_PLUGINS/libharness_comm_$name.so" "$WORK/$name/"

  # 1. Listed, with what its capabilities say.
  status=0; "$HARNESS" --list-plugins --plugin-dir "$WORK/$name" > "$WORK/list" 2>&1 || status=$?
  [ "$status" -eq 0 ] || { cat "$WORK/list"; fail "--list-plugins with the API $api plugin: exit $status"; }
  grep -q "^$name " "$WORK/list" || { cat "$WORK/list"; fail "API $api plugin not listed"; }

  # 2. A training trial and a collective trial validate (--dry-run) and run at world 2.
  cat > "$WORK/$name.json" <<JSON
{"name": "$name", "parts": [
  {"name": "train", "kind": "train",
   "settings": {"backend": "$name", "model": "autoencoder", "model_params": {"hidden": [10, 3]},
                "dataset": {"kind": "synthetic", "rows": 400, "dim": 20, "latent_dim": 3},
                "optimizer": {"name": "adam", "lr": 0.003}, "epochs": 1, "batch_size": 32},
   "sweep": {"world_size": [2]}},
  {"name": "coll", "kind": "collective",
   "settings": {"backend": "$name", "max_bytes": 4096, "iters": 2, "warmup_iters": 1,
                "min_time_s": 0.001, "quiet_wait_s": 0},
   "sweep": {"world_size": [2], "collective": ["allreduce", "broadcast"]}}]}
JSON
  status=0; "$HARNESS" "$WORK/$name.json" --plugin-dir "$WORK/$name" --dry-run > "$WORK/dry" 2>&1 || status=$?
  [ "$status" -eq 0 ] || { cat "$WORK/dry"; fail "--dry-run with the API $api plugin: exit $status"; }
  $MPIRUN -np 2 "$HARNESS" "$WORK/$name.json" --plugin-dir "$WORK/$name" -q \
    --results-dir "$WORK/r$api" > "$WORK/run" 2>&1 || { cat "$WORK/run"; fail "the API $api run: exit $?"; }
  py "$(only_run_dir "$WORK/r$api")" "$name" <<'PY'
import json, os, sys
records = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert len(records) == 3, len(records)
for r in records:
    assert r["status"] == "ok", (r["status"], r.get("reason"))
    assert r["backend"]["name"] == sys.argv[2], r["backend"]
    for p in r.get("points", []):
        assert p["wrong"] == 0, p
print("ok:", sys.argv[2], "trained and reduced at world 2")
PY

  # 3. allgather: API 4's plugin lists it and runs it; API 3 had none, and says so.
  allgather="$WORK/$name-allgather.json"
  cat > "$allgather" <<JSON
{"name": "$name-allgather", "kind": "collective",
 "settings": {"backend": "$name", "collective": "allgather", "world_size": 2, "max_bytes": 4096,
              "iters": 2, "warmup_iters": 1, "min_time_s": 0.001, "quiet_wait_s": 0}}
JSON
  if [ "$api" -ge 4 ]; then
    $MPIRUN -np 2 "$HARNESS" "$allgather" --plugin-dir "$WORK/$name" -q \
      --results-dir "$WORK/g$api" > "$WORK/run" 2>&1 || { cat "$WORK/run"; fail "API $api allgather: exit $?"; }
    grep -q '"status": *"ok"' "$(only_run_dir "$WORK/g$api")/trials.jsonl" ||
      fail "API $api allgather did not run ok"
  else
    expect_error "allgather" "$HARNESS" "$allgather" --plugin-dir "$WORK/$name" --dry-run
  fi
  echo "ok: API $api"
done
echo PASS
