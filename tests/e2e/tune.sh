# scripts/tune on the seed's autoencoder (examples/pytorch) at world 2, end to end with short
# settings: the capture checked (tests/tune/check_capture.py), an Answer that either gives a
# plan measured faster beyond the noise in the job or says to keep the defaults, the user's
# script unchanged, the ranking check (--rank-check); the harness's replay trial re-making
# DDP's own buckets; and the clear errors: a job without DDP, a job that crashes, a job that
# exits with a status of its own, a job that never reaches DDP (stopped, all its processes), a
# plan applied whatever case the job spells gloo in, a job that writes its own files (the
# user's put back), a model off the CPU, more ranks than CPUs, a command that launches no
# distributed job, bad options (an endless replay among them), a results folder that is a
# file or holds the user's own files.
source "$(dirname "$0")/lib.bash"
source tests/tune/lib.bash

cp examples/pytorch/autoencoder_ddp.py "$WORK/train.py"
before=$(sha256sum "$WORK/train.py")
tune --results-dir "$WORK/results" --steps 10 --rounds 2 --caps 1,25 --replay-seconds 0.3 --rank-check 1 -- \
  "${launch[@]}" --nproc_per_node 2 "$WORK/train.py" --epochs 2 > "$WORK/tune.out" 2>&1 ||
  { cat "$WORK/tune.out"; fail "scripts/tune on the autoencoder"; }
cat "$WORK/tune.out"
[ "$(sha256sum "$WORK/train.py")" = "$before" ] || fail "the user's script was modified"
PYTHONPATH=bindings/torch/tune "$TORCH_PYTHON" tests/tune/check_capture.py "$WORK/results/job.json" ||
  fail "the captured job.json"
check_answer "$WORK/results"
"$TORCH_PYTHON" - "$WORK/results" <<'PY' || fail "the fidelity's runs are not all kept"
import json, os, re, sys
folder = sys.argv[1]
runs = json.load(open(os.path.join(folder, "defaults.json")))["runs_step_s"]
said = re.search(r"\((\d+) runs, defaults.json\)", open(os.path.join(folder, "answer.md")).read())
assert said and int(said.group(1)) == len(runs), (said and said.group(0), len(runs))
print(f"ok: the fidelity's {len(runs)} runs are all kept in defaults.json")
PY
# The ranking check: the configuration predicted fastest run in the job beside its defaults,
# each round, and the two orders compared.
"$TORCH_PYTHON" - "$WORK/results" <<'PY' || fail "the ranking check"
import json, os, sys
folder = sys.argv[1]
checked = json.load(open(os.path.join(folder, "ranking.json")))
[config] = checked["configurations"]
assert len(config["runs_step_s"]) == 2 and len(checked["defaults_runs_step_s"]) == 2, checked
assert checked["pairs_alike"] + checked["pairs_otherwise"] == 1, checked
line = [l for l in open(os.path.join(folder, "answer.md")) if l.startswith("Measured in the job: ")]
assert line and f"Kendall's tau {checked['kendall_tau']:.2f} over 2 configurations" in line[0], line
print(f"ok: the ranking check ran {config['backend']}, bucket_cap_mb {config['bucket_cap_mb']:g} "
      f"in the job: measured ×{config['measured_ratio'][0]:.2f}, predicted ×{config['predicted_ratio'][0]:.2f}")
PY
# The recorder's ranks agree on their step count once per run: one all_reduce of its own, not
# one a step until HARNESS_TUNE_MIN_SECONDS of steps are recorded.
PYTHONPATH="bindings/torch/tune/site:bindings/torch/tune" HARNESS_TUNE_MODE=run COUNT_FILE="$WORK/count" \
  HARNESS_TUNE_OUT="$WORK/count.json" HARNESS_TUNE_MIN_SECONDS=0.5 HARNESS_TUNE_STEPS=5 \
  "${launch[@]}" --nproc_per_node 2 tests/tune/counts_allreduces.py > "$WORK/count.out" 2>&1 ||
  { cat "$WORK/count.out"; fail "the counting job"; }
[ "$(wc -l < "$WORK/count.0")" -eq 1 ] && [ "$(wc -l < "$WORK/count.1")" -eq 1 ] ||
  fail "the recorder called all_reduce $(wc -l < "$WORK/count.0") times on rank 0, not once"
echo "ok: the recorder's ranks agree once per run"

# The user's files: a job that writes its log with mode "w", saves a checkpoint, then fails. Told up
# front; the log put back as it was, the checkpoint moved into the results folder.
echo "the user's own log" > "$WORK/job.log"
expect_error "the job failed" tune --results-dir "$WORK/files" --steps 1000 -- \
  "${launch[@]}" --nproc_per_node 2 tests/tune/writes_files.py --train-log "$WORK/job.log" \
  --checkpoint "$WORK/model.pt"
grep -q "^Your job will run at least 10 times" "$WORK/out" || fail "the tuner did not say up front how often it runs the job"
grep "^Put back\|^Files your job created" "$WORK/out" || true
[ "$(cat "$WORK/job.log")" = "the user's own log" ] || fail "the user's log was not put back: $(head -2 "$WORK/job.log")"
[ ! -e "$WORK/model.pt" ] && [ -s "$WORK/files/job_files$WORK/model.pt" ] ||
  fail "the checkpoint the job made was not moved into the results folder"
echo "ok: the job's writes leave the user's files as they were"

# The replay's buckets are DDP's: a job of several buckets, captured, and re-bucketed at its cap.
PYTHONPATH="bindings/torch/tune/site:bindings/torch/tune" HARNESS_TUNE_MODE=capture \
  HARNESS_TUNE_OUT="$WORK/buckets.json" HARNESS_TUNE_MIN_SECONDS=0 \
  "${launch[@]}" --nproc_per_node 2 tests/tune/many_buckets.py > "$WORK/buckets.out" 2>&1 ||
  { cat "$WORK/buckets.out"; fail "capturing a job of several buckets"; }
cat > "$WORK/buckets_experiment.json" <<EOF
{"name": "buckets", "description": "the captured job at its own cap", "kind": "replay",
 "settings": {"job": "$WORK/buckets.json", "world_size": 2, "backend": "gloo", "bucket_cap_mb": 0.1,
              "warmup_steps": 0, "min_steps": 1, "min_time_s": 0, "quiet_wait_s": 0}}
EOF
mpirun --bind-to none -np 2 "$HARNESS" "$WORK/buckets_experiment.json" --results-dir "$WORK/buckets" -q ||
  fail "replaying the job of several buckets"
PYTHONPATH=bindings/torch/tune "$TORCH_PYTHON" tests/tune/check_buckets.py "$WORK/buckets.json" \
  "$WORK"/buckets/buckets/*/trials.jsonl || fail "the replay's buckets differ from DDP's"
echo "ok: the replay's buckets are DDP's"
expect_error "tuning covers DDP jobs" tune --results-dir "$WORK/r2" -- \
  "${launch[@]}" --nproc_per_node 2 tests/tune/not_ddp.py
expect_error "planted failure in the user's training step" tune --results-dir "$WORK/r3" -- \
  "${launch[@]}" --nproc_per_node 2 tests/tune/crashing.py
# A job that ends with its own exit status 5 before the recording is done: failed, not tuned.
expect_error "the job failed" tune --results-dir "$WORK/r5" --warmup 0 --steps 50 -- \
  "${launch[@]}" --nproc_per_node 2 tests/tune/exits_5.py
# A job that never reaches DDP: given up at --job-timeout, and none of its processes left (torchrun
# starts each rank in a session of its own, so stopping the launcher alone would leave them).
expect_error "the job ran past 8 s (--job-timeout)" tune --results-dir "$WORK/r6" --job-timeout 8 -- \
  "${launch[@]}" --nproc_per_node 2 tests/tune/loops_before_ddp.py
left=$(pgrep -f tests/tune/loops_before_ddp.py || true)
[ -z "$left" ] || fail "processes of the timed-out job left running: $left"
echo "ok: a job timed out leaves no process behind"
# A plan applies to a job whatever case it spells gloo in, and the run says what it applied.
echo '{"plan_version": 1, "backend": "harness:shm", "bucket_cap_mb": 4, "compression": "none"}' > "$WORK/plan.json"
PYTHONPATH="bindings/torch/tune/site:bindings/torch/tune:$BUILD/python" HARNESS_TUNE_MODE=run \
  HARNESS_TUNE_OUT="$WORK/upper.json" HARNESS_TUNE_PLAN="$WORK/plan.json" HARNESS_TUNE_MIN_SECONDS=0 \
  HARNESS_TUNE_STEPS=5 "${launch[@]}" --nproc_per_node 2 tests/tune/gloo_spelled_upper.py \
  > "$WORK/upper.out" 2>&1 || { cat "$WORK/upper.out"; fail "the GLOO-spelled job with a plan"; }
"$TORCH_PYTHON" -c 'import json, sys; a = json.load(open(sys.argv[1]))["applied"]
assert a == {"backend": "harness", "bucket_cap_mb": 4.0, "compression": "none"}, a' "$WORK/upper.json" ||
  fail "the plan was not applied to a job that spells its backend GLOO"
echo "ok: a plan applies to a job that spells its backend GLOO"
expect_error "the model's parameters are on meta, not the CPU" tune --results-dir "$WORK/r4" -- \
  "${launch[@]}" --nproc_per_node 2 tests/tune/off_cpu.py
expect_error "the job asks for 64 ranks and this machine has" tune -- \
  "${launch[@]}" --nproc_per_node 64 "$WORK/train.py"
expect_error "the command starts no distributed job" tune -- "$TORCH_PYTHON" "$WORK/train.py"
# scripts/tune builds with scripts/setup --no-install: what is missing is named, nothing installed.
status=0
HARNESS_TORCH_PYTHON=/nonexistent/python scripts/setup --no-install --peer >"$WORK/setup.out" 2>&1 || status=$?
[ "$status" -eq 3 ] && grep -q "cannot import torch\|no PyTorch" "$WORK/setup.out" ||
  { cat "$WORK/setup.out"; fail "setup --no-install without a torch: exit $status"; }
grep -q -- "--no-install" scripts/tune || fail "scripts/tune builds with set-up that may install"
echo "ok: the tuner's set-up installs nothing and names what is missing"
# Bad options and results folders: refused by name, before the job runs, nothing overwritten.
expect_error "argument --rounds: 0 is below 1" tune --rounds 0 -- "${launch[@]}" --nproc_per_node 2 "$WORK/train.py"
expect_error "argument --replay-seconds: inf: expected a number of seconds from 0 to 600" tune --replay-seconds inf -- \
  "${launch[@]}" --nproc_per_node 2 "$WORK/train.py"
expect_error "argument --caps: '': expected numbers of MB" tune --caps "" -- \
  "${launch[@]}" --nproc_per_node 2 "$WORK/train.py"
touch "$WORK/a_file"
expect_error "--results-dir $WORK/a_file: is a file, not a folder" tune --results-dir "$WORK/a_file" -- \
  "${launch[@]}" --nproc_per_node 2 "$WORK/train.py"
mkdir "$WORK/mine" && echo mine > "$WORK/mine/plan.json"
expect_error "holds files that no tuning made" tune --results-dir "$WORK/mine" -- \
  "${launch[@]}" --nproc_per_node 2 "$WORK/train.py"
[ "$(cat "$WORK/mine/plan.json")" = mine ] || fail "the user's plan.json was overwritten"
