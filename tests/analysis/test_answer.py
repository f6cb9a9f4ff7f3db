import pandas as pd

from harness_analysis import answer
from harness_analysis.decisions import size_verdicts


def collective(rows, collective="allreduce", dtype="fp32"):
    """rows: (backend, bytes, estimate, low, high) at world size 2."""
    return pd.DataFrame([{"backend": b, "world_size": 2, "point": f"{collective} {dtype} {b}", "bytes": n,
                          "median": m, "lo": lo, "hi": hi, "oversubscribed": False, "collective": collective,
                          "dtype": dtype, "op": "sum"} for b, n, m, lo, hi in rows])


def never_oversubscribed(world):
    return False


def test_a_band_won_at_every_size_names_the_winner_even_when_sizes_spread_widely():
    # mpi is x2 ahead at each size, but busbw spans three decades across sizes: an interval
    # pooled over the band would overlap gloo's and read as noise.
    rows = []
    for n, bw in ((16 << 10, 0.01), (64 << 10, 0.1), (256 << 10, 1.0), (1 << 20, 10.0)):
        rows += [("mpi", n, 2 * bw, 1.9 * bw, 2.1 * bw), ("gloo", n, bw, 0.95 * bw, 1.05 * bw)]
    lines = answer.collective_lines(collective(rows), never_oversubscribed)
    assert lines == ["allreduce busbw, world 2, 16 KB–1 MB: **mpi**, ×2.00 over gloo (every size outside the noise)"]


def test_a_split_band_says_which_sizes_each_backend_wins():
    rows = [("mpi", 4096 * 4, 2, 1.9, 2.1), ("ring", 4096 * 4, 1, 0.9, 1.1),
            ("mpi", 1 << 20, 1, 0.9, 1.1), ("ring", 1 << 20, 3, 2.9, 3.1)]
    [line] = answer.collective_lines(collective(rows), never_oversubscribed)
    assert "no single winner" in line
    assert "16 KB: **mpi**, ×2.00 over ring" in line and "1 MB: **ring**, ×3.00 over mpi" in line


def test_within_noise_only_where_the_intervals_overlap():
    rows = [("mpi", 4, 1.0, 0.8, 1.2), ("ring", 4, 0.95, 0.9, 1.0),
            ("mpi", 16, 1.0, 0.98, 1.02), ("ring", 16, 0.5, 0.45, 0.55)]
    [line] = answer.collective_lines(collective(rows), never_oversubscribed)
    assert line == "allreduce busbw, world 2, 4 B–16 B: **mpi**, ×2.00 over ring (within noise at 4 B)"


def test_oversubscribed_worlds_are_not_ranked():
    rows = [("mpi", 4, 2, 1.9, 2.1), ("ring", 4, 1, 0.9, 1.1)]
    [line] = answer.collective_lines(collective(rows), lambda world: True)
    assert "not ranked" in line and "oversubscribed" in line and "mpi" not in line


def test_verdicts_are_per_size():
    rows = [("mpi", 4, 2, 1.9, 2.1), ("ring", 4, 1, 0.9, 1.1), ("mpi", 16, 1, 0.9, 1.1), ("ring", 16, 2, 1.9, 2.1)]
    verdicts = size_verdicts(collective(rows))[("allreduce", "fp32", "sum", 2)]
    assert [(v.position, v.best) for v in verdicts] == [(4, "mpi"), (16, "ring")]
    assert all(v.against(v.ranking[1][0]).outside_noise for v in verdicts)


def test_backends_are_compared_on_one_collective_at_a_time():
    # mpi's allgather is faster than ring's reduce_scatter: no verdict between them; each
    # collective's line names it.
    frame = pd.concat([collective([("mpi", 1024, 2, 1.9, 2.1)], "allgather"),
                       collective([("ring", 1024, 1, 0.9, 1.1)], "reduce_scatter"),
                       collective([("mpi", 1024, 1, 0.9, 1.1)], "reduce_scatter")])
    verdicts = size_verdicts(frame)
    assert set(verdicts) == {("reduce_scatter", "fp32", "sum", 2)}, verdicts.keys()
    [line] = answer.collective_lines(frame, lambda world: False)
    assert line.startswith("reduce_scatter busbw, world 2"), line


def training(rows, oversubscribed=False):
    return pd.DataFrame([{"backend": b, "world_size": w, "point": f"{b}{w}", "model": "autoencoder", "batch": 32,
                          "median": m, "lo": lo, "hi": hi, "oversubscribed": oversubscribed}
                         for b, w, m, lo, hi in rows])


def test_training_names_the_fastest_with_its_ratios_and_ties():
    ok = training([("mpi", 2, 402e3, 398e3, 406e3), ("gloo:ring", 2, 362e3, 355e3, 366e3),
                   ("ring", 2, 400e3, 390e3, 405e3), ("mpi", 1, 201e3, 200e3, 202e3)])
    assert answer.training_lines(ok) == [
        "autoencoder batch 32, world 2: **mpi** 402k samples/s, ×1.11 over gloo:ring; ring within noise of mpi"]


def test_training_on_an_oversubscribed_world_is_not_ranked():
    ok = training([("mpi", 4, 2e5, 1.9e5, 2.1e5), ("gloo", 4, 3e4, 2.9e4, 3.1e4)], oversubscribed=True)
    [line] = answer.training_lines(ok)
    assert line.startswith("training, world 4: not ranked")


def test_configurations_of_one_backend_are_told_apart():
    from harness_analysis.labels import backend_labeller

    def record(receive):
        return {"settings": {"backend": "gloo", "backend_params": {"algorithm": "ring", "receive": receive}}}
    label = backend_labeller([record("busy_poll"), record("loop_thread")])
    assert label(record("busy_poll")) == "gloo:ring receive=busy_poll"
    same = backend_labeller([record("auto"), record("auto")])
    assert same(record("auto")) == "gloo:ring"


def test_the_console_says_when_there_is_nothing_to_compare():
    assert "no comparison between backends" in answer.console_text([])


def fusion_training(rows):
    """rows: (fusion_bytes, overlap, median, low, high): one model and backend at world 2."""
    return pd.DataFrame([{"model": "m", "backend": "mpi", "world_size": 2, "fusion_bytes": f, "overlap": o,
                          "compression": "none", "median": m, "lo": lo, "hi": hi}
                         for f, o, m, lo, hi in rows])


def test_the_answer_names_the_fastest_fusion_size_and_whether_overlap_pays():
    from harness_analysis import overlap
    rows = [(1 << 20, False, 3.0, 2.9, 3.1), (1 << 20, True, 3.2, 3.1, 3.3),
            (64 << 20, False, 4.0, 3.9, 4.1), (64 << 20, True, 4.6, 4.5, 4.7)]
    [line] = overlap.answer_lines(fusion_training(rows))
    assert line.startswith("fusion and overlap, m, mpi, world 2: **64 MB, overlap, none** 4.6")
    assert "×1.15 over 64 MB, after backward, none" in line
    assert line.endswith("overlap pays ×1.15 at 64 MB")


def test_fusion_and_overlap_within_the_noise_say_so():
    from harness_analysis import overlap
    rows = [(1 << 20, False, 4.0, 3.5, 4.5), (1 << 20, True, 4.1, 3.6, 4.6)]
    [line] = overlap.answer_lines(fusion_training(rows))
    assert "1 MB, after backward, none within noise of it" in line
    assert line.endswith("overlap within noise at 1 MB")


def strategy_training(rows, world=2, oversubscribed=False):
    """rows: (strategy, median, low, high, optimizer_state_bytes): one model and backend."""
    return pd.DataFrame([{"model": "transformer", "batch": 32, "backend": "mpi", "world_size": world,
                          "strategy": s, "median": m, "lo": lo, "hi": hi, "parameter_bytes": 100,
                          "oversubscribed": oversubscribed,
                          "gradient_bytes": 100, "optimizer_state_bytes": state}
                         for s, m, lo, hi, state in rows])


def test_the_answer_sets_sharded_beside_ddp_with_the_memory_each_holds():
    from harness_analysis import strategy
    [line] = strategy.answer_lines(strategy_training([("ddp", 10, 9.5, 10.5, 200),
                                                      ("sharded", 10.2, 9.7, 10.7, 104)]))
    assert line.startswith("strategy, transformer batch 32, mpi, world 2: **sharded** runs within noise of ddp's samples/s")
    assert "holds 0.52× the optimizer memory (104 B against 200 B per rank)" in line
    assert line.endswith("and 0.76× the parameters + gradients + optimizer state")
    [slower] = strategy.answer_lines(strategy_training([("ddp", 10, 9.8, 10.2, 200), ("sharded", 8, 7.8, 8.2, 100)]))
    assert "runs at 0.80× ddp's samples/s (outside the noise)" in slower


def test_no_strategy_line_without_both_strategies_or_at_world_one():
    from harness_analysis import strategy
    assert strategy.answer_lines(strategy_training([("ddp", 10, 9.5, 10.5, 200)])) == []
    assert strategy.answer_lines(strategy_training([("ddp", 10, 9.5, 10.5, 200), ("sharded", 10, 9.5, 10.5, 100)],
                                                   world=1)) == []


def test_an_oversubscribed_world_gives_the_memory_without_ranking_the_speed():
    from harness_analysis import strategy
    [line] = strategy.answer_lines(strategy_training([("ddp", 10, 9.5, 10.5, 200), ("sharded", 5, 4.5, 5.5, 50)],
                                                     world=4, oversubscribed=True))
    assert "**sharded** runs beside ddp unranked (oversubscribed); holds 0.25× the optimizer memory" in line
