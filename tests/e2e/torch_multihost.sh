# A PyTorch job across hosts, launched as PyTorch users launch one on a cluster: torchrun on each
# of the test bed's two hosts (scripts/testbed torchrun: 2 hosts x 2 ranks, network namespaces
# joined by a bridge), the hosts meeting at host 1's c10d store. Through harness:hierarchical (shm
# within each host, ring across them over the bed's link, both bootstrapped through the store)
# every collective gives the known results and gloo's, and DDP and FSDP2 training gives the
# losses gloo gives; a subgroup holding more ranks on one host than on the other is refused on each
# of its ranks.
# Skipped (exit 77) where network namespaces cannot be made, or harness_torch is not built.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/torch_lib.bash"
status=0
scripts/testbed up -k 2 >"$WORK/up.out" 2>&1 || status=$?
if [ "$status" -eq 4 ]; then echo "SKIP: $(cat "$WORK/up.out")"; exit 77; fi
[ "$status" -eq 0 ] || { cat "$WORK/up.out"; fail "scripts/testbed up: exit $status"; }
trap 'scripts/testbed down >/dev/null 2>&1; rm -rf "$WORK" "$SEGMENTS"' EXIT
# Each host's torchrun starts in the project's folder: the interpreter by its full path (not
# resolving links: a virtual environment's python is one).
python=$(realpath -s "$(command -v "$TORCH_PYTHON")")
export HARNESS_BACKEND=hierarchical HARNESS_BACKEND_PARAMS='{"inter": "ring"}'
# A failed launch: torchrun's account of the rank that failed first, then the lines of every
# host without the stack frames (the host stopped after it prints the longest traceback).
show() {
  grep -A12 "Root Cause" "$1" || true
  grep -v '^frame #\|^  File \|^    ' "$1" | tail -"$2"
}

timeout 150 scripts/testbed torchrun "$python" "$PWD/tests/torch/collectives.py" \
  >"$WORK/collectives" 2>&1 || { show "$WORK/collectives" 40; fail "collectives across hosts"; }
grep -q "ok: collectives through harness:hierarchical at world 4" "$WORK/collectives" ||
  { show "$WORK/collectives" 40; fail "no ok line from the collectives across hosts"; }
echo "ok: every collective through harness:hierarchical, 2 hosts x 2 ranks"

timeout 240 scripts/testbed torchrun "$python" "$PWD/tests/torch/train_losses.py" \
  "DDP autoencoder" "DDP transformer" "FSDP2 transformer" >"$WORK/train" 2>&1 ||
  { show "$WORK/train" 40; fail "training across hosts through harness:hierarchical"; }
grep -q "backend: hierarchical: shm within hosts (.*), ring across 2 hosts" "$WORK/train" ||
  { show "$WORK/train" 40; fail "the job did not run shm within and ring across 2 hosts"; }
grep ": .* steps, loss" "$WORK/train" | sed 's/^\[[^]]*\]:*//' | sort -u || true
[ "$(grep -o "largest relative difference [-+.e0-9]*: ok" "$WORK/train" | wc -l)" -eq 3 ] ||
  { show "$WORK/train" 40; fail "not every job's losses were gloo's"; }
echo "ok: DDP and FSDP2 across 2 hosts x 2 ranks through harness:hierarchical give gloo's losses"

# A subgroup of 2 ranks on one host and 1 on the other: refused on each of its ranks, the world's
# group unharmed.
timeout 120 scripts/testbed torchrun "$python" "$PWD/tests/torch/uneven_hosts.py" \
  >"$WORK/uneven" 2>&1 || { show "$WORK/uneven" 30; fail "an uneven subgroup across hosts"; }
# The hosts' lines share one pipe and may run into each other: count the verdicts, not lines.
[ "$(grep -o "the hosts hold 1 to 2 ranks of the group; it needs the same number on each: ok" \
     "$WORK/uneven" | wc -l)" -eq 3 ] ||
  { show "$WORK/uneven" 30; fail "the uneven subgroup was not refused on each of its ranks"; }
echo "ok: a subgroup of 2 + 1 ranks across the hosts refused on each of its ranks, the world's unharmed"
