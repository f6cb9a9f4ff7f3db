# The torch.distributed backend "harness" (bindings/torch) on the project's PyTorch 2.x, under
# torchrun as a PyTorch user launches it: every collective DDP, FSDP2 and
# ZeroRedundancyOptimizer call, checked like a backend's (tests/torch/collectives.py) through
# shm and ring at world 2, in fp32, fp64, fp16, bf16 and the integer types, against known
# results and against PyTorch's gloo; then DDP and FSDP2 training of the seed's autoencoder and a
# small Transformer through shm, whose losses must be gloo's (tests/torch/train_losses.py); and
# a job that ends while a collective's future still runs a callback exits cleanly.
# World 3 and training through ring: the heavy tier's torch_backend.sh (both through torch_lib.bash).
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/torch_lib.bash"

check_collectives shm 2
check_collectives ring 2
check_training shm

# The job ends while the backend's threads are busy (a future's callback running, or the
# allreduce itself still in flight), holding the call's tensors: the interpreter's exit waits
# for them to drop those, and never aborts.
for ending in exit_in_callback exit_in_flight; do
  HARNESS_JOIN_TEST_FAULT=$ending TORCH_PYTHON="$TORCH_PYTHON" timeout 120 bash -c "$(declare -f torchrun); torchrun --nproc_per_node 2 tests/torch/join.py" \
    > "$WORK/$ending" 2>&1 || { cat "$WORK/$ending"; fail "$ending: the job failed"; }
  # The ranks' lines share one pipe and may run into each other: count the lines' words.
  [ "$(grep -o "leaving while the backend's threads are busy" "$WORK/$ending" | wc -l)" -eq 2 ] ||
    { cat "$WORK/$ending"; fail "$ending: not every rank reached the job's end"; }
  ! grep -q "terminate called" "$WORK/$ending" || { cat "$WORK/$ending"; fail "$ending: a rank aborted at its exit"; }
  echo "ok: $ending: the job ends cleanly on every rank"
done
