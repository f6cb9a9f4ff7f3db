# scripts/plot on the results fixture in the repo (train + collective; ok, skipped,
# inconsistent, failed, a truncated line) writes every promised file; failed-only results and
# a wrong folder are handled.
source "$(dirname "$0")/lib.bash"
PLOT="$(pwd)/scripts/plot"
/usr/bin/python3 -c "import matplotlib, pandas" 2>/dev/null || fail "python3-matplotlib/pandas missing (scripts/setup --plots)"

"$PLOT" tests/fixtures/mixed_results --out "$WORK/plots"
for image in throughput_vs_world_size scaling_efficiency busbw_vs_message_size loss_vs_epoch loss_vs_step \
             auroc_vs_world_size step_time_breakdown; do
  file="$WORK/plots/$image.png"
  [ -s "$file" ] || fail "$image.png not written"
  [ "$(head -c 4 "$file" | tail -c 3)" = "PNG" ] || fail "$image.png is not a PNG"
  grep -q "($image.png)" "$WORK/plots/report.md" || fail "report.md does not embed $image.png"
done
for section in "## Training" "## Does the learning rate need to scale" "## Allreduce bus bandwidth" \
               "## Trials that did not finish ok" "| skipped |" "| failed |" "| inconsistent |" \
               "## Cost model" "Held-out check: needs three or more world sizes" \
               "Adaptive repetitions: 3 extra trials in 4 s" "| allreduce | {\"world_size\": 2, \"backend\": \"ring\"} | 8.7 |"; do
  grep -qF "$section" "$WORK/plots/report.md" || fail "report.md lacks '$section'"
done

# Only failed trials: a report listing them, no plots, no crash.
mkdir -p "$WORK/failed"
grep '"status": "failed"' tests/fixtures/mixed_results/trials.jsonl > "$WORK/failed/trials.jsonl"
"$PLOT" "$WORK/failed"
grep -q "Not drawn" "$WORK/failed/plots/report.md" || fail "failed-only report does not say what was not drawn"

status=0
"$PLOT" "$WORK/nowhere" 2>"$WORK/err" || status=$?
[ "$status" -eq 2 ] && grep -q "no trials.jsonl" "$WORK/err" || fail "a folder without results should exit 2 with a message"
echo PASS
