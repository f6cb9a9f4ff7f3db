# scripts/tune on both examples (examples/pytorch) at world 2, the seed's autoencoder launched by
# mpirun (torchrun's launch is e2e_tune's), the Transformer with fewer rounds and caps than the
# defaults: each ends with an Answer, and a plan only where the job measured it faster beyond
# the noise. Prints the Answers.
source "$(dirname "$0")/lib.bash"
source tests/tune/lib.bash

tune --results-dir "$WORK/mpirun" --steps 10 --rounds 2 --caps 25 -- \
  $MPIRUN -np 2 "$TORCH_PYTHON" examples/pytorch/autoencoder_ddp.py --epochs 2 \
  > "$WORK/out" 2>&1 || { cat "$WORK/out"; fail "scripts/tune on the autoencoder under mpirun"; }
check_answer "$WORK/mpirun"
tune --results-dir "$WORK/transformer" --rounds 2 --caps 10,50 --steps 10 -- \
  "${launch[@]}" --nproc_per_node 2 examples/pytorch/transformer_ddp.py > "$WORK/out" 2>&1 || { cat "$WORK/out"; fail "scripts/tune on the Transformer"; }
check_answer "$WORK/transformer"
