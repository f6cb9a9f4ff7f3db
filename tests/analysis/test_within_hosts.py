"""A composed backend's level within hosts, read from the record's typed field
(backend.within_hosts), and from the algorithm's words for records written before it."""
from harness_analysis.labels import host_level_by_halves


def record(**backend):
    return {"kind": "collective", "backend": dict(name="hierarchical", **backend)}


def test_the_typed_field_decides():
    assert host_level_by_halves(record(within_hosts="reduce_scatter+allgather", algorithm="x"))
    # The words alone never override the field.
    assert not host_level_by_halves(
        record(within_hosts="allreduce", algorithm="shm within hosts (by reduce-scatter + allgather)"))


def test_older_records_are_read_from_their_words():
    assert host_level_by_halves(record(algorithm="hierarchical: shm within hosts (x; by reduce-scatter + allgather)"))
    assert not host_level_by_halves(record(algorithm="hierarchical: shm within hosts (x; by allreduces)"))
    assert not host_level_by_halves(record())
