"""The cost model's formulas for the other collectives: points made from a known link (alpha
3 us, 5 GB/s) by one algorithm at world sizes 2, 3, 4 and 8 are fitted back to that algorithm
and link, one collective at a time, and never mixed with allreduce's points."""
import math

import pytest

from harness_analysis import cost_model
from harness_analysis.formulas import COLLECTIVE_FORMULAS

GAMMA = 1e-9 / 10.0
ALPHA, GBPS = 3e-6, 5.0
SIZES = [4 ** k for k in range(2, 13)]


def record(collective, algorithm, world):
    formula = COLLECTIVE_FORMULAS[collective][algorithm]

    def seconds(n):
        a, b, g = formula(world, n)
        return a * ALPHA + b * 1e-9 / GBPS + g * GAMMA
    points = [{"bytes": n, "p50_us": seconds(n) * 1e6 * (1 + 0.01 * math.sin(5 * i + world))}
              for i, n in enumerate(SIZES)]
    return {"kind": "collective", "status": "ok", "world_size": world, "points": points,
            "backend": {"name": "mpi"},
            "settings": {"backend": "mpi", "backend_params": {}, "collective": collective}}


@pytest.mark.parametrize("collective, algorithm", [("reduce_scatter", "recursive_halving"), ("allgather", "ring"),
                                                   ("broadcast", "binomial_tree"), ("alltoall", "pairwise")])
def test_each_collective_is_fitted_to_its_own_formulas(collective, algorithm):
    records = [record(collective, algorithm, p) for p in (2, 3, 4, 8)] + [record("allreduce", "ring", 2)]
    allreduce, _ = cost_model.points_and_steps(records, "lab")
    assert {q["collective"] for q in allreduce} == {"allreduce"}
    others = cost_model.other_collective_points(records, "lab")
    assert {q["collective"] for q in others} == {collective}
    fits = cost_model.fit_other_collectives(others, GAMMA)
    fit = fits[f"{collective}: mpi @ lab"]
    assert fit["best"] == algorithm and fit["worlds"] == [2, 3, 4, 8]
    params = fit["formulas"][algorithm]["params"]
    assert params["alpha_s"] == pytest.approx(ALPHA, rel=0.1)
    assert params["link_gbps"] == pytest.approx(GBPS, rel=0.05)
    assert f"| {collective}: mpi @ lab | [2, 3, 4, 8] | {algorithm} **best**" in cost_model.other_collectives_markdown(fits)
