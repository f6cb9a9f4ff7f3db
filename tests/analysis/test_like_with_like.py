"""The report compares like with like: a run of two collectives (allreduce, broadcast) and two
dtypes (fp32, fp16), two backends at world size 2, where each combination has its own winner.
No table, picture or Answer line pools points of different collectives or dtypes; each names
its collective and dtype. Training trials of two learning-rate rules are not pooled either."""
import json

import pytest

import fixture_results
from harness_analysis import report
from harness_analysis.results import load

MACHINE = report.Machine(gamma_s_per_byte=1e-9 / 8, memcpy_gbps=20.0)
SIZES = [4096, 1 << 20]
# (collective, dtype): {backend: busbw GB/s at each size}. mpi wins fp32 allreduce, ring the others.
BUSBW = {("allreduce", "fp32"): {"mpi": [2.0, 4.0], "ring": [1.0, 2.0]},
         ("allreduce", "fp16"): {"mpi": [0.5, 1.0], "ring": [3.0, 6.0]},
         ("broadcast", "fp32"): {"mpi": [10.0, 20.0], "ring": [30.0, 60.0]}}


def collective_record(index, collective, dtype, backend, busbw):
    points = [{"bytes": n, "p50_us": n / (bw * 1e3), "busbw_gbps": bw, "algbw_gbps": bw, "wrong": 0,
               "busbw_ci_low_gbps": bw * 0.99, "busbw_ci_high_gbps": bw * 1.01} for n, bw in zip(SIZES, busbw)]
    settings = fixture_results.settings(backend, 2, {"collective": collective, "dtype": dtype, "op": "sum"})
    return {"kind": "collective", "part": "c", "key": f"c{index}", "point": f"{collective} {dtype} {backend}",
            "index": index, "repetition": 0, "world_size": 2, "status": "ok", "reason": "",
            "axes": {"collective": collective, "dtype": dtype, "backend": backend}, "settings": settings,
            "points": points}


def training_record(index, rule, rate):
    """mpi at world 2, batch 32, under learning-rate rule `rule`."""
    r = fixture_results.training_record(index, "mpi", 2, 32, rate)
    r["settings"]["lr_rule"] = rule
    r["axes"]["lr_rule"] = rule
    r["point"] += f" {rule}"
    return r


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("mixed")
    records = [collective_record(i, collective, dtype, backend, busbw)
               for i, ((collective, dtype), by_backend) in enumerate(BUSBW.items())
               for backend, busbw in by_backend.items()]
    records += [training_record(10, "none", 400e3), training_record(11, "linear", 200e3)]
    (root / "trials.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (root / "meta.json").write_text(json.dumps(fixture_results.meta()))
    out = root / "plots"
    out.mkdir()
    lines, _ = report.build(load(str(root)), str(out), MACHINE)
    figures = json.loads((out / "figures.json").read_text())
    return lines, (out / "report.md").read_text(), figures["series"]


def test_each_answer_line_names_its_collective_and_dtype_and_its_own_winner(built):
    lines = [line for line in built[0] if "busbw" in line]
    for (collective, dtype), by_backend in BUSBW.items():
        winner = max(by_backend, key=lambda b: by_backend[b][0])
        mine = [line for line in lines if line.startswith(f"{collective} {dtype} busbw, world 2")]
        assert len(mine) == 2, lines  # one per size band, 4 KB and 1 MB
        assert all(f"**{winner}**, ×" in line for line in mine), mine
    assert len(lines) == 6, lines  # nothing else, nothing pooled


def section(text, heading):
    """The Markdown of one ### section."""
    start = text.index(heading)
    end = text.find("\n#", start + len(heading))
    return text[start:end if end > 0 else len(text)]


@pytest.mark.parametrize("collective, dtype", list(BUSBW))
def test_each_busbw_table_holds_one_collective_and_dtype(built, collective, dtype):
    text = built[1]
    assert "## Collective bus bandwidth" in text
    table = section(text, f"### {collective} {dtype}, world size 2")
    for backend, busbw in BUSBW[(collective, dtype)].items():
        for bw in busbw:
            cell = report.with_interval(bw, bw * 0.99, bw * 1.01, report.units.bandwidth_gbps)
            assert cell in table, (backend, cell, table)
    assert table.count("\n| 4 KB |") == 1 and table.count("\n| 1 MB |") == 1, table


def test_each_busbw_line_of_the_picture_is_one_collective_and_dtype(built):
    lines = {s["series"]: s["y"] for s in built[2] if s["plot"] == "busbw"}
    assert lines == {f"{collective} {dtype} {backend} N=2": busbw
                     for (collective, dtype), by_backend in BUSBW.items() for backend, busbw in by_backend.items()}


def test_the_cost_model_fits_fp32_allreduce_alone(built):
    text = built[1]
    assert "fits to this sweep's fp32 allreduce points" in text
    # Per backend two fp32 allreduce points and two parameters: an exact fit. fp16's points,
    # four to twelve times slower at the same sizes, would leave an error.
    fits = [line.split(" | ") for line in section(text, "## Cost model").splitlines() if " @ known" in line]
    assert [cells[0] for cells in fits] == ["| mpi @ known_answers", "| ring @ known_answers"], fits
    assert all(float(cells[6].split("%")[0]) < 1e-3 for cells in fits), fits


def test_training_trials_of_two_rules_are_two_rows(built):
    rows = [line for line in section(built[1], "## Training").splitlines() if line.startswith("| autoencoder")]
    assert len(rows) == 2, rows
    assert any("| linear |" in row and "200k" in row for row in rows), rows
    assert any("| none |" in row and "400k" in row for row in rows), rows


def test_throughput_lines_name_the_rule(built):
    lines = {s["series"]: s["y"] for s in built[2] if s["plot"].startswith("throughput")}
    assert lines == {"mpi lr_rule=linear": [200e3], "mpi lr_rule=none": [400e3]}
