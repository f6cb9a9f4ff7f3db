# Real records against the record's one declaration, in both languages: a training trial
# (tabular with a target loss and a timeline, and a sequence model), a collective trial and a
# replay of a captured job (tests/fixtures/job.json) follow
# the JSON Schema (harness --record-schema) by the harness's checker (--check-records) and the
# scripts' (record_schema.py), which report a broken record in the same words; they carry only
# fields the reference lists (harness --record-fields) and every field listed as always there.
# The run's meta.json follows its schema (harness --meta-schema) in both checkers, and lists
# only fields the reference lists. Older layouts upgrade to the same records in the harness
# (--upgrade-records) and the scripts.
# A record from a newer harness is refused by --resume, naming the file and line.
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
   "settings": {"world_size": 2, "min_bytes": 4, "max_bytes": 64, "step_factor": 4, "iters": 2, "warmup_iters": 1}},
  {"name": "replay", "kind": "replay",
   "settings": {"job": "tests/fixtures/job.json", "world_size": 2, "backend": "shm", "bucket_cap_mb": 0.5,
                "min_steps": 3, "min_time_s": 0.1}}]}
JSON
$MPIRUN -np 2 "$HARNESS" "$WORK/keys.json" --results-dir "$WORK/r" -q
"$HARNESS" --record-fields >"$WORK/reference.md"
RUN_DIR="$(only_run_dir "$WORK/r")"
py "$RUN_DIR" "$WORK/reference.md" <<'PY'
import json, os, sys
d, reference = sys.argv[1], sys.argv[2]

# The reference's rows: | `path` | type | unit | present | meaning |, under one heading per kind.
listed = {"every": {}, "train": {}, "collective": {}, "replay": {}, "train and replay": {},
          "search": {}, "meta": {}}
section = None
for line in open(reference):
    if line.startswith("## "):
        section = ("every" if "Every record" in line else
                   "train and replay" if "Train and replay records" in line else
                   "train" if "Train records" in line else
                   "collective" if "Collective records" in line else
                   "replay" if "Replay records" in line else
                   "meta" if "meta.json" in line else "search")
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
            if k not in ("settings", "axes", "model_files", "experiment"):  # free objects
                out |= paths(v, p)
    elif isinstance(value, list) and value and isinstance(value[0], dict):
        out |= paths(value[0], prefix + "[]")
    return out

records = [json.loads(l) for l in open(os.path.join(d, "trials.jsonl"))]
assert len(records) == 4 and all(r["status"] == "ok" for r in records), \
    [(r["part"], r["reason"]) for r in records]
for r in records:
    assert r["record_version"] == 3, r.get("record_version")
    fields = dict(listed["every"], **listed[r["kind"]],
                  **(listed["train and replay"] if r["kind"] in ("train", "replay") else {}))
    got = paths(r)
    unlisted = sorted(got - set(fields))
    missing = sorted(p for p, present in fields.items() if present == "always" and p not in got)
    assert not unlisted, (r["part"], "fields the reference does not list", unlisted)
    assert not missing, (r["part"], "fields listed as always there but missing", missing)
    print(f"{r['part']}: {len(got)} fields, all listed")
# The oversubscribed verdict: world 2 under --bind-to none shares this host's CPUs.
crowded = len(os.sched_getaffinity(0)) < 2
assert all(r["oversubscribed"] is crowded for r in records), [r["oversubscribed"] for r in records]
for part, path in (("tabular", "trace_file"), ("tabular", "target.reached"),
                   ("sequence", "detection_points.auroc"), ("replay", "step_times_ms")):
    assert path in paths(next(r for r in records if r["part"] == part)), (part, path)

# The replay re-made the fixture's buckets as DDP made them: the 1 MB gradient, ready first,
# fills the first bucket (1 MB cap) alone; the two small ones share the second.
replay = next(r for r in records if r["part"] == "replay")
assert replay["buckets"]["bytes"] == [1048576, 5120], replay["buckets"]
assert len(replay["step_times_ms"]) == replay["timing"]["steps"] >= 3, replay["timing"]

# meta.json of a finished run: every key listed, every always-there field present.
meta = json.load(open(os.path.join(d, "meta.json")))
got = paths(meta)
unlisted = sorted(got - set(listed["meta"]))
missing = sorted(p for p, present in listed["meta"].items() if present == "always" and p not in got)
assert not unlisted and not missing, ("meta.json", unlisted, missing)
for path in ("finished_at", "machine.end.at", "machine.cpu_shares.busy", "watchdog.timeout_s"):
    assert path in got, ("meta.json of a finished run lacks", path)
print(f"meta.json: {len(got)} fields, all listed")
PY

# The schema: the harness's checker and the scripts' pass the real records, and name the same
# problems in a broken one; the scripts' copy of the schema is the harness's.
"$HARNESS" --record-schema >"$WORK/schema.json"
cmp -s "$WORK/schema.json" scripts/harness_analysis/record_schema.json ||
  fail "scripts/harness_analysis/record_schema.json differs from harness --record-schema (regenerate it)"
"$HARNESS" --check-records "$RUN_DIR" >"$WORK/check.txt" ||
  fail "the harness's checker refused real records or meta.json: $(cat "$WORK/check.txt")"
grep -q "meta.json: follows the meta.json schema" "$WORK/check.txt" || fail "--check-records skipped meta.json"
"$HARNESS" --meta-schema >"$WORK/meta-schema.json"
cmp -s "$WORK/meta-schema.json" scripts/harness_analysis/meta_schema.json ||
  fail "scripts/harness_analysis/meta_schema.json differs from harness --meta-schema (regenerate it)"
PYTHONPATH=scripts py "$RUN_DIR/trials.jsonl" "$WORK/broken.jsonl" <<'PY'
import json, sys
from harness_analysis.record_schema import problems
from harness_analysis.record_schema import META_SCHEMA
import os
records = [json.loads(l) for l in open(sys.argv[1])]
for r in records:
    assert problems(r) == [], (r["part"], problems(r))
meta = json.load(open(os.path.join(os.path.dirname(sys.argv[1]), "meta.json")))
assert problems(meta, META_SCHEMA) == [], problems(meta, META_SCHEMA)
assert '/seeds/base: "one" is not of type integer' in problems(dict(meta, seeds={"base": "one", "repetitions": 1}), META_SCHEMA)
broken = dict(records[0])
broken["throughput"] = dict(broken["throughput"], samples_per_second=1)
broken["steps"] = "many"
del broken["model"]
open(sys.argv[2], "w").write(json.dumps(broken) + "\n")
print("\n".join(sys.argv[2] + ":1: " + p for p in problems(broken)))
PY
status=0
"$HARNESS" --check-records "$WORK/broken.jsonl" >"$WORK/check.txt" || status=$?
[ "$status" -eq 2 ] || fail "--check-records of a broken record exited $status (expected 2)"
PYTHONPATH=scripts py "$WORK/broken.jsonl" >"$WORK/check.py.txt" <<'PY'
import json, sys
from harness_analysis.record_schema import problems
print("\n".join(sys.argv[1] + ":1: " + p for p in problems(json.loads(open(sys.argv[1]).read()))))
PY
sort "$WORK/check.txt" >"$WORK/check.sorted"; sort "$WORK/check.py.txt" >"$WORK/check.py.sorted"
grep -q '/steps: "many" is not of type integer' "$WORK/check.sorted" ||
  fail "the harness's checker missed a mistyped field: $(cat "$WORK/check.txt")"
diff "$WORK/check.sorted" "$WORK/check.py.sorted" >&2 ||
  fail "the harness and the scripts name a broken record's problems differently"

# Older layouts: the harness and the scripts upgrade the same files to the same records.
for file in tests/fixtures/mixed_results/trials.jsonl "$RUN_DIR/trials.jsonl"; do
  "$HARNESS" --upgrade-records "$file" >"$WORK/upgraded.cpp.jsonl" || fail "--upgrade-records $file failed"
  PYTHONPATH=scripts py "$file" "$WORK/upgraded.cpp.jsonl" <<'PY'
import json, sys
from harness_analysis.record_upgrade import upgraded
def parsed(line):
    try:
        return json.loads(line)
    except json.JSONDecodeError:  # the fixture's cut-off last line, which both skip
        return None
mine = [upgraded(r) for r in map(parsed, open(sys.argv[1])) if r is not None]
theirs = [json.loads(l) for l in open(sys.argv[2])]
assert len(mine) == len(theirs), (len(mine), len(theirs))
for a, b in zip(mine, theirs):
    assert a == b, ("the scripts and the harness upgrade a record differently",
                    [k for k in set(a) | set(b) if a.get(k) != b.get(k)])
print(f"{sys.argv[1]}: {len(mine)} records upgrade alike")
PY
done

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
grep -q "trials.jsonl:2: record_version 99 is newer than this harness reads (up to 3)" "$WORK/out" ||
  fail "the refusal does not name the file, line and versions: $(cat "$WORK/out")"

# The newest record layout is one number for the harness and the scripts.
harness_version=$("$HARNESS" --record-fields | sed -n 's/^## Every record (record_version \([0-9]*\))$/\1/p')
scripts_version=$(PYTHONPATH=scripts python3 -c "from harness_analysis.results import RECORD_VERSION; print(RECORD_VERSION)")
[ -n "$harness_version" ] && [ "$harness_version" = "$scripts_version" ] ||
  fail "record_version: the harness writes $harness_version, the scripts read up to $scripts_version"

# record_version -1: one rule and one message for the harness and the scripts.
sed -i '2s/"record_version": *99/"record_version": -1/' "$RUN_DIR/trials.jsonl"
expect_error "trials.jsonl:2: record_version is -1, expected an integer from 0 to 3" \
  $MPIRUN -np 2 "$HARNESS" --resume "$RUN_DIR" -q
expect_error "trials.jsonl:2: record_version is -1, expected an integer from 0 to 3" scripts/plot "$RUN_DIR"
echo PASS
