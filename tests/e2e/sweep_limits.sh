# A sweep too large to plan is refused at once with its trial count (exit 2), before anything
# is expanded: a raised max_trials let a sweep of billions run for minutes into bad_alloc.
source "$(dirname "$0")/lib.bash"

axis='[1,2,3,4,5,6,7,8,9,10]'
cat > "$WORK/huge.json" <<JSON
{"name": "huge", "kind": "collective", "max_trials": 100000000000, "settings": {},
 "sweep": {"warmup_iters": $axis, "iters": $axis, "max_iters": [11,12,13,14,15,16,17,18,19,20],
           "step_factor": [2,3,4,5,6,7,8,9,10,11], "quiet_wait_s": $axis, "min_time_s": $axis,
           "noise_cv_threshold": $axis, "quiet_slowdown": $axis, "world_size": [1,2,3,4,5,6,7,8,9,10],
           "max_bytes": [64,128,256,512,1024,2048,4096,8192,16384,32768]}}
JSON
start=$(date +%s)
# Capped, so that a harness that does expand it fails fast instead of filling the machine.
expect_error "/max_trials: the sweep expands to 10000000000 trials, which every rank holds in memory" \
  bash -c "ulimit -v 8000000; exec timeout 60 '$HARNESS' '$WORK/huge.json' --dry-run"
[ $(( $(date +%s) - start )) -le 10 ] || fail "refusing took more than 10 s"
grep -qF "this host has" "$WORK/out" || fail "the message does not say what the host has"
echo PASS
