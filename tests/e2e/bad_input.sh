# Bad input exits 2 with a message naming the field, file or value, before any trial runs.
source "$(dirname "$0")/lib.bash"

expect_error "a trial needs world_size 2 but the job has 1 rank; launch with mpirun -np 2" \
  "$HARNESS" tests/fixtures/smoke_train.json --results-dir "$WORK/r"
printf '{\n  "name": "x",\n  "seed": 1,,\n}\n' > "$WORK/broken.json"
expect_error "broken.json:3:" "$HARNESS" "$WORK/broken.json"
expect_error "/settings/backend: unknown communicator plugin \"glooo\"" \
  "$HARNESS" tests/fixtures/smoke_train.json --set settings.backend=glooo --set 'sweep.world_size=[1]'
expect_error "/no/such.csv: cannot open the data file" \
  "$HARNESS" tests/fixtures/smoke_train.json --set 'sweep.world_size=[1]' \
  --set 'settings.dataset={"kind": "csv", "path": "/no/such.csv"}'
expect_error "missing.json: no such file (expected an experiment .json file)" "$HARNESS" "$WORK/missing.json"
expect_error "/dev/zero: not a regular file" "$HARNESS" /dev/zero
expect_error "$WORK: not a regular file" "$HARNESS" "$WORK"
head -c 5000000 /dev/zero | tr '\0' ' ' > "$WORK/huge.json"
expect_error "huge.json: 5000000 bytes; an experiment file may have at most 4194304" "$HARNESS" "$WORK/huge.json"
py "$WORK/deep.json" <<'PY'
import sys
open(sys.argv[1], "w").write('{"name": "x", "description": ' + "[" * 100000 + "]" * 100000 + "}")
PY
expect_error "deep.json:1:93: nested deeper than 64 levels" "$HARNESS" "$WORK/deep.json"
printf '{"name": "x",\n "seed": 1e999}\n' > "$WORK/overflow.json"
expect_error "overflow.json:2:10: number 1e999 is out of range" "$HARNESS" "$WORK/overflow.json"
printf '{"name": "x",\n "seed": 1,\n "seed": 2}\n' > "$WORK/twice.json"
expect_error "twice.json:3:2: duplicate key \"seed\"" "$HARNESS" "$WORK/twice.json"
printf '{"name": "x", "description": "\xff"}\n' > "$WORK/latin1.json"
expect_error "latin1.json:1:" "$HARNESS" "$WORK/latin1.json"
expect_error "/max_trials: the sweep expands to" \
  "$HARNESS" tests/fixtures/smoke_train.json --set 'sweep.epochs=[1,2,3,4,5,6,7,8,9,10]' \
  --set 'sweep.batch_size=[1,2,3,4,5,6,7,8,9,10]' --set repetitions=2000
expect_error "/settings/dataset/rows: generating this synthetic data set needs about 1200.0 GB" \
  "$HARNESS" tests/fixtures/smoke_train.json --set settings.dataset.rows=100000000 --set settings.dataset.dim=1000 --dry-run
mkfifo "$WORK/fifo.csv"
expect_error "fifo.csv: not a regular file (expected a data file)" \
  "$HARNESS" tests/fixtures/smoke_train.json --set 'sweep.world_size=[1]' \
  --set "settings.dataset={\"kind\": \"csv\", \"path\": \"$WORK/fifo.csv\"}" --dry-run
printf 'label\n0\n1\n' > "$WORK/labels_only.csv"
expect_error "labels_only.csv:1: only the label column \"label\"; a data set needs at least one feature column" \
  "$HARNESS" tests/fixtures/smoke_train.json --set 'sweep.world_size=[1]' \
  --set "settings.dataset={\"kind\": \"csv\", \"path\": \"$WORK/labels_only.csv\"}" --dry-run
expect_error "--plugin-dir /no/such/dir: no such directory" \
  "$HARNESS" tests/fixtures/smoke_train.json --plugin-dir /no/such/dir --dry-run
expect_error "no experiment file given" "$HARNESS"
expect_error "/settings/epoch: unknown key \"epoch\" (did you mean \"epochs\"?)" \
  "$HARNESS" tests/fixtures/smoke_train.json --set settings.epoch=3
# Under mpirun every rank exits 2 and only one message is printed.
expect_error "/sweep/world_size: a trial needs world_size 4" \
  $MPIRUN -np 2 "$HARNESS" tests/fixtures/smoke_train.json --set 'sweep.world_size=[4]'
[ "$(grep -c 'harness: error' "$WORK/out")" -eq 1 ] || fail "error printed more than once"
[ ! -e "$WORK/r" ] || fail "a rejected experiment created a results folder"
# A listing that cannot be written (a full disk) is a failure said on stderr, not exit 0.
for listing in "--fields" "--list-plugins" "tests/fixtures/smoke_train.json --dry-run"; do
  status=0
  # shellcheck disable=SC2086  # the listing's words are separate arguments
  "$HARNESS" $listing > /dev/full 2> "$WORK/err" || status=$?
  [ "$status" -eq 1 ] && grep -q "could not write to standard output" "$WORK/err" ||
    fail "harness $listing to a full disk: exit $status, $(cat "$WORK/err")"
done
echo PASS
