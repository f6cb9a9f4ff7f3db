# Hostile input, second round: every probe here once ran with a silent wrong result, hung, or
# ended in an unclear message. Each now exits 2 with a message naming the field and the problem
# (or, for an environment limit, records the trial failed with the reason).
source "$(dirname "$0")/lib.bash"

smoke=(tests/fixtures/smoke_train.json --set 'sweep.world_size=[1]')
# Identical trials would share a key, and --resume would take one's record for the other's.
expect_error "/sweep/world_size/0, /sweep/batch_size/1: the same trial as /sweep/world_size/0, /sweep/batch_size/0" \
  "$HARNESS" "${smoke[@]}" --set 'sweep.batch_size=[32,32]' --dry-run
cat > "$WORK/parts.json" <<'JSON'
{"name": "p", "parts": [
  {"name": "a", "kind": "collective", "settings": {"max_bytes": 64}},
  {"name": "b", "kind": "collective", "settings": {"max_bytes": 64}}]}
JSON
expect_error "/parts/1/settings: the same trial as /parts/0/settings" "$HARNESS" "$WORK/parts.json" --dry-run
sed 's/"name": "b"/"name": "a"/; s/"max_bytes": 64}}]}/"max_bytes": 128}}]}/' "$WORK/parts.json" > "$WORK/names.json"
expect_error "/parts/1/name: \"a\" is also the name of /parts/0" "$HARNESS" "$WORK/names.json" --dry-run
# One axis per setting: the last one would silently win.
expect_error "\"batch_size\" is already swept earlier in this axis" \
  "$HARNESS" "${smoke[@]}" --set 'sweep={"batch_size,batch_size": [[1, 2]]}' --dry-run
expect_error "/sweep/batch_size : \"batch_size\" is already swept by /sweep/batch_size" \
  "$HARNESS" "${smoke[@]}" --set 'sweep={"batch_size": [8], "batch_size ": [16]}' --dry-run
expect_error "\"optimizer.lr\" is already swept by /sweep/optimizer" \
  "$HARNESS" "${smoke[@]}" --set 'sweep={"optimizer": [{"lr": 1}], "optimizer.lr": [2]}' --dry-run
# A dotted sweep key from the command line.
"$HARNESS" "${smoke[@]}" --set 'sweep.optimizer.lr=[0.001,0.01]' --dry-run | grep -q "^4 trial(s)" ||
  fail "--set sweep.optimizer.lr did not make an axis"
# Settings the trial's choices do not read.
expect_error "/settings/dataset/path: data set kind \"synthetic\" does not read it" \
  "$HARNESS" "${smoke[@]}" --set settings.dataset.path=/tmp/x.csv --dry-run
printf 'a,b,label\n1,2,0\n3,4,1\n5,6,0\n7,8,0\n1,2,0\n3,4,0\n5,6,0\n7,8,0\n1,2,0\n3,4,0\n' > "$WORK/ok.csv"
expect_error "/settings/dataset/rows: data set kind \"csv\" does not read it" \
  "$HARNESS" "${smoke[@]}" --set "settings.dataset={\"kind\": \"csv\", \"path\": \"$WORK/ok.csv\", \"rows\": 50}" --dry-run
expect_error "/settings/optimizer/momentum: only optimizer sgd reads it" \
  "$HARNESS" "${smoke[@]}" --set settings.optimizer.momentum=0.5 --dry-run
# Collective sizes: never empty, never silently rounded or repeated.
collective() { printf '{"name": "c", "kind": "collective", "settings": %s}\n' "$1" > "$WORK/c.json"; }
collective '{"min_bytes": 1000, "max_bytes": 10}'
expect_error "/settings/max_bytes: 10 is below min_bytes = 1000" "$HARNESS" "$WORK/c.json" --dry-run
collective '{"min_bytes": 3, "max_bytes": 3}'
expect_error "max_bytes = 3 is a whole number of fp32 elements (4 B each)" "$HARNESS" "$WORK/c.json" --dry-run
collective '{"sizes": [5, 8, 8], "dtype": "fp64"}'
expect_error "sizes[0] = 5 bytes is not a whole number of fp64 elements (8 B each)" "$HARNESS" "$WORK/c.json" --dry-run
grep -qF "sizes[2] = 8 bytes is listed twice" "$WORK/out" || fail "a repeated size was not refused"
collective '{"sizes": [8], "min_bytes": 4}'
expect_error "/settings/min_bytes: not read when sizes is given" "$HARNESS" "$WORK/c.json" --dry-run
# CSV numbers are decimal: 0x10 is not 16.
printf 'a,label\n0x10,0\n1,1\n' > "$WORK/hex.csv"
expect_error "hex.csv:2: column 1: \"0x10\" is not a decimal number" \
  "$HARNESS" "${smoke[@]}" --set "settings.dataset={\"kind\": \"csv\", \"path\": \"$WORK/hex.csv\"}" --dry-run
# The watchdog cannot time a wait shorter than its resolution; a warm-up cannot outlast timing.
expect_error "/timeout_s: 0 (off) or at least 1 s, got 0.5 s" "$HARNESS" "${smoke[@]}" --set timeout_s=0.5 --dry-run
expect_error "/settings/warmup_steps: expected at most max_timing_steps (200000" \
  "$HARNESS" "${smoke[@]}" --set settings.warmup_steps=1000000000 --set settings.max_steps=1 --dry-run
# The right field is blamed.
expect_error "/settings/dataset/test_fraction: holding out 1.000000 of 4000 rows leaves no training row" \
  "$HARNESS" "${smoke[@]}" --set settings.dataset.test_fraction=1 --dry-run
expect_error "/settings/dataset/test_fraction: 0.995000 cuts the synthetic series" \
  "$HARNESS" "${smoke[@]}" --set settings.model=lstm --set "settings.model_params={}" \
  --set 'settings.dataset={"kind": "synthetic_series", "test_fraction": 0.995}' --dry-run
expect_error "/settings/dataset/path: data set kind \"csv\" needs the path of its CSV file" \
  "$HARNESS" "${smoke[@]}" --set 'settings.dataset={"kind": "csv", "path": ""}' --dry-run

# Echoed content: never from a file that is no data set, always cut, control characters escaped.
printf 'root:*:20228:0:99999:7:::\n' > "$WORK/secret"
ln -s "$WORK/secret" "$WORK/shadow.csv"
expect_error "not a CSV data set" \
  "$HARNESS" "${smoke[@]}" --set "settings.dataset={\"kind\": \"csv\", \"path\": \"$WORK/shadow.csv\"}" --dry-run
! grep -q "root:" "$WORK/out" || fail "the content of a file that is no data set was echoed"
py "$WORK/wide.csv" <<'PY'
import sys
open(sys.argv[1], "w").write(",".join(f"column_{i}" for i in range(10000)) + "\n" + ",".join("1" * 10000) + "\n")
PY
expect_error "among the header's 10000 columns" \
  "$HARNESS" "${smoke[@]}" --set "settings.dataset={\"kind\": \"csv\", \"path\": \"$WORK/wide.csv\"}" --dry-run
[ "$(wc -c < "$WORK/out")" -lt 1000 ] || fail "a 10000-column header made a $(wc -c < "$WORK/out")-byte message"
long=$(printf 'a%.0s' $(seq 5000))
for probe in "settings.$long=1" "settings.backend=$long" \
  "settings.dataset={\"kind\": \"csv\", \"path\": \"/x/$long\"}"; do
  status=0
  "$HARNESS" "${smoke[@]}" --set "$probe" --dry-run > "$WORK/out" 2>&1 || status=$?
  [ "$status" -eq 2 ] && [ "$(wc -c < "$WORK/out")" -lt 1000 ] ||
    fail "a 5000-character value: exit $status, a $(wc -c < "$WORK/out")-byte message"
done
expect_error "/name: at most 100 characters" "$HARNESS" "${smoke[@]}" --set "name=$(printf 'a%.0s' $(seq 5000))" --dry-run
expect_error "/settings/epoch\\x1b[31m: unknown key" "$HARNESS" "${smoke[@]}" --set $'settings.epoch\x1b[31m=3' --dry-run
! grep -q $'\x1b' "$WORK/out" || fail "an escape character reached the terminal"
expect_error "/settings/a\\x00b: unknown key \"a\\x00b\"" "$HARNESS" "${smoke[@]}" --set 'settings={"a\u0000b": 1}' --dry-run
# LibTorch's own message, first line only, with what it means.
expect_error "/settings/model_params: out of memory: LibTorch could not allocate" \
  "$HARNESS" "${smoke[@]}" --set 'settings.model_params.hidden=[1048576,1048576]' --dry-run
[ "$(wc -l < "$WORK/out")" -eq 1 ] || { cat "$WORK/out"; fail "LibTorch's stack trace reached the message"; }

# The command line: one value per option, --extend only with --resume.
"$HARNESS" --plugin-dir "$WORK" tests/fixtures/smoke_train.json --dry-run > /dev/null ||
  fail "--plugin-dir DIR EXPERIMENT took the experiment as a plugin folder"
"$HARNESS" --set seed=2 tests/fixtures/smoke_train.json --dry-run > /dev/null || fail "--set took the experiment as a value"
expect_error "--extend requires --resume" "$HARNESS" tests/fixtures/smoke_train.json --extend
# Plugin paths: what is skipped is said without -v.
HARNESS_PLUGIN_PATH=/no/such/dir "$HARNESS" "${smoke[@]}" --dry-run 2> "$WORK/err" > /dev/null
grep -q "HARNESS_PLUGIN_PATH entry /no/such/dir skipped: no such directory" "$WORK/err" ||
  fail "a HARNESS_PLUGIN_PATH that does not exist was ignored silently"
mkdir "$WORK/plugins"
head -c 4096 "$(dirname "$HARNESS")/plugins/libharness_comm_mpi.so" > "$WORK/plugins/libharness_comm_mpi.so"
"$HARNESS" --plugin-dir "$WORK/plugins" "${smoke[@]}" --dry-run 2> "$WORK/err" > /dev/null
grep -q "libharness_comm_mpi.so: ignored" "$WORK/err" || { cat "$WORK/err"; fail "a truncated plugin was skipped silently"; }

# An address-space limit: LibTorch's thread pool cannot start, or OpenBLAS retries a failed
# allocation for ever. A failed trial with the reason, or the job ended by the deadline
# naming the limit, in seconds, never a hang. (Under 0.9 GB OpenBLAS cannot even load.)
status=0
(ulimit -v 900000; timeout 120 "$HARNESS" "${smoke[@]}" --set 'sweep.batch_size=[32]' --set timeout_s=5 \
  --results-dir "$WORK/ulimit" -q) >"$WORK/ulimit.out" 2>&1 || status=$?
if [ "$status" -eq 3 ]; then
  grep -q "has not returned after 5 s (timeout_s).*(ulimit -v)" "$WORK/ulimit.out" ||
    { cat "$WORK/ulimit.out"; fail "the deadline ended the job under ulimit -v without naming the limit"; }
  echo "ok: under ulimit -v the deadline ended the job, naming the limit"
else
  [ "$status" -eq 0 ] || { cat "$WORK/ulimit.out"; fail "under ulimit -v the job ended with status $status (124: it hung)"; }
  py "$(only_run_dir "$WORK/ulimit")" <<'PY'
import json, os, sys
[record] = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
# Where the limit leaves room for the pool the trial may even run; it must never hang, and a
# failure must say which limit it met, in one line.
if record["status"] != "ok":
    assert record["status"] == "failed", record
    assert "ulimit -v" in record["reason"] and "\n" not in record["reason"], record["reason"]
print("ok:", record["status"], record["reason"])
PY
fi
echo PASS
