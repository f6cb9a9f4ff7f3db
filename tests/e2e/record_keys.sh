# Real records against the results reference (harness --record-fields, docs/results-reference.md):
# a training trial (tabular with a target loss and a timeline, and a sequence model) and a
# collective trial may carry only listed fields of their kind, must carry every field listed
# as always there, and carry record_version. A record from a newer harness is refused by
# --resume, naming the file and line.
source "$(dirname "$0")/lib.bash"

cat > "$WORK/keys.json" <<'JSON'
{"name": "keys", "seed": 1, "parts": [
  {"name": "tabular", "kind": "train",
   "settings": {"dataset": {"rows": 600}, "epochs": 1, "target_loss": 0.5, "world_size": 2,
                "timeline": true, "min_time_s": 0.2}},
  {"name": "sequence", "kind": "train",
   "settings": {"model": "lstm", "epochs": 1, "world_size": 2, "min_time_s": 0.2,
                "dataset": {"kind": "synthetic_series", "length": 400, "dim": 2, "events": 3, "window": 8, "stride": 4}}},
  {"name": "collective", "kind": "collective",
   "settings": {"world_size": 2, "min_bytes": 4, "max_bytes": 64, "step_factor": 4, "iters": 2, "warmup_iters": 1}}]}
JSON
$MPIRUN -np 2 "$HARNESS" "$WORK/keys.json" --results-dir "$WORK/r" -q
"$HARNESS" --record-fields >"$WORK/reference.md"
RUN_DIR="$(only_run_dir "$WORK/r")"
py "$RUN_DIR" "$WORK/reference.md" <<'PY'
import json, os, sys
d, reference = sys.argv[1], sys.argv[2]

# The reference's rows: | `path` | type | unit | present | meaning |, under one heading per kind.
listed = {"every": {}, "train": {}, "collective": {}}
section = None
for line in open(reference):
    if line.startswith("## "):
        section = ("every" if "Every record" in line else
                   "train" if "Train records" in line else "collective")
    elif line.startswith("| `"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        listed[section][cells[0].strip("`")] = cells[3]
assert all(listed.values()), listed

def paths(value, prefix=""):
    # Object keys, recursively; arrays of objects by their first element ("points[]").
    out = set()
    if isinstance(value, dict):
        for k, v in value.items():
            p = prefix + "." + k if prefix else k
            out.add(p)
            if k not in ("settings", "axes", "model_files"):  # the experiment's, not fields
                out |= paths(v, p)
    elif isinstance(value, list) and value and isinstance(value[0], dict):
        out |= paths(value[0], prefix + "[]")
    return out

records = [json.loads(l) for l in open(os.path.join(d, "trials.jsonl"))]
assert len(records) == 3 and all(r["status"] == "ok" for r in records), \
    [(r["part"], r["reason"]) for r in records]
for r in records:
    assert r["record_version"] == 2, r.get("record_version")
    fields = dict(listed["every"], **listed[r["kind"]])
    got = paths(r)
    unlisted = sorted(got - set(fields))
    missing = sorted(p for p, present in fields.items() if present == "always" and p not in got)
    assert not unlisted, (r["part"], "fields the reference does not list", unlisted)
    assert not missing, (r["part"], "fields listed as always there but missing", missing)
    print(f"{r['part']}: {len(got)} fields, all listed")
for part, path in (("tabular", "trace_file"), ("tabular", "target.reached"),
                   ("sequence", "detection_points.auroc")):
    assert path in paths(next(r for r in records if r["part"] == part)), (part, path)
PY

# A record from a newer harness: --resume refuses the folder, naming the file and line.
py "$RUN_DIR/trials.jsonl" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
record = json.loads(lines[1])
record["record_version"] = 99
lines[1] = json.dumps(record)
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
status=0
$MPIRUN -np 2 "$HARNESS" --resume "$RUN_DIR" -q >"$WORK/out" 2>&1 || status=$?
[ "$status" -eq 2 ] || fail "resume of a folder with a newer record exited $status (expected 2)"
grep -q "trials.jsonl:2: record_version 99 is newer than this harness reads (up to 2)" "$WORK/out" ||
  fail "the refusal does not name the file, line and versions: $(cat "$WORK/out")"

# The newest record layout is one number for the harness and the scripts.
harness_version=$("$HARNESS" --record-fields | sed -n 's/^## Every record (record_version \([0-9]*\))$/\1/p')
scripts_version=$(PYTHONPATH=scripts python3 -c "from harness_analysis.results import RECORD_VERSION; print(RECORD_VERSION)")
[ -n "$harness_version" ] && [ "$harness_version" = "$scripts_version" ] ||
  fail "record_version: the harness writes $harness_version, the scripts read up to $scripts_version"

# record_version -1: one rule and one message for the harness and the scripts.
sed -i '2s/"record_version": *99/"record_version": -1/' "$RUN_DIR/trials.jsonl"
expect_error "trials.jsonl:2: record_version is -1, expected an integer from 0 to 2" \
  $MPIRUN -np 2 "$HARNESS" --resume "$RUN_DIR" -q
expect_error "trials.jsonl:2: record_version is -1, expected an integer from 0 to 2" scripts/plot "$RUN_DIR"
echo PASS
