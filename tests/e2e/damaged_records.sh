# Damaged records meet every reader of a results folder alike: --check-records,
# --upgrade-records, --resume and scripts/plot each end with file:line and exit status 2,
# never an abort or a segfault (a JSON scalar or [] as a line, very deep nesting, a byte-order
# mark, a meta.json or trials.jsonl that is a folder, a damaged meta.json, a search.json its
# trials contradict). scripts/plot refuses the same lines (tests/analysis). The project's old-layout fixture is readable, and said to be old.
# The line-by-line rules are one fixture for both languages (tests/fixtures/damaged_lines.json,
# read by tests/unit/damaged_lines_test.cpp and tests/analysis/test_damaged_lines.py).
source "$(dirname "$0")/lib.bash"

cat > "$WORK/q.json" <<'JSON'
{"name": "q", "kind": "collective",
 "settings": {"max_bytes": 64, "min_time_s": 0.02, "iters": 5, "quiet_wait_s": 0},
 "sweep": {"warmup_iters": [1, 2, 3]}}
JSON
"$HARNESS" "$WORK/q.json" --results-dir "$WORK/r" -q
good=$(only_run_dir "$WORK/r"); good=${good%/}
"$HARNESS" --check-records "$good" > "$WORK/out" || { cat "$WORK/out"; fail "--check-records refused a fresh run"; }

# copy NAME: a fresh copy of the good folder.
copy() { rm -rf "$WORK/$1"; cp -r "$good" "$WORK/$1"; echo "$WORK/$1"; }
# line_2 FOLDER EXPRESSION: trials.jsonl with its second line replaced by the value of a Python
# expression (a str).
line_2() { py "$1/trials.jsonl" "$2" <<'PY'
import sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
lines[1] = eval(sys.argv[2]).encode()
open(sys.argv[1], "wb").write(b"\n".join(lines))
PY
}
# every_reader EXPECTED FOLDER: each reader exits 2 naming EXPECTED, none crashes. (Every
# kind of line is in tests/fixtures/damaged_lines.json, which the unit tests feed to the
# harness's reader and the scripts'; here each command is seen to use that reader.)
every_reader() {
  local expected=$1 folder=$2
  expect_error "$expected" "$HARNESS" --check-records "$folder"
  expect_error "$expected" "$HARNESS" --upgrade-records "$folder/trials.jsonl"
  expect_error "$expected" "$HARNESS" --resume "$folder" -q
}

d=$(copy scalar)
line_2 "$d" "'3'"
every_reader "trials.jsonl:2: damaged record (not a trial record" "$d"
expect_error "trials.jsonl:2: damaged record (not a trial record" "$HARNESS" "$WORK/q.json" --resume "$d" -q
d=$(copy deep)
line_2 "$d" '"[" * 100000 + "]" * 100000'
every_reader "trials.jsonl:2: damaged record (nested 100000 levels deep, expected at most 100" "$d"
d=$(copy unclosed)
line_2 "$d" '"[" * 100000'
expect_error "trials.jsonl:2: damaged record (nested 100000 levels deep" "$HARNESS" --resume "$d" -q
d=$(copy bom)
{ printf '\xef\xbb\xbf'; cat "$good/trials.jsonl"; } > "$d/trials.jsonl"
expect_error "trials.jsonl:1: damaged record (starts with a UTF-8 byte-order mark" "$HARNESS" --resume "$d" -q
d=$(copy world)
sed -i '2s/"world_size":1,/"world_size":0,/' "$d/trials.jsonl"
expect_error "trials.jsonl:2: world_size is 0, expected at least 1" "$HARNESS" --resume "$d" -q
d=$(copy status)
sed -i '2s/"status":"ok"/"status":"exploded"/' "$d/trials.jsonl"
expect_error 'trials.jsonl:2: status is "exploded", expected one of ok, failed' "$HARNESS" --resume "$d" -q
d=$(copy negative)
sed -i '2s/"bytes":\([0-9]*\)/"bytes":-\1/' "$d/trials.jsonl"
expect_error "trials.jsonl:2: /points/0/bytes is -" "$HARNESS" --resume "$d" -q
d=$(copy typed)
sed -i '2s/"world_size":1,/"world_size":"1",/' "$d/trials.jsonl"
expect_error 'trials.jsonl:2: /world_size: "1" is not of type integer' "$HARNESS" --resume "$d" -q
echo "ok: damaged lines end every reader with file:line"

# A folder in place of a file.
d=$(copy trials_dir)
rm "$d/trials.jsonl"; mkdir "$d/trials.jsonl"
expect_error "trials.jsonl: is a folder, expected a file of trial records" "$HARNESS" --check-records "$d"
expect_error "trials.jsonl: is a folder, expected a file of trial records" "$HARNESS" --upgrade-records "$d/trials.jsonl"
expect_error "trials.jsonl: is a" "$HARNESS" "$WORK/q.json" --resume "$d" -q
d=$(copy meta_dir)
rm "$d/meta.json"; mkdir "$d/meta.json"
expect_error "meta.json: is a folder, expected the run's description, a JSON object" "$HARNESS" --check-records "$d"
expect_error "meta.json: is a folder, expected the run's description, a JSON object" "$HARNESS" --resume "$d" -q

# A damaged meta.json is named by line, not read as an empty one.
d=$(copy meta_bad)
printf '{\n "schema_version": 1,\n "experiment": [[[x\n}\n' > "$d/meta.json"
expect_error "meta.json:3: not JSON" "$HARNESS" --check-records "$d"
expect_error "meta.json:3: not JSON" "$HARNESS" --resume "$d" -q
py "$d/meta.json" "$good/meta.json" <<'PY'
import json, sys
meta = json.load(open(sys.argv[2]))
meta["machine"] = "a laptop"
open(sys.argv[1], "w").write(json.dumps(meta))
PY
expect_error 'meta.json: /machine: "a laptop" is not of type object' "$HARNESS" --check-records "$d"
expect_error 'meta.json: /machine: "a laptop" is not of type object' "$HARNESS" "$WORK/q.json" --resume "$d" -q
echo "ok: folders in place of files, damaged meta.json"

# A last line that a newline ends, or that starts no record, was not cut off by an interrupted
# write: damage (exit 2), never "skipped" and never "every record reads".
d=$(copy last_five)
printf '5\n' > "$d/trials.jsonl"
expect_error "trials.jsonl:1: damaged record (not a trial record" "$HARNESS" --check-records "$d"
grep -q "every record" "$WORK/out" && fail "--check-records said every record reads beside a damaged one"
d=$(copy last_cut)
printf '%s\n{"key": "b", "sta' "$(head -1 "$good/trials.jsonl")" > "$d/trials.jsonl"
"$HARNESS" --check-records "$d" > "$WORK/out" 2>&1 || { cat "$WORK/out"; fail "--check-records refused a cut-off last line"; }
grep -q "every record but the cut-off last line is one the harness reads" "$WORK/out" ||
  { cat "$WORK/out"; fail "--check-records did not say it skipped the cut-off line"; }
echo "ok: only an unterminated start of a record is a cut-off last line"

# The old-layout fixture: readable, and said to be old, with the way to upgrade it.
"$HARNESS" --check-records tests/fixtures/mixed_results > "$WORK/out" 2>&1 ||
  { cat "$WORK/out"; fail "--check-records refused the old-layout fixture"; }
grep -q "13 record(s) of the older layout record_version 1: read by --resume and the scripts as they are; \`harness --upgrade-records tests/fixtures/mixed_results/trials.jsonl\` prints them" "$WORK/out" ||
  { cat "$WORK/out"; fail "--check-records did not say the fixture is of an older layout"; }
echo "ok: the old-layout fixture is readable and named old"
echo PASS
