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
