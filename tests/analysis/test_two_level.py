"""The two-level cost model on points made from known links: within a host (alpha 2 us, 10 GB/s
for gloo ring, 1 us and 20 GB/s for shm) and across hosts (alpha 50 us, 0.125 GB/s), two hosts,
ranks numbered host by host in one run and round-robin in the other. World size 4 is held out:
flat trials (one ring flow per host, or two sharing the link) and hierarchical ones are
predicted from world size 2's fits alone."""
import math

import pytest

from harness_analysis import cost_model, two_level

GAMMA = 1e-9 / 10.0
INTRA = {"gloo:ring": (2e-6, 10.0), "shm": (1e-6, 20.0)}
INTER = (50e-6, 0.125)
SIZES = [4 ** k for k in range(1, 13)]


def ring(p, n, alpha, gbps, contention=1):
    return 2 * (p - 1) * alpha + 2 * (p - 1) / p * n * contention * 1e-9 / gbps + (p - 1) / p * n * GAMMA


def meta(hosts):
    return {"binding": {"ranks": [{"rank": i, "host": h} for i, h in enumerate(hosts)]}}


def record(backend, params, world, seconds, levels=None):
    points = [{"bytes": n, "p50_us": seconds(n) * 1e6 * (1 + 0.02 * math.sin(3 * i + world))}
              for i, n in enumerate(SIZES)]
    backend_record = {"name": backend, "levels": levels} if levels else {"name": backend}
    return {"kind": "collective", "status": "ok", "world_size": world, "points": points,
            "backend": backend_record, "settings": {"backend": backend, "backend_params": params, "collective": "allreduce"}}


def flat(world, hosts, contention=1):
    if hosts == 1:
        return record("gloo", {"algorithm": "ring"}, world, lambda n: ring(world, n, *INTRA["gloo:ring"]))
    return record("gloo", {"algorithm": "ring"}, world, lambda n: ring(world, n, *INTER, contention))


def hierarchical(hosts, per_host):
    def seconds(n):
        return 2 * ring(per_host, n, *INTRA["shm"]) + ring(hosts, n / per_host, *INTER, per_host)
    return record("hierarchical", {"inter": "gloo", "inter_params": {"algorithm": "ring"}}, hosts * per_host, seconds,
                  levels=["shm", "gloo:ring"])


@pytest.fixture
def points():
    # Run 1: ranks host by host (a, a, b, b): world 2 inside host a, world 4 two per host.
    by_host = [flat(2, 1), flat(4, 2), hierarchical(2, 2),
               record("shm", {}, 2, lambda n: ring(2, n, *INTRA["shm"]))]
    # Run 2: round-robin (a, b, a, b): world 2 across hosts, world 4's ring crosses at every hop.
    round_robin = [flat(2, 2), flat(4, 2, contention=2)]
    first, _ = cost_model.points_and_steps(by_host, "lab", meta("aabb"))
    second, _ = cost_model.points_and_steps(round_robin, "lab", meta("abab"))
    return first + second


def test_layouts_count_hosts_ranks_and_flows_leaving_a_host():
    assert two_level.layout(meta("aabb"), 4) == {"hosts": 2, "per_host": 2, "contention": 1}
    assert two_level.layout(meta("abab"), 4) == {"hosts": 2, "per_host": 2, "contention": 2}
    assert two_level.layout(meta("aabb"), 2) == {"hosts": 1, "per_host": 2, "contention": 1}
    assert two_level.layout({}, 2) is None


def test_hierarchical_trials_are_a_backend_of_their_own(points):
    names = {q["backend"] for q in points}
    assert "hierarchical(shm, gloo:ring)" in names and "gloo:ring" in names


def test_each_level_recovers_its_link(points):
    fits = two_level.fit_levels(points, GAMMA)
    intra, inter = fits[("gloo:ring", "lab")]["intra"], fits[("gloo:ring", "lab")]["inter"]
    assert intra["alpha_s"] == pytest.approx(2e-6, rel=0.15) and intra["link_gbps"] == pytest.approx(10.0, rel=0.1)
    assert inter["alpha_s"] == pytest.approx(50e-6, rel=0.15) and inter["link_gbps"] == pytest.approx(0.125, rel=0.1)
    # Hierarchical points never enter a fit: they are what the model predicts.
    assert not any(name.startswith("hierarchical") for name, _ in fits)


def test_held_out_world_is_predicted_where_one_level_cannot(points):
    flat_holdout = cost_model.holdout_errors(points, GAMMA, "world", "4")
    one_level = cost_model.held_out_predictor(points, GAMMA, 4, flat_holdout)
    section = two_level.model(points, GAMMA, 4, one_level)
    errors = section["holdout"]["errors"]
    assert errors["gloo:ring"]["points"] == 2 * len(SIZES)  # host by host and round-robin
    assert errors["gloo:ring"]["median_rel_error"] < 0.05
    assert errors["hierarchical(shm, gloo:ring)"]["median_rel_error"] < 0.05
    assert errors["gloo:ring"]["median_rel_error_below_band"] < 0.05
    assert errors["gloo:ring"]["median_rel_error_from_band"] < 0.05
    # One link for both levels, fitted to world 2 in and across hosts, is far off at world 4,
    # and it has no fit for hierarchical (no other world size of it).
    one = section["holdout"]["one_level"]
    assert one["gloo:ring"]["median_rel_error"] > 0.25 and "hierarchical(shm, gloo:ring)" not in one
    text = two_level.markdown(section)
    assert "World size 4 held out" in text and "| hierarchical(shm, gloo:ring) | 12 |" in text


def test_scale_compares_flat_and_hierarchical(points):
    rows = two_level.scale_predictions(two_level.fit_levels(points, GAMMA), GAMMA)
    big = [r for r in rows if r["backend"] == "gloo:ring" and (r["hosts"], r["per_host"]) == (8, 8) and r["bytes"] == 65536]
    # 126 latencies on the network flat against 14 hierarchical: latency-bound sizes gain most.
    assert len(big) == 1 and big[0]["hierarchical_over_flat"] > 2
    text = two_level.markdown(two_level.model(points, GAMMA))
    assert "| gloo:ring @ lab | inter | ring |" in text and "8 x 8" in text


def test_a_run_on_one_host_has_no_second_level():
    inside, _ = cost_model.points_and_steps([flat(2, 1)], "lab", meta("aa"))
    assert not two_level.crosses_hosts(inside)


def test_a_hierarchical_point_by_halves_is_predicted_with_one_intra_pass(points):
    # The same composition, its host level by reduce-scatter + allgather (one intra allreduce's
    # work instead of two): predicted from the same level fits, one pass shorter.
    fits = two_level.fit_levels(points, GAMMA)
    q = {"levels": ["shm", "gloo:ring"], "label": "lab", "layout": {"hosts": 2, "per_host": 2, "contention": 1},
         "n": 4 ** 10}
    by_allreduces = two_level.predict(q, fits, GAMMA)
    by_halves = two_level.predict(dict(q, by_halves=True), fits, GAMMA)
    intra = ring(2, q["n"], *INTRA["shm"])
    assert by_allreduces - by_halves == pytest.approx(intra, rel=0.1)

