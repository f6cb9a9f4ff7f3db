# A test that fails on one rank under mpirun fails the whole job within seconds instead of
# leaving the other ranks waiting in a collective until ctest's timeout.
source "$(dirname "$0")/lib.bash"

tests_binary="$(dirname "$HARNESS")/mpi_tests"
started=$(date +%s)
status=0
timeout 120 $MPIRUN -np 2 "$tests_binary" --gtest_also_run_disabled_tests \
  --gtest_filter='FailFast.*' > "$WORK/out" 2>&1 || status=$?
elapsed=$(( $(date +%s) - started ))
cat "$WORK/out"
[ "$status" -ne 124 ] || fail "the job hung until the 120 s timeout"
[ "$status" -ne 0 ] || fail "a fatal failure on rank 1 did not fail the job"
[ "$elapsed" -lt 60 ] || fail "took $elapsed s to fail"
grep -q "rank 1: FATAL in FailFast" "$WORK/out" || fail "the failing rank and test are not named"
grep -q "deliberate failure on rank 1" "$WORK/out" || fail "the failure message is lost"
echo "PASS (failed in $elapsed s with exit $status)"
