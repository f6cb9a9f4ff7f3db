# Bad input exits 2 with a message naming the field, file or value, before any trial runs.
source "$(dirname "$0")/lib.bash"

expect_error "a trial needs world_size 2 but the job has 1 rank; launch with mpirun -np 2" \
  "$HARNESS" experiments/smoke.json --results-dir "$WORK/r"
printf '{\n  "name": "x",\n  "seed": 1,,\n}\n' > "$WORK/broken.json"
expect_error "broken.json:3:" "$HARNESS" "$WORK/broken.json"
expect_error "/settings/backend: unknown communicator plugin \"glooo\"" \
  "$HARNESS" experiments/smoke.json --set settings.backend=glooo --set 'sweep.world_size=[1]'
expect_error "/no/such.csv: cannot open the data file" \
  "$HARNESS" experiments/smoke.json --set 'sweep.world_size=[1]' \
  --set 'settings.dataset={"kind": "csv", "path": "/no/such.csv"}'
expect_error "cannot open the experiment file" "$HARNESS" "$WORK/missing.json"
expect_error "no experiment file given" "$HARNESS"
expect_error "/settings/epoch: unknown key \"epoch\" (did you mean \"epochs\"?)" \
  "$HARNESS" experiments/smoke.json --set settings.epoch=3
# Under mpirun every rank exits 2 and only one message is printed.
expect_error "/sweep/world_size: a trial needs world_size 4" \
  $MPIRUN -np 2 "$HARNESS" experiments/smoke.json --set 'sweep.world_size=[4]'
[ "$(grep -c 'harness: error' "$WORK/out")" -eq 1 ] || fail "error printed more than once"
[ ! -e "$WORK/r" ] || fail "a rejected experiment created a results folder"
echo PASS
