import pytest

from harness_analysis import units


@pytest.mark.parametrize("value, text", [(211600.3, "212k samples/s"), (402123, "402k samples/s"),
                                         (1.2e6, "1.20M samples/s"), (950, "950 samples/s"),
                                         (999.7, "1.00k samples/s")])
def test_samples_per_s(value, text):
    assert units.samples_per_s(value) == text


@pytest.mark.parametrize("value, text", [(5.696e-06, "5.70 kB/s"), (7.43, "7.43 GB/s"), (0.312, "312 MB/s"),
                                         (0, "0 B/s")])
def test_bandwidth(value, text):
    assert units.bandwidth_gbps(value) == text


@pytest.mark.parametrize("value, text", [(12.3e-6, "12.3 µs"), (4.56e-3, "4.56 ms"), (2.0, "2.00 s"),
                                         (5e-8, "50.0 ns")])
def test_duration(value, text):
    assert units.duration_s(value) == text


@pytest.mark.parametrize("value, text", [(4, "4 B"), (4096, "4 KB"), (1 << 20, "1 MB"), (64 << 20, "64 MB"),
                                         (2016, "1.97 KB")])
def test_sizes(value, text):
    assert units.size_bytes(value) == text


def test_no_scientific_notation_in_cells():
    for value in (2.116e5, 5.696e-6, 1e-12, 123456789.0):
        assert "e" not in units.plain(value).lower()
