# The results folder under hostile use, second round: two jobs at once, a missing meta.json,
# odd records, a full disk, a read-only file system, signals through mpirun. Nothing measured
# may be lost, and every end is a clear message with a documented exit status.
source "$(dirname "$0")/lib.bash"

cat > "$WORK/q.json" <<'JSON'
{"name": "q", "kind": "collective",
 "settings": {"max_bytes": 64, "min_time_s": 0.02, "iters": 5, "quiet_wait_s": 0},
 "sweep": {"warmup_iters": [1, 2, 3, 4, 5, 6, 7, 8]}}
JSON
"$HARNESS" "$WORK/q.json" --results-dir "$WORK/r" -q
dir=$(only_run_dir "$WORK/r"); dir=${dir%/}
records() { grep -c . "$dir/trials.jsonl"; }
[ "$(records)" -eq 8 ] || fail "expected 8 records"
[ ! -e "$dir/.lock" ] || fail "the lock's holder file outlived the job"

# One job per folder: a second --resume while the first runs is refused, naming the holder.
: > "$dir/trials.jsonl"
"$HARNESS" "$WORK/q.json" --resume "$dir" -q &
first=$!
for _ in $(seq 100); do [ -s "$dir/.lock" ] && break; sleep 0.05; done
expect_error "in use by harness pid $first on host" "$HARNESS" "$WORK/q.json" --resume "$dir"
wait "$first"
[ "$(records)" -eq 8 ] || fail "the folder holds $(records) records after one resume, expected 8"
py "$dir" <<'PY'
import json, os, sys
keys = [json.loads(l)["key"] for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert len(keys) == len(set(keys)), "duplicate keys"
PY
echo "ok: one job per folder"

# A damaged line in the middle is a measured record someone changed: --resume refuses it by
# file:line and changes nothing; the scripts refuse it the same way.
cp "$dir/trials.jsonl" "$WORK/kept.jsonl"
sed -i '2s/.*/{"key": 12345, "status": null}/' "$dir/trials.jsonl"
cp "$dir/trials.jsonl" "$WORK/damaged.jsonl"
expect_error "trials.jsonl:2: damaged record (not a trial record (a JSON object with a string \"key\" and \"status\")); only the last line may be cut off by an interrupted run" \
  "$HARNESS" "$WORK/q.json" --resume "$dir"
cmp -s "$dir/trials.jsonl" "$WORK/damaged.jsonl" || fail "--resume changed the file it refused"
expect_error "trials.jsonl:2: damaged record" scripts/plot "$dir"
cp "$WORK/kept.jsonl" "$dir/trials.jsonl"
echo "ok: a damaged middle line is refused, nothing deleted"

# A cut-off last line (an interrupted write) is moved, verbatim, to trials.cut-off.txt and its
# trial runs again.
cut=$(tail -1 "$dir/trials.jsonl" | cut -c1-60)
sed -i '$d' "$dir/trials.jsonl"
printf '%s' "$cut" >> "$dir/trials.jsonl"
"$HARNESS" "$WORK/q.json" --resume "$dir" > "$WORK/out" 2>&1 || { cat "$WORK/out"; fail "resume over a cut-off line failed"; }
grep -q "trials.jsonl:8: cut-off last line (an interrupted write) moved to trials.cut-off.txt" "$WORK/out" ||
  { cat "$WORK/out"; fail "the cut-off line was not named"; }
grep -qxF -- "$cut" "$dir/trials.cut-off.txt" || fail "the cut-off line was not kept verbatim"
[ "$(records)" -eq 8 ] || fail "cut-off line: $(records) records"
echo "ok: a cut-off last line is kept aside and its trial runs again"

# The marks of a job's end: meta.json says unfinished until the sweep ends; a finished resume
# moves the previous end into its "resumed" entry.
py "$dir" <<'PY'
import json, os, sys
meta = json.load(open(os.path.join(sys.argv[1], "meta.json")))
assert "finished_at" in meta and not {"unfinished", "interrupted", "aborted"} & set(meta), meta.keys()
assert "previous_end" in meta["resumed"][-1], meta["resumed"][-1]
PY

# Without meta.json the same-experiment check cannot be made: refused unless --extend.
mv "$dir/meta.json" "$WORK/meta.json.kept"
sed -i '$d' "$dir/trials.jsonl"
expect_error "meta.json: missing, unreadable or without an \"experiment\"" \
  "$HARNESS" "$WORK/q.json" --resume "$dir" --set settings.iters=6
"$HARNESS" "$WORK/q.json" --resume "$dir" --extend -q
mv "$WORK/meta.json.kept" "$dir/meta.json"
expect_error "not a results folder (it has neither trials.jsonl nor meta.json)" "$HARNESS" "$WORK/q.json" --resume "$WORK"

# Scripts on a damaged meta.json: one line naming the file, exit 2, no traceback.
cp -r "$dir" "$WORK/damaged"
echo '{nope' > "$WORK/damaged/meta.json"
for script in plot export_gbench model; do
  status=0
  scripts/$script "$WORK/damaged" > "$WORK/out" 2>&1 || status=$?
  [ "$status" -eq 2 ] && [ "$(wc -l < "$WORK/out")" -eq 1 ] && grep -q "meta.json:1: not JSON" "$WORK/out" ||
    { cat "$WORK/out"; fail "scripts/$script on a damaged meta.json: exit $status"; }
done
status=0
scripts/plot "$dir" --out /proc/forbidden > "$WORK/out" 2>&1 || status=$?
[ "$status" -eq 2 ] && grep -q "/proc/forbidden: cannot write the report there" "$WORK/out" ||
  { cat "$WORK/out"; fail "scripts/plot --out /proc/forbidden: exit $status"; }
echo "ok: scripts end with one line"

# A relative path is the caller's, though the script works from the repository root.
harness_path=$(realpath "$HARNESS")
(cd "$WORK" && "$OLDPWD/scripts/repeatability" q.json -k 2 --out rep.json --harness "$harness_path" \
  -- --set 'sweep.warmup_iters=[1]' > rep.out 2>&1) || { cat "$WORK/rep.out"; fail "scripts/repeatability with relative paths"; }
[ -s "$WORK/rep.json" ] || fail "scripts/repeatability wrote no rep.json where it was called"
echo "ok: repeatability resolves paths from the caller"

# A full disk mid-sweep and a read-only completed folder, on a small file system of our own.
unshare -m bash -s "$HARNESS" "$WORK" <<'INNER' || fail "the full-disk / read-only probes failed"
set -euo pipefail
HARNESS=$1 WORK=$2
# Slow enough trials that the disk fills mid-sweep.
twelve=(--set 'sweep.warmup_iters=[1,2,3,4,5,6,7,8,9,10,11,12]' --set settings.min_time_s=0.2)
mkdir -p "$WORK/small"
mount -t tmpfs -o size=400k tmpfs "$WORK/small"
"$HARNESS" "$WORK/q.json" --results-dir "$WORK/small" "${twelve[@]}" -q > "$WORK/full.out" 2>&1 &
job=$!
for _ in $(seq 400); do
  f=$(ls "$WORK"/small/q/*/trials.jsonl 2>/dev/null || true)
  [ -n "$f" ] && [ "$(grep -c . "$f")" -ge 1 ] && break
  sleep 0.05
done
dd if=/dev/zero of="$WORK/small/filler" bs=4k 2>/dev/null || true
status=0; wait "$job" || status=$?
[ "$status" -eq 1 ] || { cat "$WORK/full.out"; echo "full disk: exit $status, expected 1"; exit 1; }
grep -q "No space left on device; every trial recorded before is kept in" "$WORK/full.out" ||
  { cat "$WORK/full.out"; echo "full disk: no clear message"; exit 1; }
! grep -q "MPI_ABORT\|fatal" "$WORK/full.out" || { cat "$WORK/full.out"; echo "full disk: fatal end"; exit 1; }
d=$(ls -d "$WORK"/small/q/*)
[ -z "$(ls "$d" | grep '\.tmp$' || true)" ] || { ls "$d"; echo "temporaries left behind"; exit 1; }
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$d/trials.jsonl"
grep -q '"aborted"\|"unfinished"' "$d/meta.json" || { echo "meta.json reads as a finished run"; exit 1; }
rm "$WORK/small/filler"
"$HARNESS" "$WORK/q.json" --resume "$d" "${twelve[@]}" -q 2> "$WORK/resume.err"
[ ! -s "$WORK/resume.err" ] || { cat "$WORK/resume.err"; echo "the resume after a full disk warned"; exit 1; }
[ "$(grep -c . "$d/trials.jsonl")" -eq 12 ] || { echo "records lost to the full disk"; exit 1; }
mount -o remount,ro "$WORK/small"
"$HARNESS" "$WORK/q.json" --resume "$d" "${twelve[@]}" > "$WORK/ro.out" 2>&1 ||
  { cat "$WORK/ro.out"; echo "a completed folder on a read-only file system failed to resume"; exit 1; }
grep -q "nothing to run: all 12 trial(s) are recorded" "$WORK/ro.out" || { cat "$WORK/ro.out"; exit 1; }
umount "$WORK/small"
INNER
echo "ok: full disk ends cleanly; read-only completed folder resumes"

# SIGTERM through mpirun: the harness names the signal and marks meta.json with it.
setsid $MPIRUN -np 2 "$HARNESS" "$WORK/q.json" --results-dir "$WORK/t" --set settings.world_size=2 \
  --set settings.min_time_s=1 > "$WORK/console" 2>&1 &
job=$!
wait_for_records "$WORK/t" 1
kill -TERM "$job"
wait "$job" 2>/dev/null || true
t=$(only_run_dir "$WORK/t")
grep -q "harness: interrupted (SIGTERM)" "$WORK/console" || { cat "$WORK/console"; fail "no interruption line"; }
py "$t" <<'PY'
import json, os, sys
meta = json.load(open(os.path.join(sys.argv[1], "meta.json")))
assert meta["interrupted"]["by"] == "SIGTERM" and meta["interrupted"]["exit_status"] == 143, meta
assert "unfinished" not in meta
PY
# Two Ctrl-C to mpirun: it kills the ranks outright, and meta.json still says the run did not end.
setsid $MPIRUN -np 2 "$HARNESS" "$WORK/q.json" --results-dir "$WORK/i" --set settings.world_size=2 \
  --set settings.min_time_s=1 > "$WORK/console" 2>&1 &
job=$!
wait_for_records "$WORK/i" 1
kill -INT "$job"; sleep 0.1; kill -INT "$job" 2>/dev/null || true
wait "$job" 2>/dev/null || true
grep -q '"interrupted"\|"unfinished"' "$(only_run_dir "$WORK/i")/meta.json" ||
  fail "after two Ctrl-C meta.json reads as a finished run"
echo "ok: signals leave their mark"
echo PASS
