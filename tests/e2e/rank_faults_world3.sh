# A backend that fails on one rank, at 3 ranks (rank_faults.sh: at 2, and a crash): the trial is
# failed on every rank with that rank's message, fast, and the sweep goes on; over ring and gloo,
# in collective trials, ddp with overlap and sharded training. NaN and infinities in one rank's
# output are wrong, and so is a NaN in one rank's shard, which the allgather would copy to every
# replica.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/rank_faults.bash"

experiment coll_ring3 collective 3 "\"collective\": \"allgather\", $COLLECTIVE" \
  '{"inner": "ring", "rank": 2, "call": 6}'
run_case coll_ring3 3 failed "rank 2: allgather: faulty: injected error in allgather call 6 on rank 2"
experiment coll_gloo3 collective 3 "\"collective\": \"reduce_scatter\", $COLLECTIVE" \
  '{"inner": "gloo", "rank": 1, "call": 2}'
run_case coll_gloo3 3 failed "rank 1: reduce_scatter: faulty: injected error"
experiment ddp_overlap3 train 3 "$TRAIN, \"overlap\": true" \
  '{"inner": "ring", "rank": 2, "collective": "allreduce", "call": 7}'
run_case ddp_overlap3 3 failed "rank 2: allreduce: faulty: injected error in allreduce call 7"
experiment sharded_scatter3 train 3 "$TRAIN, \"strategy\": \"sharded\"" \
  '{"inner": "gloo", "rank": 1, "collective": "reduce_scatter", "call": 5}'
run_case sharded_scatter3 3 failed "rank 1: reduce_scatter: faulty: injected error in reduce_scatter call 5"
experiment coll_inf3 collective 3 "\"collective\": \"allgather\", $COLLECTIVE" \
  '{"inner": "ring", "rank": 2, "fault": "inf", "repeat": true}'
run_case coll_inf3 3 failed "wrong elements"
# A NaN in one rank's shard: the allgather copies it to every replica (equal, and wrong); the
# shard check names the rank and the step before any loss turns NaN.
experiment sharded_nan3 train 3 "$TRAIN, \"strategy\": \"sharded\"" \
  '{"inner": "mpi", "rank": 1, "collective": "reduce_scatter", "fault": "nan", "call": 5}'
run_case sharded_nan3 3 failed "rank 1: reduce_scatter returned 1 NaN or infinite element(s) in its shard"
