# The records of the shipped experiments' kinds keep their fields: a training trial (tabular
# and sequence model) and a collective trial must have exactly the field paths listed in
# tests/fixtures/record_keys/keys.json (recorded before the restructure). With
# RECORD_KEYS_WRITE=FILE the script writes the fixture instead of comparing.
source "$(dirname "$0")/lib.bash"

cat > "$WORK/keys.json" <<'JSON'
{"name": "keys", "seed": 1, "parts": [
  {"name": "tabular", "kind": "train",
   "settings": {"dataset": {"rows": 600}, "epochs": 1, "target_loss": 0.5, "world_size": 2}},
  {"name": "sequence", "kind": "train",
   "settings": {"model": "lstm", "epochs": 1, "world_size": 2,
                "dataset": {"kind": "synthetic_series", "length": 400, "dim": 2, "events": 3, "window": 8, "stride": 4}}},
  {"name": "collective", "kind": "collective",
   "settings": {"world_size": 2, "min_bytes": 4, "max_bytes": 64, "step_factor": 4, "iters": 2, "warmup_iters": 1}}]}
JSON
$MPIRUN -np 2 "$HARNESS" "$WORK/keys.json" --results-dir "$WORK/r" -q
py "$(only_run_dir "$WORK/r")" "${RECORD_KEYS_WRITE:-}" tests/fixtures/record_keys/keys.json <<'PY'
import json, os, sys
d, write_to, fixture = sys.argv[1], sys.argv[2], sys.argv[3]

def paths(value, prefix=""):
    # Object keys, recursively; arrays of objects by their first element ("points[]").
    out = set()
    if isinstance(value, dict):
        for k, v in value.items():
            p = prefix + "." + k if prefix else k
            if k in ("settings", "axes"):  # copies of the experiment, not record fields
                out.add(p)
                continue
            out.add(p)
            out |= paths(v, p)
    elif isinstance(value, list) and value and isinstance(value[0], dict):
        out |= paths(value[0], prefix + "[]")
    return out

records = [json.loads(l) for l in open(os.path.join(d, "trials.jsonl"))]
assert all(r["status"] == "ok" for r in records), [(r["part"], r["reason"]) for r in records]
got = {r["part"]: sorted(paths(r)) for r in records}
if write_to:
    json.dump(got, open(write_to, "w"), indent=1)
    print("wrote", write_to)
    sys.exit(0)
want = json.load(open(fixture))
for part in want:
    missing = sorted(set(want[part]) - set(got[part]))
    extra = sorted(set(got[part]) - set(want[part]))
    assert not missing and not extra, (part, "missing", missing, "extra", extra)
print("record fields unchanged:", {p: len(k) for p, k in got.items()})
PY
echo PASS
