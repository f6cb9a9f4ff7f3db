# The torch.distributed backend "harness" (bindings/torch) on the project's PyTorch 2.x, under
# torchrun as a PyTorch user launches it: every collective DDP, FSDP2 and
# ZeroRedundancyOptimizer call, checked like a backend's (tests/torch/collectives.py) on every
# plugin that joins without MPI (shm, ring), at world 2 and 3, in fp32, fp64, fp16, bf16 and
# the integer types, against known results and against PyTorch's gloo; then DDP and FSDP2
# training of the seed's autoencoder and a small Transformer, whose losses must be gloo's
# (tests/torch/train_losses.py).
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/torch_lib.bash"

for plugin in shm ring; do
  for world in 2 3; do
    HARNESS_BACKEND=$plugin torchrun --nproc_per_node "$world" tests/torch/collectives.py \
      > "$WORK/$plugin$world" 2>&1 ||
      { cat "$WORK/$plugin$world"; fail "collectives through $plugin at world $world"; }
    grep -q "ok: collectives through harness:$plugin at world $world" "$WORK/$plugin$world" ||
      { cat "$WORK/$plugin$world"; fail "no ok line from the $plugin collectives at world $world"; }
    echo "ok: every collective through harness:$plugin at world $world"
  done
done

for plugin in shm ring; do
  HARNESS_BACKEND=$plugin torchrun --nproc_per_node 2 tests/torch/train_losses.py > "$WORK/train" 2>&1 ||
    { cat "$WORK/train"; fail "training losses through harness:$plugin differ from gloo's"; }
  grep ": .* steps, loss" "$WORK/train" | sed "s/^\[[^]]*\]:*/$plugin: /" | sort -u
done
