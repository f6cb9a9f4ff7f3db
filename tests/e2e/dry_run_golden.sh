# The dry-run table is read by scripts (scripts/run takes "run with mpirun -np N" from its
# last line), and its keys are what --resume matches: both shipped experiments must print
# exactly the golden tables in tests/fixtures/golden/. The table depends on the CPUs the job
# may use (ring_vs_gloo runs its oversubscribed points once), so it is made on two of them
# (taskset -c 0,1). A deliberate change regenerates them:
#   taskset -c 0,1 ./build/harness experiments/smoke.json --dry-run > tests/fixtures/golden/dry_run_smoke.txt
source "$(dirname "$0")/lib.bash"

for experiment in smoke ring_vs_gloo; do
  taskset -c 0,1 "$HARNESS" "experiments/$experiment.json" --dry-run > "$WORK/$experiment.txt"
  diff -u "tests/fixtures/golden/dry_run_$experiment.txt" "$WORK/$experiment.txt" ||
    fail "$experiment: dry-run output differs from the golden file"
  echo "ok: $experiment matches its golden table"
done
# A dry run validates synthetic data sets without generating them: 5e7 rows x 20 would take
# 12 GB and over a minute to generate; the dry run is done in seconds.
timeout 30 "$HARNESS" tests/fixtures/smoke_train.json --set settings.dataset.rows=50000000 --dry-run \
  > /dev/null || fail "the dry run generated the synthetic data set (or failed)"
# ... and still applies the generators' own checks.
status=0
"$HARNESS" tests/fixtures/smoke_train.json --set settings.dataset.latent_dim=30 --dry-run > "$WORK/out" 2>&1 ||
  status=$?
[ "$status" -eq 2 ] && grep -q "/settings/dataset/latent_dim: expected less than dim" "$WORK/out" ||
  fail "the dry run skipped the synthetic generator's checks"
echo "ok: dry runs shape synthetic data sets without generating them"
tail -1 "$WORK/ring_vs_gloo.txt" | grep -qx "78 trial(s); run with mpirun -np 4" ||
  fail "the last line is not the one scripts/run parses"
echo PASS
