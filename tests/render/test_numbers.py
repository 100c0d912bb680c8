"""Numbers on example tables: the shortest text that round-trips in the element's own data type."""

from __future__ import annotations

import pytest

from pto_docs.render.numbers import exact_title, number_text


@pytest.mark.parametrize("value, data_type, text", [
    (-3.4028234663852886e+38, "FP32", "-3.4028235e+38"),  # FP32 Min padding (TCOLEXPAND)
    (9.313225746154785e-10, "FP32", "9.313226e-10"),
    (0.1, "FP64", "0.1"),
    (0.0999755859375, "FP16", "0.1"),
    (3.140625, "BF16", "3.14"),
    (1.5, "FP32", "1.5"),
    (10.0, "FP32", "10.0"),
])
def test_shortest_round_trip(value, data_type, text):
    assert number_text(value, data_type) == text


def test_exact_bits_in_the_title():
    assert exact_title(-3.4028234663852886e+38, "FP32", None) == "0xff7fffff = -3.4028234663852886e+38"
    assert exact_title(0.5, "FP32", "0x3f000000") == "0x3f000000 = 0.5"


def test_catalog_tcolexpand_prints_fp32_min_short(renderer):
    unit = renderer.catalog.find_instruction("TCOLEXPAND", "tile")
    text = renderer.unit_page(unit, "en").assembled()
    assert "-3.4028234663852886e+38</td>" not in text
    assert 'title="0xff7fffff = -3.4028234663852886e+38">-3.4028235e+38</td>' in text
