import re

from harness_analysis import regression_gate as gate


def row(name, regressed):
    return {"name": name, "regressed": regressed}


def test_only_what_both_passes_call_slower_fails():
    first = [row("a", True), row("b", True), row("c", False)]
    again = [row("a", True), row("b", False), row("c", True)]
    assert gate.confirmed(first, again) == ["a"]


def test_nothing_confirmed_without_a_second_verdict():
    assert gate.confirmed([row("a", True)], []) == []


def run(suite, name):
    return {"suite": suite, "name": name, "real_time": 1.0}


def test_the_confirmation_runs_exactly_the_flagged_benchmarks():
    flagged = [run("host", "lr_schedule/at"), run("host", "lr_schedule/at"),
               run("host", "results/csv_sinks/250/iterations:1"),
               run("harness", "train/training/backend:mpi")]
    plan = gate.confirmation_plan(flagged)
    assert plan["harness"] == ""  # one experiment, run whole
    assert set(plan) == {"host", "harness"}
    host = re.compile(plan["host"])
    for name in ("lr_schedule/at", "results/csv_sinks/250/iterations:1"):
        assert host.search(name), name
    for name in ("lr_schedule/at_mean", "xlr_schedule/at", "results/csv_sinks/2500/iterations:1",
                 "sampler/epoch_indices/10000"):
        assert not host.search(name), name


def test_a_name_with_regex_characters_matches_only_itself():
    name = 'train/x/optimizer:{"lr":0.001}/a.b(c)+d|e'
    pattern = re.compile("^" + gate.ere_literal(name) + "$")
    assert pattern.search(name)
    assert not pattern.search(name.replace(".", "x"))
    assert not pattern.search("train/x/optimizer:{\"lr\":0.001}/a.b(c)+d")


def test_keep_only_filters_every_side():
    runs = {"base": [run("host", "a"), run("host", "b")], "candidate": [run("host", "b")]}
    kept = gate.keep_only(runs, {"b"})
    assert [r["name"] for r in kept["base"]] == ["b"]
    assert [r["name"] for r in kept["candidate"]] == ["b"]


def test_the_base_build_cache_keeps_only_the_most_recently_used(tmp_path):
    """About 1 GB a base build: the cache must not grow with every commit gated."""
    import os
    for age, name in enumerate(["newest", "second", "third", "old", "older"]):
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (1000 - age, 1000 - age))
    (tmp_path / ".abc-half-made").mkdir()
    os.utime(tmp_path / ".abc-half-made", (1, 1))
    gate.prune_base_builds(str(tmp_path))
    assert sorted(os.listdir(tmp_path)) == ["newest", "second", "third"]


def gate_args(base, candidate):
    import argparse
    args = argparse.Namespace(base=base, candidate=candidate, even_if_unchanged=False)
    setattr(args, "self", False)  # --self, a keyword Namespace() cannot take
    return args


def test_the_gate_measures_only_where_the_benchmarked_sources_differ(capsys):
    import subprocess
    import pytest
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=gate.ROOT, capture_output=True,
                          text=True).stdout.strip()
    first = subprocess.run(["git", "rev-list", "--max-parents=0", "HEAD"], cwd=gate.ROOT,
                           capture_output=True, text=True).stdout.split()[-1]
    assert gate.same_measured_sources(gate_args(head, head))
    assert "nothing to compare" in capsys.readouterr().out
    if first == head:
        pytest.skip("a clone of one commit has no other to compare with")
    assert not gate.same_measured_sources(gate_args(first, head))  # the harness grew since
    forced = gate_args(head, head)
    forced.even_if_unchanged = True
    assert not gate.same_measured_sources(forced)


def test_the_self_check_does_not_judge_the_gate_on_a_disturbed_base():
    """A candidate that spins on every allreduce cannot be faster: a gate that measured it so
    measured a base something else slowed, in either pass; an ordinary miss is the gate's."""
    from harness_analysis import regression_selftest as selftest
    row = lambda name, change: {"name": name, "change": change}  # noqa: E731
    missed = {"benchmarks": [row("allreduce/mpi/plugin/1048576/real_time", 0.53)],
              "confirmation": [row("allreduce/mpi/plugin/1048576/real_time", 0.05)]}
    assert not selftest.base_disturbed(missed)
    disturbed = dict(missed, confirmation=[row("allreduce/mpi/plugin/1048576/real_time", -0.685)])
    assert selftest.base_disturbed(disturbed)
    assert not selftest.base_disturbed({"benchmarks": [row("allreduce/gloo/plugin/4/real_time", -0.5)]})
