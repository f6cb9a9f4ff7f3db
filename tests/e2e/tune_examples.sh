# scripts/tune on both examples (examples/pytorch) at world 2, the seed's autoencoder launched by
# mpirun (torchrun's launch is e2e_tune's), the Transformer with fewer rounds and caps than the
# defaults: each ends with an Answer, and a plan only where the job measured it faster beyond
# the noise. Prints the Answers.
source "$(dirname "$0")/lib.bash"
BUILD=$(cd "$(dirname "$HARNESS")" && pwd)
/usr/bin/python3 -c "import torch" 2>/dev/null ||
  { echo "skipped: Debian's python3-torch is not installed (scripts/setup --peer)"; exit 77; }
export OMP_NUM_THREADS=1
tune() { scripts/analysis tune --python-path "$BUILD/python" "$@"; }
torchrun=(/usr/bin/python3 -m torch.distributed.run --standalone --redirects 1 --tee 1 --nproc_per_node 2)

check_answer() {  # RESULTS_DIR
  grep -q "^Answer: " "$1/answer.md" || fail "no Answer in $1/answer.md"
  grep "^Answer: \|^Replay of\|^Captured" "$1/answer.md"
  if grep -q "^Answer: Use " "$1/answer.md"; then
    local low
    low=$(sed -n 's/.*measured in your job ×[0-9.]* \[\([0-9.]*\), .*/\1/p' "$1/answer.md")
    /usr/bin/python3 -c "import sys; sys.exit(0 if float('$low') > 1 else 1)" ||
      fail "a plan recommended though its measured interval starts at $low"
  fi
}

tune --results-dir "$WORK/mpirun" --steps 10 --rounds 2 --caps 25 -- \
  $MPIRUN -np 2 /usr/bin/python3 examples/pytorch/autoencoder_ddp.py --epochs 2 \
  > "$WORK/out" 2>&1 || { cat "$WORK/out"; fail "scripts/tune on the autoencoder under mpirun"; }
check_answer "$WORK/mpirun"
tune --results-dir "$WORK/transformer" --rounds 2 --caps 10,50 --steps 10 -- "${torchrun[@]}" examples/pytorch/transformer_ddp.py \
  > "$WORK/out" 2>&1 || { cat "$WORK/out"; fail "scripts/tune on the Transformer"; }
check_answer "$WORK/transformer"
