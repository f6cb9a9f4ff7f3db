# Results never leave their folder: a symbolic link planted in a results folder (trials.jsonl,
# summary.csv, meta.json, a .tmp, .lock, traces/) makes --resume refuse the folder, naming the
# link, and nothing outside the folder is written. A job killed outright (kill -9) leaves a
# .lock file behind that blocks no later --resume: the lock is the kernel's and dies with it.
source "$(dirname "$0")/lib.bash"

cat > "$WORK/q.json" <<'JSON'
{"name": "q", "kind": "collective",
 "settings": {"max_bytes": 64, "min_time_s": 0.02, "iters": 5, "quiet_wait_s": 0},
 "sweep": {"warmup_iters": [1, 2]}}
JSON
"$HARNESS" "$WORK/q.json" --results-dir "$WORK/r" -q
good=$(only_run_dir "$WORK/r"); good=${good%/}
sed -i '$d' "$good/trials.jsonl"  # one trial to run again, so a resume writes every file

# plant NAME: a copy of the good folder whose NAME is a link to a file outside it; the outside
# file must come through --resume unchanged.
for name in trials.jsonl summary.csv meta.json meta.json.tmp summary.csv.tmp trials.jsonl.tmp \
            .lock meta.json.interrupted.tmp traces; do
  d="$WORK/links/$name"; mkdir -p "$(dirname "$d")"; rm -rf "$d"; cp -r "$good" "$d"
  echo "outside, not to be touched" > "$WORK/outside"
  [ -e "$d/$name" ] && cp "$d/$name" "$WORK/outside" 2>/dev/null || true
  cp "$WORK/outside" "$WORK/outside.before"
  rm -rf "${d:?}/$name"
  ln -s "$WORK/outside" "$d/$name"
  expect_error "$d/$name: is a symbolic link (to $WORK/outside)" "$HARNESS" --resume "$d" -q
  cmp -s "$WORK/outside" "$WORK/outside.before" || fail "--resume wrote through the link $name"
done
echo "ok: a folder holding a link is refused, naming it, and nothing outside is written"

# kill -9 leaves .lock behind; the next --resume is not blocked by it.
slow=(--set 'sweep.warmup_iters=[1,2,3,4,5,6,7,8]' --set settings.min_time_s=0.3)
setsid "$HARNESS" "$WORK/q.json" --results-dir "$WORK/k" "${slow[@]}" -q > "$WORK/killed.out" 2>&1 &
job=$!
wait_for_records "$WORK/k" 1
killed=$(only_run_dir "$WORK/k"); killed=${killed%/}
[ -s "$killed/.lock" ] || fail "no .lock while the job ran"
kill_job "$job"
[ -e "$killed/.lock" ] || fail "kill -9 left no .lock: this test no longer tests a leftover"
"$HARNESS" --resume "$killed" -q > "$WORK/out" 2>&1 || { cat "$WORK/out"; fail "--resume after kill -9 was blocked"; }
[ "$(grep -c . "$killed/trials.jsonl")" -eq 8 ] || fail "the resumed folder holds $(grep -c . "$killed/trials.jsonl") records, expected 8"
[ ! -e "$killed/.lock" ] || fail "the resumed job left its .lock"
echo "ok: a .lock left by a killed job blocks nothing"
echo PASS
