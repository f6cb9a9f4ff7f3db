# Shared by the scripts/tune tests (tests/e2e/tune.sh, tune_examples.sh); sourced after
# tests/e2e/lib.bash. The user's job runs on the project's PyTorch (torch_lib.bash: skips where
# the harness backend is not built for it).
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/torch_lib.bash"
tune() {  # scripts/tune without its build step: the tests build what they run
  PYTHONPATH=scripts:bindings/torch/tune /usr/bin/python3 -m harness_tune.tuner \
    --python-path "$BUILD/python" --harness "$HARNESS" "$@"
}
# A user's torchrun launch, on a port of its own (--standalone's 29400 may be taken).
port=$("$TORCH_PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
launch=("$TORCH_PYTHON" -m torch.distributed.run --nnodes 1 --rdzv_backend c10d
        --rdzv_endpoint "127.0.0.1:$port")

# check_answer RESULTS_DIR: an Answer, and a plan only where the job measured it faster
# beyond the noise (its measured interval above 1, recorded in plan.json).
check_answer() {
  grep -q "^Answer: " "$1/answer.md" || fail "no Answer in $1/answer.md"
  grep "^Answer: \|^Replay of\|^Captured\|^The job's gloo replayed on" "$1/answer.md"
  grep -q "^The job's gloo replayed on PyTorch [0-9][0-9.]* ProcessGroupGloo" "$1/answer.md" ||
    fail "the Answer does not say which PyTorch's ProcessGroupGloo the replay ran"
  if grep -q "^Answer: Use " "$1/answer.md"; then
    local low
    low=$(sed -n 's/.*measured in your job ×[0-9.]* \[\([0-9.]*\), .*/\1/p' "$1/answer.md")
    /usr/bin/python3 -c "import sys; sys.exit(0 if float('$low') > 1 else 1)" ||
      fail "a plan recommended though its measured interval starts at $low"
    grep -q '"measured_ratio"' "$1/plan.json" || fail "plan.json without its measurement"
  else
    grep -Eq "^Answer: (Keep PyTorch's defaults|No plan)" "$1/answer.md" ||
      fail "an Answer that is neither a plan nor the defaults"
  fi
}
