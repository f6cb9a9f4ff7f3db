"""A group of one moves no bytes between ranks, so it has no bus bandwidth: the harness records
busbw 0 at world size 1, and the report shows no busbw for it (no table, picture line or Answer
line), whether its records say 0 (this harness) or their algbw (records written before)."""
import json

import pytest

import fixture_results
from harness_analysis import report
from harness_analysis.results import load

MACHINE = report.Machine(gamma_s_per_byte=1e-9 / 8, memcpy_gbps=20.0)
SIZES = [4096, 1 << 20]
# backend: (busbw recorded at world 1, at world 2), GB/s per size. ring's world-1 record says
# its algbw, as records before the fix did; mpi's says 0, as the harness records now.
WORLD_1 = {"mpi": [0.0, 0.0], "ring": [3.0, 6.0]}
WORLD_2 = {"mpi": [2.0, 4.0], "ring": [1.0, 2.0]}


def collective_record(index, backend, world, busbw):
    points = [{"bytes": n, "p50_us": 5.0 + n / 1e3, "busbw_gbps": bw, "algbw_gbps": bw or 3.0, "wrong": 0,
               "busbw_ci_low_gbps": bw * 0.99, "busbw_ci_high_gbps": bw * 1.01} for n, bw in zip(SIZES, busbw)]
    settings = fixture_results.settings(backend, world, {"collective": "allreduce", "dtype": "fp32", "op": "sum"})
    return {"kind": "collective", "part": "c", "key": f"c{index}", "point": f"{backend} {world}",
            "index": index, "repetition": 0, "world_size": world, "status": "ok", "reason": "",
            "axes": {"backend": backend, "world_size": world}, "settings": settings, "points": points}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("world1")
    records = [collective_record(i, b, 1, bw) for i, (b, bw) in enumerate(WORLD_1.items())]
    records += [collective_record(10 + i, b, 2, bw) for i, (b, bw) in enumerate(WORLD_2.items())]
    (root / "trials.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (root / "meta.json").write_text(json.dumps(fixture_results.meta()))
    out = root / "plots"
    out.mkdir()
    lines, _ = report.build(load(str(root)), str(out), MACHINE)
    figures = json.loads((out / "figures.json").read_text())
    return lines, (out / "report.md").read_text(), figures["series"]


def test_no_answer_line_ranks_world_one_by_busbw(built):
    busbw_lines = [line for line in built[0] if "busbw" in line]
    assert busbw_lines and all("world 2" in line for line in busbw_lines), busbw_lines


def test_no_busbw_table_for_world_one(built):
    text = built[1]
    assert "### World size 2" in text, text
    assert "### World size 1" not in text, text


def test_no_busbw_picture_line_for_world_one(built):
    lines = {s["series"] for s in built[2] if s["plot"] == "busbw"}
    assert lines == {"mpi N=2", "ring N=2"}, lines
