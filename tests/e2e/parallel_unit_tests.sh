# Two test runs at once never collide on files: every test that writes files works in a
# directory of its own (tests/support/test_support.h TempDir), never a fixed name under /tmp.
# Runs the file-writing unit tests twice in parallel, many times over.
source "$(dirname "$0")/lib.bash"

unit="$(dirname "$HARNESS")/unit_tests"
filter='DataFiles*:CsvLoader.*:FannLoader.*:Standardisation.*:ResultsStore.*:PointsCsv.*:PluginLoading.NotALibrary:LwsndrLoader.RejectsBadFilesWithFileAndLine'
"$unit" --gtest_filter="$filter" --gtest_repeat=30 > "$WORK/a" 2>&1 & first=$!
"$unit" --gtest_filter="$filter" --gtest_repeat=30 > "$WORK/b" 2>&1 & second=$!
status=0
wait $first || status=1
wait $second || status=1
[ $status -eq 0 ] || { grep -h -A5 "Failure" "$WORK/a" "$WORK/b" | head -40; fail "parallel unit test runs collided"; }
grep -q "PASSED" "$WORK/a" && grep -q "PASSED" "$WORK/b" || fail "the runs did not finish"
echo PASS
