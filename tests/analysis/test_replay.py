"""The Answer for replay trials: per captured job, the configuration with the shortest replayed
step, against the job's own configuration only where the interval of their ratio clears 1."""
from harness_analysis import replay
from harness_analysis.record_schema import as_record


def record(backend, cap, steps, compression="none", status="ok", content="c1", crowded=False):
    return as_record({"kind": "replay", "status": status, "measured": status == "ok",
                      "oversubscribed": crowded, "model_files": {"job": content},
                      "settings": {"backend": backend, "bucket_cap_mb": cap, "compression": compression},
                      "job": {"file": "job.json", "backend": "gloo", "bucket_cap_mb": 25},
                      "step_times_ms": steps})


def test_the_fastest_configuration_is_named_with_its_ratio_over_the_jobs_own():
    own = [100.0, 102.0, 98.0, 101.0, 99.0] * 4
    fast = [80.0, 81.0, 79.0, 80.5, 79.5] * 4
    lines = replay.answer_lines([record("gloo", 25, own), record("shm", 4, fast[:10]),
                                 record("shm", 4, fast[10:]), record("ring", 25, [500.0], status="failed"),
                                 record("ring", 4, [1.0] * 20, crowded=True)])
    assert len(lines) == 1
    assert "**shm, bucket_cap_mb 4** 80.0 ms a step, ×1.25" in lines[0]
    assert "over the job's own (gloo, bucket_cap_mb 25)" in lines[0]


def test_a_configuration_within_the_noise_of_the_jobs_own_is_said_to_be():
    own = [100.0, 140.0, 60.0, 120.0, 80.0] * 4
    other = [99.0, 139.0, 59.0, 119.0, 79.0] * 4
    lines = replay.answer_lines([record("gloo", 25, own), record("shm", 25, other, "fp16")])
    assert "**shm, bucket_cap_mb 25, fp16**" in lines[0] and "within noise" in lines[0]
    assert replay.answer_lines([record("train_is_not_replay", 25, own, status="failed")]) == []


def test_two_captures_under_one_path_are_two_jobs():
    lines = replay.answer_lines([record("gloo", 25, [100.0] * 5), record("shm", 25, [50.0] * 5, content="c2")])
    assert len(lines) == 2
