"""Every release loads in its own format, chosen from the release the tree declares (sources/formats.py)."""

from __future__ import annotations

import pytest

from pto_docs.analysis.load import load_catalog
from pto_docs.cli import main
from tests.history.conftest import declare_version
from tests.history.records import edit_record, markdown_adr

SWI = "asl/scalar/agu/SWI.asl"
ADR = "docs/status/decisions/0024-pc-relative-and-unscaled-agu-addressing.md"
ADR_LIST = ["# ADR-0024: PC-relative addressing, as first decided", "", "> A note quoted before the metadata.", "",
            "- Status: Accepted", "- Date: 2026-07-31", "- Requirement: PTO-REQ-A,", "  PTO-REQ-B", ""]
ADR_BOLD = ["# ADR 0029: AGU totality", "", "- **Status**: proposed", "- **Deciders**: maintainers", ""]
ADR_SECTION = ["# ADR 0035: VEC carrier totality", "", "## Status", "", "Superseded.", ""]


def codes(root, under: str = "") -> list[str]:
    return sorted(d.code for d in load_catalog(root).diagnostics if d.is_error and d.path.startswith(under))


def test_a_release_without_contracts_is_read_in_its_own_record_format(catalog_copy):
    edit_record(catalog_copy / SWI, lambda r: r.pop("contract"))
    declare_version(catalog_copy, "0.58.0")
    assert codes(catalog_copy, "asl/") == []
    declare_version(catalog_copy, "0.58.3")  # the same record, in a release whose records carry a contract
    assert codes(catalog_copy, "asl/") == ["SCHEMA-REQUIRED"]


def test_a_release_of_markdown_adrs_loads_them_with_title_and_status(catalog_copy):
    decisions = catalog_copy / "docs/status/decisions"
    markdown_adr(catalog_copy / ADR, ADR_LIST)
    markdown_adr(decisions / "0029-scalar-agu-totality-and-restart.md", ADR_BOLD)
    markdown_adr(decisions / "0035-vec-sfu-carrier-totality.md", ADR_SECTION)
    for other in decisions.glob("*.md"):
        if other.name[:4] not in ("0000", "0024", "0029", "0035"):
            other.unlink()
    declare_version(catalog_copy, "0.58.2")
    result = load_catalog(catalog_copy)
    assert [d.code for d in result.diagnostics if d.is_error and d.path.startswith("docs/")] == []
    adrs = result.catalog.adrs
    assert (adrs["ADR-0024"].title, adrs["ADR-0024"].status) == ("PC-relative addressing, as first decided",
                                                                  "accepted")
    assert adrs["ADR-0024"].front["metadata"]["requirement"] == "PTO-REQ-A, PTO-REQ-B"
    assert adrs["ADR-0024"].body.startswith("> A note quoted before the metadata.")
    assert (adrs["ADR-0029"].title, adrs["ADR-0029"].status) == ("AGU totality", "proposed")
    assert (adrs["ADR-0035"].title, adrs["ADR-0035"].status) == ("VEC carrier totality", "superseded")


def test_the_format_is_the_declared_one_never_guessed_per_file(catalog_copy):
    markdown_adr(catalog_copy / ADR, ADR_LIST)
    declare_version(catalog_copy, "0.58.3")  # a Markdown ADR in a release of JSON front matter: a finding
    assert "ADR-FRONT-MATTER" in codes(catalog_copy)
    declare_version(catalog_copy, "0.58.2")  # and a JSON front-matter ADR in a release of Markdown ADRs
    (catalog_copy / "docs/status/decisions/0029-scalar-agu-totality-and-restart.md").write_text(
        "---\n{}\n---\n# ADR 0029: x\n", "utf-8")
    assert "ADR-MARKDOWN" in codes(catalog_copy)


def test_a_markdown_adr_without_status_or_with_another_number_is_a_finding(catalog_copy):
    markdown_adr(catalog_copy / ADR, ["# ADR 0025: numbered as another", "", "## Context", ""])
    declare_version(catalog_copy, "0.58.1")
    assert {"ADR-STATUS", "ADR-FILE-ID"} <= set(codes(catalog_copy))


@pytest.mark.parametrize("version", ["0.58.1", "0.58.2"])
def test_earlier_releases_validate_without_format_errors(releases, version, capsys):
    code = main(["validate", str(releases[version])])
    out, err = capsys.readouterr()
    assert "error[" not in err and code == 0, err[-2000:]


def test_release_0580_loads(releases, capsys):
    result = load_catalog(releases["0.58.0"])
    assert len(result.catalog.instructions) > 600 and len(result.catalog.adrs) > 50
    assert [d for d in result.diagnostics if d.is_error] == []


def test_the_v0_record_schema_is_the_current_one_without_a_required_contract():
    from pto_docs.schemas.registry import load_schema
    old, new = dict(load_schema("instruction-v0")), dict(load_schema("instruction"))
    assert old.pop("required") == [k for k in new.pop("required") if k != "contract"]
    for key in ("$id", "title"):
        assert old.pop(key) != new.pop(key)
    assert old == new
