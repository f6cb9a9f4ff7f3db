# Shared by the tests of the PyTorch side (sourced after lib.bash): the torch they run on and a
# torchrun of it. HARNESS_TORCH_PYTHON (ctest passes the build's) is the Python whose torch the
# harness_torch backend was built for; a build without it skips (77), saying why.
BUILD=$(cd "$(dirname "$HARNESS")" && pwd)
TORCH_PYTHON=${HARNESS_TORCH_PYTHON:-.venv/bin/python}
if [ -f "$BUILD/python/harness_torch.not-built" ]; then
  echo "skipped: harness_torch is not built: $(cat "$BUILD/python/harness_torch.not-built")"
  exit 77
fi
[ -f "$BUILD/python/harness_torch/__init__.py" ] || fail "no harness_torch in $BUILD/python"
export PYTHONPATH="$BUILD/python${PYTHONPATH:+:$PYTHONPATH}" OMP_NUM_THREADS=1
echo "torch $("$TORCH_PYTHON" -c 'import torch; print(torch.__version__)') ($TORCH_PYTHON)"
# torchrun --standalone always takes port 29400, which another job on the machine may hold: a
# free port instead.
torchrun() {
  local port
  port=$("$TORCH_PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$TORCH_PYTHON" -m torch.distributed.run --nnodes 1 --rdzv_backend c10d \
    --rdzv_endpoint "127.0.0.1:$port" --rdzv_id "$$" "$@"
}

# check_collectives PLUGIN WORLD: tests/torch/collectives.py through harness:PLUGIN.
check_collectives() {
  HARNESS_BACKEND=$1 torchrun --nproc_per_node "$2" tests/torch/collectives.py > "$WORK/$1$2" 2>&1 ||
    { cat "$WORK/$1$2"; fail "collectives through $1 at world $2"; }
  grep -q "ok: collectives through harness:$1 at world $2" "$WORK/$1$2" ||
    { cat "$WORK/$1$2"; fail "no ok line from the $1 collectives at world $2"; }
  echo "ok: every collective through harness:$1 at world $2"
}
# check_training PLUGIN: DDP and FSDP2 losses through harness:PLUGIN equal gloo's.
check_training() {
  HARNESS_BACKEND=$1 torchrun --nproc_per_node 2 tests/torch/train_losses.py > "$WORK/train" 2>&1 ||
    { cat "$WORK/train"; fail "training losses through harness:$1 differ from gloo's"; }
  grep ": .* steps, loss" "$WORK/train" | sed "s/^\[[^]]*\]:*/$1: /" | sort -u
}
