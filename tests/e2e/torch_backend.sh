# The torch.distributed backend "harness" (bindings/torch) under torchrun, as a PyTorch user
# launches it: the clear errors (a missing plugin, bad parameters, a plugin that needs MPI, ranks
# that disagree, a failure on one rank, a peer that never calls); and what the quick tier's
# torch_conformance.sh leaves out: the collectives at world 3, training through ring.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/torch_lib.bash"

check_collectives shm 3
check_collectives ring 3
check_training ring

# Clear errors, on every rank, fast.
refused() {  # EXPECTED_TEXT ENVIRONMENT...
  local expected=$1; shift
  local status=0
  env "$@" TORCH_PYTHON="$TORCH_PYTHON" timeout 120 bash -c "$(declare -f torchrun); torchrun --nproc_per_node 2 tests/torch/join.py" \
    > "$WORK/refused" 2>&1 || status=$?
  [ "$status" -ne 0 ] && [ "$status" -ne 124 ] || { cat "$WORK/refused"; fail "exit $status with $*"; }
  grep -qF -- "$expected" "$WORK/refused" || { cat "$WORK/refused"; fail "missing '$expected' with $*"; }
  echo "ok: $* refused: $expected"
}
refused "HARNESS_BACKEND: nosuch is no communicator plugin (available:" HARNESS_BACKEND=nosuch
refused "HARNESS_BACKEND_PARAMS for shm: /chunk_bytes" HARNESS_BACKEND_PARAMS='{"chunk_bytes": "big"}'
refused "HARNESS_BACKEND_PARAMS: not JSON" HARNESS_BACKEND_PARAMS='{chunk'
refused "mpi joins or sends through MPI, and this group is PyTorch's" HARNESS_BACKEND=mpi
refused "HARNESS_BACKEND_PARAMS for hierarchical: " HARNESS_BACKEND=hierarchical
refused "mpi (across hosts): mpi joins or sends through MPI" HARNESS_BACKEND=hierarchical \
  HARNESS_BACKEND_PARAMS='{"inter": "mpi"}'
refused "HARNESS_BACKEND_PARAMS /intra: nosuch is no communicator plugin" \
  HARNESS_BACKEND=hierarchical HARNESS_BACKEND_PARAMS='{"inter": "ring", "intra": "nosuch"}'
refused "the ranks disagree: rank 1 asks for" HARNESS_JOIN_TEST_FAULT=skew
# A failure inside one rank's collective: its wait and its peer's end with the plugin's message.
refused "harness:shm allreduce: shm: the ranks' buffers differ" HARNESS_JOIN_TEST_FAULT=count
# Ranks that sum types of one size (fp16 here, bf16 there) fail alike, never each with its own number.
refused "harness:shm allreduce: shm: the ranks' buffers differ in element count or type" \
  HARNESS_JOIN_TEST_FAULT=dtype
refused "sent 4 bytes of another element type than this rank's where this rank expected 4" \
  HARNESS_BACKEND=ring HARNESS_JOIN_TEST_FAULT=dtype
# The ring (TCP) too: a message of another length than expected fails both ranks, naming both.
refused "the ranks called the collective with different sizes" HARNESS_BACKEND=ring \
  HARNESS_JOIN_TEST_FAULT=count
# One rank's call failing inside the plugin before it meets its peer: the peer's wait ends at
# once with that rank's message (announced through the store), not at the timeout.
refused "failed because a peer's collective failed: rank 1: harness:shm broadcast: broadcast root 7" \
  HARNESS_JOIN_TEST_FAULT=root
grep -q "rank 0: allreduce ended after [0-2]\.[0-9] s" "$WORK/refused" ||
  { cat "$WORK/refused"; fail "rank 0's wait did not end soon after rank 1's failure"; }
# A peer that never calls: the wait ends at the group's timeout (10 s), saying so.
refused "did not complete within the process group's timeout (10 s)" HARNESS_JOIN_TEST_FAULT=absent
grep -q "rank 0: allreduce ended after 1[0-4]\.[0-9] s" "$WORK/refused" ||
  { cat "$WORK/refused"; fail "rank 0's wait did not end soon after the 10 s timeout"; }
