# The torch.distributed backend "harness" (bindings/torch) on the project's PyTorch 2.x, under
# torchrun as a PyTorch user launches it: every collective DDP, FSDP2 and
# ZeroRedundancyOptimizer call, checked like a backend's (tests/torch/collectives.py) through
# shm and ring at world 2, in fp32, fp64, fp16, bf16 and the integer types, against known
# results and against PyTorch's gloo; then DDP and FSDP2 training of the seed's autoencoder and a
# small Transformer through shm, whose losses must be gloo's (tests/torch/train_losses.py).
# World 3 and training through ring: the heavy tier's torch_backend.sh (both through torch_lib.bash).
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/torch_lib.bash"

check_collectives shm 2
check_collectives ring 2
check_training shm
