# The dry-run table is read by scripts (scripts/run takes "run with mpirun -np N" from its
# last line), and its keys are what --resume matches: both shipped experiments must print
# exactly the golden tables in tests/fixtures/golden/. A deliberate change regenerates them:
#   ./build/harness experiments/smoke.json --dry-run > tests/fixtures/golden/dry_run_smoke.txt
source "$(dirname "$0")/lib.bash"

for experiment in smoke ring_vs_gloo; do
  "$HARNESS" "experiments/$experiment.json" --dry-run > "$WORK/$experiment.txt"
  diff -u "tests/fixtures/golden/dry_run_$experiment.txt" "$WORK/$experiment.txt" ||
    fail "$experiment: dry-run output differs from the golden file"
  echo "ok: $experiment matches its golden table"
done
tail -1 "$WORK/ring_vs_gloo.txt" | grep -qx "280 trial(s); run with mpirun -np 4" ||
  fail "the last line is not the one scripts/run parses"
echo PASS
