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
               "Adaptive repetitions: 3 extra trials in 4 s" "| allreduce | {\"world_size\": 2, \"backend\": \"ring\"} | 8.70 |" \
               "## Answer" "## Statuses" "## Method"; do
  grep -qF "$section" "$WORK/plots/report.md" || fail "report.md lacks '$section'"
done

# A run with the k_best estimator: the plots take each point's estimate and band from
# aggregates.csv (not its median) and the report names the estimator in its verdicts.
mkdir -p "$WORK/kbest"
cp tests/fixtures/mixed_results/trials.jsonl "$WORK/kbest/"
/usr/bin/python3 - "$WORK/kbest" <<'PY'
import json, os, sys
folder = sys.argv[1]
meta = json.load(open("tests/fixtures/mixed_results/meta.json"))
meta["estimator"] = {"name": "k_best", "k": 3}
json.dump(meta, open(os.path.join(folder, "meta.json"), "w"))
rows = ["part,point,kind,world_size,backend,algorithm,axes,figure,bytes,n,median,min,max,ci_low,"
        "ci_high,ci_coverage,estimator,estimate,estimate_low,estimate_high"]
for line in open(os.path.join(folder, "trials.jsonl")):
    try:
        r = json.loads(line)
    except ValueError:
        continue  # the fixture's truncated line
    if r.get("kind") == "train" and r.get("status") in ("ok", "inconsistent"):
        # The median 1 and the estimate 12345: the plot must draw the estimate.
        rows.append(f"{r.get('part', '')},{r.get('point', r['key'])},train,{r['world_size']},x,,,samples_per_s,0,3,"
                    "1,1,12345,1,12345,0.75,k_best,12345,12000,12345")
open(os.path.join(folder, "aggregates.csv"), "w").write("\n".join(rows) + "\n")
PY
"$PLOT" "$WORK/kbest" > /dev/null
py "$WORK/kbest/plots/figures.json" <<'PY'
import json, sys
series = [s for s in json.load(open(sys.argv[1]))["series"] if s["plot"].startswith("throughput")]
assert series and all(y == 12345 for s in series for y in s["y"]), series
assert all(lo == 12000 for s in series for lo in s["lo"]), series
print("ok: k_best estimates plotted with their band")
PY
grep -qF "bands over the 3 fastest repetitions" "$WORK/kbest/plots/report.md" ||
  fail "the k_best report does not name its bands"

# Only failed trials: a report listing them, no plots, no crash.
mkdir -p "$WORK/failed"
grep '"status": "failed"' tests/fixtures/mixed_results/trials.jsonl > "$WORK/failed/trials.jsonl"
"$PLOT" "$WORK/failed"
grep -q "Not drawn" "$WORK/failed/plots/report.md" || fail "failed-only report does not say what was not drawn"

status=0
"$PLOT" "$WORK/nowhere" 2>"$WORK/err" || status=$?
[ "$status" -eq 2 ] && grep -q "no trials.jsonl" "$WORK/err" || fail "a folder without results should exit 2 with a message"
echo PASS
