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

# The job ends while the backend's thread still completes a future (its callback sleeps): the
# interpreter's exit waits for that thread to drop the call's tensors, and never aborts.
HARNESS_JOIN_TEST_FAULT=exit_in_callback torchrun --nproc_per_node 2 tests/torch/join.py \
  > "$WORK/exit" 2>&1 || { cat "$WORK/exit"; fail "a job ending while a future's callback ran"; }
[ "$(grep -c "leaving while the future's callback runs" "$WORK/exit")" -eq 2 ] ||
  { cat "$WORK/exit"; fail "not every rank reached the job's end"; }
! grep -q "terminate called" "$WORK/exit" || { cat "$WORK/exit"; fail "a rank aborted at its exit"; }
echo "ok: a job ending while a future's callback runs exits cleanly on every rank"
