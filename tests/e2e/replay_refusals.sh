# A replay trial refuses what it cannot replay before anything runs, naming the setting and what
# was expected: a job captured at another world size, a damaged job.json, a captured step longer
# than the trial's timeout, gradients of a type the backend does not reduce, a parameter whose
# bytes would overflow, a composition of the harness's joined as inside PyTorch; and a job whose gradients would not fit in this host's memory fails
# its trial with the figures, on every rank at once, and the sweep goes on
# (tests/fixtures/job.json, a small capture). The harness and scripts/tune's Python reader refuse
# a damaged job.json with the same words.
source "$(dirname "$0")/lib.bash"

# experiment NAME JOB [SETTING=VALUE...]: a one-trial replay of JOB.
experiment() {
  local name=$1 job=$2
  shift 2
  /usr/bin/python3 - "$WORK/experiment_$name.json" "$job" "$@" <<'PY'
import json, sys
settings = {"job": sys.argv[2], "world_size": 2, "backend": "shm", "min_steps": 2, "min_time_s": 0,
            "quiet_wait_s": 0}
for pair in sys.argv[3:]:
    key, value = pair.split("=", 1)
    settings[key] = json.loads(value)
json.dump({"name": "refusal", "kind": "replay", "settings": settings}, open(sys.argv[1], "w"))
PY
  echo "$WORK/experiment_$name.json"
}
# changed_job NAME PYTHON: the fixture with PYTHON applied to it (as `job`).
changed_job() {
  /usr/bin/python3 -c "import json, sys; job = json.load(open('tests/fixtures/job.json')); $2; json.dump(job, open(sys.argv[1], 'w'))" "$WORK/$1"
  echo "$WORK/$1"
}

expect_error "differs from the world size 2 tests/fixtures/job.json was captured at" \
  "$HARNESS" "$(experiment world3 tests/fixtures/job.json world_size=3)" --dry-run
expect_error 'damaged.json: field "steps[1].ready_s" has 2 entries for 3 parameters' \
  "$HARNESS" "$(experiment damaged "$(changed_job damaged.json 'job["steps"][1]["ready_s"].pop()')")" --dry-run
expect_error 'newer.json: field "job_version" is 3, newer than this reader' \
  "$HARNESS" "$(experiment newer "$(changed_job newer.json 'job["job_version"] = 3')")" --dry-run
expect_error "its median step lasts 277h47m, and every replayed step must end within timeout_s" \
  "$HARNESS" "$(experiment slow "$(changed_job slow.json '[s.update(step_s=1e6) for s in job["steps"]]')")" --dry-run
expect_error '/settings/job: is empty' "$HARNESS" "$(experiment empty '')" --dry-run
expect_error 'join: "bootstrap" joins a plugin as PyTorch'"'"'s harness process group does; a replay of hierarchical (a composition of the harness'"'"'s) joins it through MPI only' \
  "$HARNESS" "$(experiment composed tests/fixtures/job.json 'backend="hierarchical"' 'join="bootstrap"' \
  'backend_params={"inter": "ring"}')" --dry-run
expect_error 'backend "gloo" does not reduce bf16' "$HARNESS" "$(experiment bf16 \
  "$(changed_job bf16.json '[p.update(dtype="bfloat16") for p in job["parameters"]]')" 'backend="gloo"')" --dry-run
expect_error '"parameters[0].numel" is 4611686018427387904, expected a count from 0 to' \
  "$HARNESS" "$(experiment wraps "$(changed_job wraps.json 'job["parameters"][0]["numel"] = 2**62')")" --dry-run

# Both readers of job.json derive from its one declaration (file_formats.json): the tune
# package's Python reader and the harness refuse each damaged file with the same words.
same_refusal() {
  local job words
  job=$(changed_job "$1" "$2")
  words=$(PYTHONPATH=bindings/torch/tune /usr/bin/python3 -c "
import sys
from harness_tune import job_file
try:
    job_file.read_job(sys.argv[1])
except job_file.FileError as error:
    print(error)
else:
    sys.exit('the Python reader took $1')" "$job") || fail "$words"
  expect_error "$words" "$HARNESS" "$(experiment "${1%.json}" "$job")" --dry-run
}
same_refusal no_cap.json 'del job["bucket_cap_mb"]'
same_refusal cap_zero.json 'job["bucket_cap_mb"] = 0'
same_refusal rule.json 'job["first_bucket_rule"] = "sometimes"'
same_refusal dtype.json 'job["parameters"][1]["dtype"] = "int64"'
same_refusal ready.json 'job["steps"][0]["ready_s"][0] = -1'
same_refusal ready_count.json 'job["steps"][1]["ready_s"].pop()'
same_refusal bucket.json 'job["steps"][0]["buckets"][0]["bytes"] = "many"'
same_refusal no_steps.json 'job["steps"] = []'
same_refusal world.json 'job["world_size"] = 0'
same_refusal newer_too.json 'job["job_version"] = 3'
same_refusal old_rule.json 'job["job_version"] = 1; job["first_bucket_rule"] = 5'
same_refusal step_object.json 'job["steps"][0] = 5'
same_refusal utf8.json 'job["parameters"][0]["dtype"] = "fl\u00f6at32" * 20'
same_refusal huge_count.json 'job["parameter_count"] = 2**63'

huge=$(changed_job huge.json 'job["parameters"][0]["numel"] = 10**12')
$MPIRUN -np 2 "$HARNESS" "$(experiment huge "$huge")" --results-dir "$WORK/r" -q ||
  fail "a trial that cannot fit should fail alone, not the job"
grep -q '"status":"failed".*the job.s gradients on 2 ranks (about 8000.0 GB each) needs about' \
  "$WORK"/r/refusal/*/trials.jsonl || fail "the huge job's trial: $(cat "$WORK"/r/refusal/*/trials.jsonl)"
echo "ok: a job too large for this host fails its trial with the figures"
