# A search instead of the grid: each rung's decision on the console and in search.json, the
# winner by axis name, fewer trials than the grid; --resume after a cut decides the rungs its
# records decide the same way; time to target with a configuration that never gets there;
# the Answer names the winner; a bad search block is refused before anything runs.
source "$(dirname "$0")/lib.bash"

cat > "$WORK/speed.json" <<'JSON'
{"name": "speed", "seed": 2,
 "settings": {"dataset": {"rows": 4000}, "epochs": 1, "min_time_s": 0.05, "quiet_wait_s": 0,
              "world_size": 2},
 "sweep": {"batch_size": [8, 32, 128, 512], "backend, backend_params": [["mpi", {}], ["ring", {}]]},
 "search": {"objective": "samples_per_s", "max_repetitions": 4, "eta": 2}}
JSON
$MPIRUN -np 2 "$HARNESS" "$WORK/speed.json" --results-dir "$WORK/a" > "$WORK/console" 2>&1 ||
  { cat "$WORK/console"; fail "the search failed"; }
cat "$WORK/console"
grep -q "search (successive_halving by samples_per_s) over 8 configuration(s)" "$WORK/console" ||
  fail "no search header"
grep -q "search: rung 1 of 3 (up to 1 repetitions, 10% of the timing window): .* of 8 go on; best " "$WORK/console" ||
  fail "no line for the first rung"
grep -q "^search: winner " "$WORK/console" || fail "no winner line"
dir=$(only_run_dir "$WORK/a")
py "$dir" <<'PY'
import json, os, sys
d = sys.argv[1]
search = json.load(open(os.path.join(d, "search.json")))
records = [json.loads(l) for l in open(os.path.join(d, "trials.jsonl"))]
assert search["finished"] and search["method"] == "successive_halving", search
assert set(search["winner"]) == {"batch_size", "backend", "backend_params"}, search["winner"]
first = search["rungs"][0]
assert len(first["configurations"]) == 8 and first["repetitions"] == 1, first
# The first rung screens on a tenth of the window; the kept ones are timed on all of it.
assert first["time_share"] == 0.1 and all("time_share" not in r for r in search["rungs"][1:]), search["rungs"]
windows = sorted({r["settings"]["min_time_s"] for r in records})
assert windows == [0.005, 0.05], windows
assert all(c["reason"] for c in first["configurations"])
for c in first["configurations"]:  # a dropped one was clearly worse: its interval below the best's
    if not c["kept"] and "clearly worse" in c["reason"]:
        assert c["figure"]["high"] < first["configurations"][0]["figure"]["low"], c
assert search["trials"] == len(records) < search["grid"]["trials"] == 32, (search["trials"], len(records))
keys = [r["key"] for r in records]
assert len(keys) == len(set(keys)), "a trial ran twice"
meta = json.load(open(os.path.join(d, "meta.json")))
assert meta["search"]["winner"] == search["winner"], meta["search"]
print("search ok: %d trials of the grid's 32, winner %s" % (len(records), search["winner"]))
PY

# Resumed after its first rung and one more trial: the first rung is decided again from the same
# records, and the search ends.
cp "$dir/search.json" "$WORK/whole.json"
head -n 9 "$dir/trials.jsonl" > "$WORK/cut" && cp "$WORK/cut" "$dir/trials.jsonl"
$MPIRUN -np 2 "$HARNESS" --resume "$dir" > "$WORK/console" 2>&1 || { cat "$WORK/console"; fail "resume failed"; }
py "$dir" "$WORK/whole.json" <<'PY'
import json, os, sys
d, whole = sys.argv[1], json.load(open(sys.argv[2]))
again = json.load(open(os.path.join(d, "search.json")))
assert again["finished"], again
assert again["rungs"][0] == whole["rungs"][0], "the first rung was decided differently on resume"
records = [json.loads(l) for l in open(os.path.join(d, "trials.jsonl"))]
assert len({r["key"] for r in records}) == len(records) == again["trials"]
print("resume ok: the first rung decided the same")
PY

# Time to target: batch 8 gets there in few epochs; lr 1e-6 never does and ranks last.
cat > "$WORK/ttt.json" <<'JSON'
{"name": "ttt", "seed": 3,
 "settings": {"dataset": {"rows": 2000}, "epochs": 4, "min_time_s": 0.02, "quiet_wait_s": 0,
              "target_loss": 0.6, "batch_size": 16},
 "sweep": {"optimizer.lr": [0.003, 0.000001]},
 "search": {"objective": "time_to_target", "min_epochs": 1, "eta": 2}}
JSON
$MPIRUN -np 1 "$HARNESS" "$WORK/ttt.json" --results-dir "$WORK/t" > "$WORK/console" 2>&1 ||
  { cat "$WORK/console"; fail "the time-to-target search failed"; }
cat "$WORK/console"
py "$(only_run_dir "$WORK/t")" <<'PY'
import json, os, sys
search = json.load(open(os.path.join(sys.argv[1], "search.json")))
assert search["winner"] == {"optimizer.lr": 0.003}, search["winner"]
assert search["resource"] == "epochs"
last = search["rungs"][-1]["configurations"][-1]
assert last["axes"] == {"optimizer.lr": 1e-06} and not last["kept"], last
assert last["figure"].get("reached") is False, last
print("time to target ok:", last["reason"])
PY

# Both searches' search.json follow its schema (harness --search-schema), versioned.
"$HARNESS" --search-schema >"$WORK/search-schema.json"
cmp -s "$WORK/search-schema.json" scripts/harness_analysis/search_schema.json ||
  fail "scripts/harness_analysis/search_schema.json differs from harness --search-schema (regenerate it)"
PYTHONPATH=scripts py "$WORK/search-schema.json" "$dir" "$(only_run_dir "$WORK/t")" <<'PY'
import json, os, sys
from harness_analysis.record_schema import load_schema, problems
schema = load_schema(sys.argv[1])
for folder in sys.argv[2:]:
    search = json.load(open(os.path.join(folder, "search.json")))
    assert search["search_version"] == 1, search.get("search_version")
    assert problems(search, schema) == [], problems(search, schema)
    broken = dict(search, winner_figure={"values": "three"})
    assert '/winner_figure/values: "three" is not of type integer' in problems(broken, schema), problems(broken, schema)
print("search.json follows its schema")
PY
for folder in "$dir" "$(only_run_dir "$WORK/t")"; do
  "$HARNESS" --check-records "$folder" >"$WORK/check" ||
    fail "$folder does not follow its schemas: $(cat "$WORK/check")"
  grep -q "search.json: follows the search.json schema" "$WORK/check" || fail "--check-records skipped search.json"
done
# A search.json its trials do not bear out (changed after the run) is refused, as the scripts
# refuse to show it.
cp -r "$dir" "$WORK/changed"
py "$WORK/changed/search.json" <<'PY'
import json, sys
search = json.load(open(sys.argv[1]))
search["winner_figure"]["value"] *= 1000
json.dump(search, open(sys.argv[1], "w"))
PY
expect_error "search.json: its winner" "$HARNESS" --check-records "$WORK/changed"
grep -q "search.json was changed after the run" "$WORK/out" || { cat "$WORK/out"; fail "no reason given"; }

# The Answer names the winner.
if /usr/bin/python3 -c "import pandas, matplotlib" 2>/dev/null; then
  scripts/plot "$dir" --out "$WORK/plots" > "$WORK/answer" 2>&1 || { cat "$WORK/answer"; fail "plot failed"; }
  grep -q "search (successive halving by samples/s)" "$WORK/answer" || { cat "$WORK/answer"; fail "no search in the Answer"; }
  grep -q "^## Search" "$WORK/plots/report.md" || fail "no Search section in report.md"
fi

expect_error "/search/budget_s" "$HARNESS" "$WORK/speed.json" --dry-run --set search.budget_s=0
expect_error '"busbw" is measured by trials of kind "collective"' "$HARNESS" "$WORK/speed.json" \
  --dry-run --set search.objective=busbw
expect_error "/search/method" "$HARNESS" "$WORK/speed.json" --dry-run --set search.method=random
echo PASS
