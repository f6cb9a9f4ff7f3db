# What a search, its record and the analysis scripts claim under hostile input: no verdict
# against what was not measured, sampled values that stay what was asked, a search.json that
# must agree with its trials, and scripts that answer a bad argument with one line and exit 2.
source "$(dirname "$0")/lib.bash"

cat > "$WORK/speed.json" <<'JSON'
{"name": "speed", "seed": 2,
 "settings": {"dataset": {"rows": 2000}, "epochs": 1, "min_time_s": 0.05, "quiet_wait_s": 0,
              "world_size": 2},
 "sweep": {"batch_size": [32, 512], "backend": ["mpi", "ring"]},
 "search": {"objective": "samples_per_s", "max_repetitions": 2, "eta": 2}}
JSON

# A budget spent after the first trial: the configurations that never ran are neither beaten
# nor tied, on the console, in search.json and in the Answer.
$MPIRUN -np 2 "$HARNESS" "$WORK/speed.json" --results-dir "$WORK/cut" --set search.budget_s=0.001 \
  > "$WORK/console" 2>&1 || { cat "$WORK/console"; fail "the cut search failed"; }
grep -q "clearly ahead" "$WORK/console" && { cat "$WORK/console"; fail "a claim against unmeasured configurations"; }
grep -q "has no figure (not run: the budget was spent)" "$WORK/console" || { cat "$WORK/console"; fail "no word on the unmeasured runner-up"; }
cut_dir=$(only_run_dir "$WORK/cut")
py "$cut_dir" <<'PY'
import json, os, sys
search = json.load(open(os.path.join(sys.argv[1], "search.json")))
assert search["trials"] == 1 and search["distinguishable"] is False, (search["trials"], search["distinguishable"])
print("a budget cut claims nothing against configurations it did not run")
PY
scripts/plot "$cut_dir" > "$WORK/plot" 2>&1 || { cat "$WORK/plot"; fail "scripts/plot on a cut search"; }
grep -q "ahead of the unmeasured" "$cut_dir/plots/report.md" || fail "the Answer claims a verdict on a cut search"

# Sampled values keep the digits that hold them inside their range and distinct.
"$HARNESS" "$WORK/speed.json" --dry-run --set 'search.sample={"optimizer.lr": {"range": [1.0001, 1.0002], "count": 5}}' \
  > "$WORK/dry" || fail "a narrow sampled range was refused"
py "$WORK/dry" <<'PY'
import re, sys
values = sorted({float(v) for v in re.findall(r"optimizer\.lr=([0-9.e+-]+)", open(sys.argv[1]).read())})
assert len(values) == 5 and all(1.0001 <= v <= 1.0002 for v in values), values
print("sampled values inside [1.0001, 1.0002] and distinct:", values)
PY
expect_error "/search/sample/epochs/count: 5 distinct values asked of an integer setting, but the range [1,3] holds 3 integer(s)" \
  "$HARNESS" "$WORK/speed.json" --dry-run --set 'search.sample={"epochs": {"range": [1, 3], "count": 5}}'

# A busbw search at a size no trial measures is refused before anything runs.
cat > "$WORK/bus.json" <<'JSON'
{"name": "bus", "kind": "collective",
 "settings": {"max_bytes": 65536, "min_time_s": 0.01, "quiet_wait_s": 0, "world_size": 2},
 "sweep": {"backend": ["mpi", "ring"]},
 "search": {"objective": "busbw", "message_bytes": 3000, "max_repetitions": 2}}
JSON
expect_error "/search/message_bytes: 3000 is not a size the trials of the experiment measure (4, 8, 16, ..., 16384, 32768, 65536 bytes)" \
  "$HARNESS" "$WORK/bus.json" --dry-run

# A hand-edited search.json is checked against trials.jsonl: never shown as it stands.
$MPIRUN -np 2 "$HARNESS" "$WORK/speed.json" --results-dir "$WORK/whole" -q
whole=$(only_run_dir "$WORK/whole")
edit_search() {  # edit_search PYTHON_STATEMENT: a copy of the folder whose search.json it changes
  rm -rf "$WORK/edited"; cp -r "$whole" "$WORK/edited"
  python3 - "$WORK/edited/search.json" "$1" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(s, open(sys.argv[1], "w"))
PY
  scripts/plot "$WORK/edited" > "$WORK/plot" 2>&1 || { cat "$WORK/plot"; fail "scripts/plot on an edited search.json: exit $?"; }
}
edit_search 's["winner_figure"]["value"] = 1e12'
grep -q "search: not shown, as its record does not hold: .*search.json: its winner .* has the figure 1000000000000.0, but its" \
  "$WORK/edited/plots/report.md" || { cat "$WORK/edited/plots/report.md"; fail "an inflated winner figure was shown"; }
# The winner swapped for the configuration the first rung ranked last (clearly slower).
edit_search 's["winner"] = s["rungs"][0]["configurations"][-1]["axes"]'
grep -q "search: not shown" "$WORK/edited/plots/report.md" || { cat "$WORK/edited/plots/report.md"; fail "a swapped winner was shown"; }
edit_search 'del s["seconds_spent"]'
grep -qF 'search.json: /: "seconds_spent" is missing' "$WORK/edited/plots/report.md" || fail "a search.json without seconds_spent"
echo "ok: search.json is checked against the trials"

# Scripts: one line naming the value, exit 2, no traceback.
one_line_error() {  # one_line_error EXPECTED COMMAND...
  local expected=$1 status=0; shift
  "$@" > "$WORK/out" 2>&1 || status=$?
  [ "$status" -eq 2 ] || { cat "$WORK/out"; fail "exit $status, expected 2: $*"; }
  grep -q "Traceback" "$WORK/out" && { cat "$WORK/out"; fail "a traceback from: $*"; }
  grep -qF -- "$expected" "$WORK/out" || { cat "$WORK/out"; fail "missing '$expected' from: $*"; }
  echo "ok: $expected"
}
rm -rf "$WORK/lacking"; cp -r "$whole" "$WORK/lacking"
python3 - "$WORK/lacking/trials.jsonl" <<'PY'
import json, sys
records = [json.loads(l) for l in open(sys.argv[1])]
del records[1]["world_size"]
open(sys.argv[1], "w").write("".join(json.dumps(r) + "\n" for r in records))
PY
one_line_error "trials.jsonl:2: world_size is missing, expected an integer" scripts/plot "$WORK/lacking"
cat > "$WORK/coll.json" <<'JSON'
{"name": "coll", "kind": "collective",
 "settings": {"max_bytes": 65536, "min_time_s": 0.01, "quiet_wait_s": 0, "world_size": 2},
 "sweep": {"backend": ["mpi", "ring"]}}
JSON
$MPIRUN -np 2 "$HARNESS" "$WORK/coll.json" --results-dir "$WORK/coll" -q
coll=$(only_run_dir "$WORK/coll")
one_line_error "scripts/model: --link 5: expected ALPHA_US,GBPS" scripts/model "$coll" --link 5
one_line_error "scripts/model: --holdout world=4: no allreduce points with world 4 in these folders (they hold world 2)" \
  scripts/model "$coll" --holdout world=4
one_line_error "scripts/model: --holdout world=2: world 2 is the only one in these folders" \
  scripts/model "$coll" --holdout world=2
one_line_error "scripts/model: --holdout world=abc: expected a world size (an integer)" \
  scripts/model "$coll" --holdout world=abc
if /usr/bin/python3 -c "import torch" 2>/dev/null; then
  one_line_error "argument --input-dim: expected a positive integer, got '-3'" \
    /usr/bin/python3 scripts/export_model.py autoencoder "$WORK/x.pt" --input-dim -3
fi
one_line_error 'scripts/analysis: no module "nosuchmodule" in scripts/harness_analysis (modules: ' \
  scripts/analysis nosuchmodule
one_line_error "search_quality: unknown option --bogus (options: --seeds" scripts/search_quality --bogus
echo PASS
