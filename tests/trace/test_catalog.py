"""The embedded catalog ships stamped and clean, and its report is deterministic."""

from __future__ import annotations

import pytest

from .conftest import CATALOG, catalog_complete, codes

pytestmark = pytest.mark.skipif(not catalog_complete(), reason="the embedded catalog is not complete yet")


def test_catalog_ships_stamped_and_clean(run_trace):
    assert (CATALOG / "pto-docs.review-lock.json").is_file(), "run: pto-docs trace catalog --stamp"
    code, out, err = run_trace(CATALOG, "--check")
    assert code == 0, err
    assert [c for c in codes(err) if c[0] == "error"] == []
    assert "0 suspect, 0 unstamped, 0 removed" in out


def test_catalog_report_is_deterministic(run_trace, tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    run_trace(CATALOG, "--check", "--json", a)
    run_trace(CATALOG, "--check", "--json", b)
    assert a.read_bytes() == b.read_bytes()
