"""scripts/tune's pieces that need no job: the launch command's world size, the ratio and its
interval, the plan's lines, and the job and plan files' readers."""
import argparse
import json

import pytest

from harness_analysis import stats
from harness_tune import job_file, ranking, step_time
from harness_tune import launch as tune_launch
from harness_tune import tuner as tune


def test_world_size_of_torchrun_and_mpirun_commands():
    assert tune_launch.world_size(["python3", "-m", "torch.distributed.run", "--nproc_per_node", "2", "t.py"]) == ("torchrun", 2)
    assert tune_launch.world_size(["torchrun", "--nproc-per-node=3", "t.py"]) == ("torchrun", 3)
    assert tune_launch.world_size(["mpirun", "-np", "4", "python3", "t.py"]) == ("mpirun", 4)
    with pytest.raises(tune_launch.JobError, match="starts no distributed job"):
        tune_launch.world_size(["python3", "t.py"])
    with pytest.raises(tune_launch.JobError, match="one host"):
        tune_launch.world_size(["torchrun", "--nnodes", "2", "--nproc_per_node", "2", "t.py"])


def test_the_scripts_own_options_are_not_the_launchers():
    """train.py --nproc_per_node 4 is the script's option: the job runs torchrun's 1 rank."""
    launch = ["python3", "-m", "torch.distributed.run", "--nnodes", "1", "--standalone",
              "--nproc_per_node", "1", "t.py", "--nproc_per_node", "4"]
    assert tune_launch.world_size(launch) == ("torchrun", 1)
    with pytest.raises(tune_launch.JobError, match="1 rank: there is no communication"):
        tune_launch.check_world(launch)
    with pytest.raises(tune_launch.JobError, match="names no rank count"):
        tune_launch.world_size(["torchrun", "t.py", "--nproc_per_node", "2"])
    assert tune_launch.world_size(["mpirun", "--bind-to", "none", "-np", "2", "python3", "t.py",
                                   "-np", "8"]) == ("mpirun", 2)


def test_a_plan_the_job_did_not_take_is_refused_by_what_differs():
    plan = {"backend": "harness:shm", "bucket_cap_mb": 4.0, "compression": "none"}
    tune.check_applied(plan, {"backend": "harness", "bucket_cap_mb": 4.0, "compression": "none"})
    with pytest.raises(tune_launch.JobError, match="backend 'gloo' where the plan has 'harness'"):
        tune.check_applied(plan, {"backend": "gloo", "bucket_cap_mb": 4.0, "compression": "none"})
    with pytest.raises(tune_launch.JobError, match="bucket_cap_mb 25.0 where the plan has 4.0"):
        tune.check_applied(plan, {"backend": "harness", "bucket_cap_mb": 25.0, "compression": "none"})


def test_ratio_interval_holds_the_ratio_and_says_when_two_samples_are_alike():
    slow, fast = [2.0, 2.1, 1.9, 2.05, 1.95] * 4, [1.0, 1.05, 0.95, 1.02, 0.98] * 4
    ratio, low, high = stats.ratio_interval(slow, fast)
    assert ratio == pytest.approx(2.0, rel=0.05) and 1.5 < low <= ratio <= high < 2.5
    ratio, low, high = stats.ratio_interval(slow, list(reversed(slow)))
    assert low <= 1 <= high


def test_the_plan_lines_name_backend_cap_and_hook():
    lines = tune.script_lines({"backend": "harness:shm", "bucket_cap_mb": 4.0, "compression": "fp16"})
    assert 'dist.init_process_group("harness")' in lines
    assert "model = DDP(model, bucket_cap_mb=4)" in lines
    assert any("fp16_compress_hook" in line for line in lines)
    assert tune.script_lines({"backend": "gloo", "bucket_cap_mb": 25, "compression": "none"})[0] == \
        'dist.init_process_group("gloo")'


def test_the_replay_runs_a_job_backend_on_the_plugin_of_that_name():
    assert tune.replay_backend("harness:shm") == "shm"
    assert tune.replay_backend("gloo") == "torch_gloo"


def test_the_replay_joins_a_harness_plugin_as_pytorch_does(tmp_path):
    """Inside PyTorch a harness plugin has no MPI (ring links over TCP there): the replay's
    experiment says so for harness plugins, and leaves PyTorch's gloo on MPI."""
    tuner = tune.Tuner.__new__(tune.Tuner)
    tuner.path = lambda name: str(tmp_path / name)
    configs = [{"backend": b, "bucket_cap_mb": 25, "compression": "none"} for b in ("gloo", "harness:ring")]
    with open(tuner.replay_experiment({"world_size": 2}, configs, "t", 0, 1)) as stream:
        parts = json.load(stream)["parts"]
    assert [(p["settings"]["backend"], p["settings"]["join"]) for p in parts] == \
        [("torch_gloo", "mpi"), ("ring", "bootstrap")]


def job(**changes):
    step = {"step_s": 0.01, "forward_s": 0.002, "backward_s": 0.005, "ready_s": [0.001],
            "buckets": [], "loss": 0.5}
    document = {"job_version": 1, "command": [], "world_size": 2, "backend": "gloo",
                "bucket_cap_mb": 25, "first_bucket_mb": 1, "comm_hook": "",
                "parameters": [{"numel": 10, "dtype": "float32", "requires_grad": True}],
                "parameter_count": 10, "warmup_steps": 3, "steps": [step]}
    document.update(changes)
    return document


def write(tmp_path, document):
    path = tmp_path / "job.json"
    path.write_text(json.dumps(document))
    return str(path)


def test_the_job_reader_takes_a_good_file_and_names_what_is_wrong_in_a_bad_one(tmp_path):
    assert job_file.read_job(write(tmp_path, job()))["world_size"] == 2
    with pytest.raises(job_file.FileError, match='"job_version" is 9, newer'):
        job_file.read_job(write(tmp_path, job(job_version=9)))
    broken = job()
    del broken["bucket_cap_mb"]
    with pytest.raises(job_file.FileError, match='field "bucket_cap_mb" is missing'):
        job_file.read_job(write(tmp_path, broken))
    with pytest.raises(job_file.FileError, match='"world_size" is "two", expected a count from 1 to 65536'):
        job_file.read_job(write(tmp_path, job(world_size="two")))
    with pytest.raises(job_file.FileError, match="the capture recorded no step"):
        job_file.read_job(write(tmp_path, job(steps=[])))
    with pytest.raises(job_file.FileError, match="not JSON"):
        (tmp_path / "bad.json").write_text("{")
        job_file.read_job(str(tmp_path / "bad.json"))


def test_the_plan_reader_refuses_an_unknown_backend_or_compression(tmp_path):
    plan = {"plan_version": 1, "backend": "harness:shm", "bucket_cap_mb": 4, "compression": "fp16"}
    assert job_file.read_plan(write(tmp_path, plan))["backend"] == "harness:shm"
    with pytest.raises(job_file.FileError, match="expected gloo or harness:<plugin>"):
        job_file.read_plan(write(tmp_path, dict(plan, backend="nccl")))
    with pytest.raises(job_file.FileError, match="expected none, fp16 or bf16"):
        job_file.read_plan(write(tmp_path, dict(plan, compression="int8")))


def runs_of_one_configuration(seed, runs=3, steps=20):
    """Step times of one configuration over several starts: each start has a level of its own
    (±8%), and its steps vary ±2% around it, as on a shared machine."""
    import random
    rng = random.Random(seed)
    return [[level * rng.uniform(0.98, 1.02) for _ in range(steps)]
            for level in (rng.uniform(0.92, 1.08) for _ in range(runs))]


@pytest.mark.parametrize("center", [stats.median, stats.mean])
def test_two_samples_of_one_configuration_do_not_differ_beyond_the_noise(center):
    """Pooled steps call most such pairs different; the interval over runs must not, by the
    runs' medians or by their means (the tuner's)."""
    pairs = [(runs_of_one_configuration(2 * i), runs_of_one_configuration(2 * i + 1)) for i in range(10)]
    flagged = lambda interval: [not (low <= 1 <= high) for _, low, high in interval]  # noqa: E731
    over_runs = flagged([stats.ratio_interval_of_runs(a, b, center=center) for a, b in pairs])
    pooled = flagged([stats.ratio_interval([t for r in a for t in r], [t for r in b for t in r], center=center)
                      for a, b in pairs])
    assert sum(pooled) >= 5, "the fixture should show the pooled rule's fault"
    assert sum(over_runs) <= 1, over_runs


def bimodal_run(slow_share, steps=400, seed=0):
    """A run of a small job's steps: short ones (1 ms) and ones that met a slow collective call
    (4 ms), `slow_share` of them, each with a little jitter."""
    import random
    rng = random.Random(seed)
    return [(4e-3 if rng.random() < slow_share else 1e-3) * rng.uniform(0.97, 1.03) for _ in range(steps)]


def test_runs_of_one_small_job_are_told_alike_by_their_mean_steps():
    """Runs whose share of slow steps sits near one half (0.4-0.6) have medians 1 ms in one
    run, 4 ms in the next; their mean steps differ by a quarter at most. Two samples of one
    such configuration: the medians' ratio is far from 1, the means' lies near it and its
    interval holds 1."""
    a = [bimodal_run(share, seed=i) for i, share in enumerate((0.42, 0.58, 0.45))]
    b = [bimodal_run(share, seed=10 + i) for i, share in enumerate((0.56, 0.44, 0.55))]
    by_median, _, _ = stats.ratio_interval_of_runs(a, b)
    ratio, low, high = step_time.ratio(a, b)
    assert not 0.8 < by_median < 1.25, by_median
    assert 0.9 < ratio < 1.1 and low <= 1 <= high, (ratio, low, high)
    # A configuration whose every step is short is told apart from them.
    fast = [bimodal_run(0.0, seed=20 + i) for i in range(3)]
    ratio, low, _ = step_time.ratio(a, fast)
    assert 2.2 < ratio < 2.8 and low > 1, ratio
    assert abs(step_time.typical(fast) - 1e-3) < 2e-5


def test_replay_seconds_refuses_what_is_not_a_finite_time():
    parse = tune.replay_seconds
    assert parse("1.5") == 1.5 and parse("0") == 0
    for text in ("-1", "nan", "inf", "one", "601"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse(text)


def test_compression_losses_are_compared_over_the_steps_every_run_recorded():
    """A faster plan records more steps; its later, lower losses must not count against it."""
    run = lambda steps: [{"loss": 1.0 - 0.01 * i} for i in range(steps)]  # noqa: E731
    holds, account = tune.losses_hold([run(20), run(20)], [run(40), run(40)])
    assert holds, account


def test_a_measured_gain_outside_the_predicted_interval_is_said():
    assert tune.prediction_missed((2.17, 2.06, 2.24), (1.91, 1.80, 2.00)).startswith("The replay over-predicted")
    assert tune.prediction_missed((1.2, 1.1, 1.3), (1.6, 1.5, 1.7)).startswith("The replay under-predicted")
    assert tune.prediction_missed((2.17, 2.06, 2.24), (2.0, 1.9, 2.1)) == ""


def test_a_failed_replay_launch_never_passes_off_an_earlier_replays_records(tmp_path):
    earlier = tmp_path / "replay" / "r" / "20260101T000000Z"
    earlier.mkdir(parents=True)
    (earlier / "trials.jsonl").write_text(json.dumps(
        {"part": "config0", "status": "ok", "step_times_ms": [1.0], "settings": {}}) + "\n")
    import os
    os.utime(earlier / "trials.jsonl", (1, 1))
    experiment = tmp_path / "experiment.json"
    experiment.write_text(json.dumps({"parts": [{"name": "config0"}]}))
    with pytest.raises(tune_launch.JobError, match="the replay failed"):
        tune_launch.run_harness("/bin/false", 1, str(experiment), str(tmp_path / "replay"))


def test_the_replay_is_trusted_on_its_point_estimate_not_on_an_interval_that_reaches_the_band():
    """×1.37 [0.96, 1.55] reached ±10% with its interval, but was 37% off: no plan."""
    assert tune.fidelity_failure(1.37, 0.96, 1.55).startswith("No plan: the replay predicts")
    assert tune.fidelity_failure(1.06, 0.90, 1.25) is None
    assert tune.fidelity_failure(0.85, 0.80, 0.95) is not None


def test_the_ranking_check_counts_pairs_and_the_noise():
    same = (1.0, 1.0, 1.0)
    predicted = [same, (1.3, 1.2, 1.4), (1.1, 1.0, 1.2), (0.8, 0.7, 0.9)]
    # Each configuration's runs: steady, so the job tells them apart unless two sit together.
    runs = [[[1.0, 1.01]] * 3, [[0.8, 0.81]] * 3, [[0.9, 0.91]] * 3, [[1.2, 1.21]] * 3]
    measured = [same, (1.25, 1.2, 1.3), (1.05, 1.0, 1.1), (0.9, 0.85, 0.95)]
    assert ranking.order_agreement(predicted, measured, runs) == (1.0, 6, 0, 0)
    # The two fastest swapped, the job telling them apart: one pair reversed, beyond the noise.
    swapped = [same, (1.10, 1.0, 1.2), (1.15, 1.1, 1.2), (0.9, 0.85, 0.95)]
    tau, alike, otherwise, within_noise = ranking.order_agreement(predicted, swapped, runs)
    assert (alike, otherwise, within_noise) == (5, 1, 0) and tau == pytest.approx(4 / 6)
    # The same swap where the two configurations' runs overlap: within the job's noise.
    noisy = runs[:1] + [[[0.8, 0.9], [1.0, 1.1], [0.85, 0.95]], [[0.9, 0.8], [0.95, 1.05], [1.0, 0.9]]] + runs[3:]
    assert ranking.order_agreement(predicted, swapped, noisy)[1:] == (5, 1, 1)
    # Reversed: every pair otherwise.
    reversed_ = [same, (0.5, 0.45, 0.55), (0.8, 0.75, 0.85), (1.5, 1.4, 1.6)]
    assert ranking.order_agreement(predicted, reversed_, runs)[:3] == (-1.0, 0, 6)
    # A tie counts for neither order, and tau says so.
    tied = [same, (1.1, 1.0, 1.2), (1.1, 1.0, 1.2), (0.9, 0.85, 0.95)]
    assert ranking.order_agreement(predicted, tied, runs)[:3] == (pytest.approx(5 / 6), 5, 0)
    assert ranking.mean_error([(1.2, 0, 0), (0.9, 0, 0)], [(1.0, 0, 0), (1.0, 0, 0)]) == pytest.approx(0.15)
    said = ranking.summary(4, 4 / 6, 5, 1, 1, 0.031)
    assert "5 of 6 pairs ordered as predicted, 1 reversed (within the job's noise)" in said
    assert "Kendall's tau 0.67 over 4 configurations" in said and "3.1%" in said
    assert "all 6 pairs ordered as predicted;" in ranking.summary(4, 1.0, 6, 0, 0, 0.01)
    assert "the one pair ordered as predicted;" in ranking.summary(2, 1.0, 1, 0, 0, 0.01)
    assert "0 of 1 pair ordered as predicted, 1 reversed" in ranking.summary(2, -1.0, 0, 1, 0, 0.01)
    assert "1 reversed (beyond the job's noise)" in ranking.summary(4, 4 / 6, 5, 1, 0, 0.01)
    assert "2 reversed (1 of them within the job's noise)" in ranking.summary(4, 2 / 6, 4, 2, 1, 0.01)
    assert "5 of 6 pairs ordered as predicted, the others tied" in ranking.summary(4, 5 / 6, 5, 0, 0, 0.01)


def test_compression_is_replayed_beside_the_jobs_own_once_when_that_is_the_fastest():
    """Where the job's own configuration is predicted fastest, the compression replay lists it
    once (the harness refuses an experiment that lists one trial twice)."""
    from types import SimpleNamespace
    tuner = tune.Tuner.__new__(tune.Tuner)
    tuner.args = SimpleNamespace(caps="1,25", compression=True)
    tuner.plugins = lambda: ["shm"]
    tuner.layouts = lambda job, caps: {cap: (100,) for cap in caps}  # one bucket at every cap
    experiments = []

    def replay(job, configs, name, before_round=None):
        experiments.append(configs)
        assert len({json.dumps(c, sort_keys=True) for c in configs}) == len(configs), configs
        # The job's own (gloo) fastest.
        return [{"config": c, "runs": [[1.0 if c["backend"] == "gloo" and c["compression"] == "none" else 2.0]]}
                for c in configs]
    tuner.replay = replay
    own, results = tuner.predict({"backend": "gloo", "bucket_cap_mb": 25.0}, [])
    assert experiments[1] == [own, dict(own, compression="fp16")]
    assert [r["config"] for r in results] == experiments[0] + [dict(own, compression="fp16")]


def _tuner_verifying(measured_gain):
    """A Tuner whose verification measures each configuration's gain as given (by backend and
    cap), over 3 steady runs a side: it records what it verified."""
    from types import SimpleNamespace
    tuner = tune.Tuner.__new__(tune.Tuner)
    tuner.args, tuner.lines, tuner.verified = SimpleNamespace(rounds=3), [], []
    tuner.path = lambda name: name
    tuner.save_plan = lambda plan: setattr(tuner, "plan", dict(plan))
    tuner.say = tuner.lines.append

    def verify(_path):
        config = {k: tuner.plan[k] for k in ("backend", "bucket_cap_mb", "compression")}
        tuner.verified.append(config)
        step = 1.0 / measured_gain[(config["backend"], config["bucket_cap_mb"])]
        runs = lambda t: [[{"step_s": t * f, "loss": 1.0} for f in (0.99, 1.0, 1.01)]] * 3  # noqa: E731
        return runs(1.0), runs(step)
    tuner.verify = verify
    return tuner


def test_a_plan_that_measures_no_faster_gives_way_to_the_fastest_predicted():
    """Predicted: ring ×1.13 beyond the noise, shm ×1.18 with an interval reaching 1 (one wide
    replay round): ring is verified first; measured no faster, shm is verified next and holds."""
    def config(backend, cap):
        return {"backend": backend, "bucket_cap_mb": cap, "compression": "none"}
    own = config("gloo", 25)
    steady = lambda t: [[t * 0.99, t, t * 1.01]] * 3  # noqa: E731
    results = [{"config": own, "runs": steady(1.0)},
               {"config": config("harness:ring", 25), "runs": steady(1 / 1.13)},
               {"config": config("harness:shm", 4), "runs": [[0.7], [0.95], [0.9]]},
               {"config": config("harness:ring", 4), "runs": [[1.0], [0.9], [1.1]]}]
    tuner = _tuner_verifying({("harness:ring", 25): 1.0, ("harness:shm", 4): 1.28})
    candidates = tuner.candidates(own, results)
    assert [c["backend"] + str(c["bucket_cap_mb"]) for c, _ in candidates] == ["harness:ring25", "harness:shm4"]
    verdict, lines = tuner.try_plans(candidates, [])
    assert verdict.startswith("Use backend harness:shm, bucket_cap_mb 4: ") and lines
    assert any(line.startswith("Withdrawn: backend harness:ring, bucket_cap_mb 25") for line in tuner.lines)
    # Neither faster: both named, the defaults kept.
    tuner = _tuner_verifying({("harness:ring", 25): 1.0, ("harness:shm", 4): 0.98})
    verdict, _ = tuner.try_plans(candidates, [])
    assert verdict.startswith("Keep PyTorch's defaults: none of the 2 plans tried") and "harness:shm" in verdict
    # At most MAX_SLOWER_PLANS are verified.
    tuner = _tuner_verifying({("harness:ring", 25): 1.0, ("harness:shm", 4): 1.0, ("harness:ring", 4): 2.0})
    tuner.try_plans(candidates + [(config("harness:ring", 4), (1.5, 1.2, 1.8))], [])
    assert len(tuner.verified) == tune.MAX_SLOWER_PLANS


def test_nothing_is_verified_where_nothing_is_predicted_faster_beyond_the_noise():
    own = {"backend": "gloo", "bucket_cap_mb": 25, "compression": "none"}
    results = [{"config": own, "runs": [[1.0], [1.0], [1.0]]},
               {"config": dict(own, backend="harness:shm"), "runs": [[0.7], [0.95], [0.9]]}]
    assert _tuner_verifying({}).candidates(own, results) == []
