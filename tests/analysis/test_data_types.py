"""The data-type code table and the field domains come from the tree's own records: the DataType field domain
names each code, the hardware profile (when present) gives its width and kind."""

from __future__ import annotations

import json

import pytest

from pto_docs.analysis.data_types import DATA_TYPE_DOMAIN, data_type_name, data_types, field_domains
from pto_docs.analysis.load import load_catalog

TYPES_UNIT = "asl/arch/data-types/tile-data-types.asl"


def _record(root, rel):
    lines = (root / rel).read_text("utf-8").split("\n")
    tag, _, body = lines[0].partition(": ")
    return lines, tag, json.loads(body)


def _write(root, rel, lines, tag, record):
    lines[0] = f"{tag}: {json.dumps(record, separators=(',', ':'))}"
    (root / rel).write_text("\n".join(lines), "utf-8")


def test_catalog_names_codes_from_its_domain(catalog_load):
    cat = catalog_load.catalog
    assert data_type_name(cat, 25) == "U32"
    assert data_type_name(cat, "0x04") == "FP16"
    assert data_type_name(cat, "4") == "FP16"
    for bad in (15, 31, 99, -1, "x", None, True, 4.0):
        assert data_type_name(cat, bad) is None, bad
    table = data_types(cat)
    assert [t.code for t in table] == sorted(t.code for t in table)
    assert len(table) == 25 and table[0].name == "FP64"
    domain = field_domains(cat)[DATA_TYPE_DOMAIN]
    assert domain.reserved == (15, 21, 22, 23, 29, 30, 31) and domain.meaning(27) == "U8"


def test_names_follow_the_tree_and_the_profile_adds_width_and_kind(tree):
    lines, tag, record = _record(tree, TYPES_UNIT)
    for item in record["field_domains"][0]["assigned"]:
        if item["value"] == 25:
            item["meaning"] = "WORD32"
    _write(tree, TYPES_UNIT, lines, tag, record)
    profile = {"data_types": [{"code": 25, "name": "WORD32", "class": "unsigned-integer", "storage_bits": 32,
                               "lanes_per_storage": 1, "format": "two's complement"},
                              {"code": 4, "name": "NOT-FP16", "class": "floating", "storage_bits": 16}]}
    (tree / "spec" / "hardware-conformance-profile.json").write_text(json.dumps(profile), "utf-8")
    cat = load_catalog(tree).catalog
    assert data_type_name(cat, 25) == "WORD32"
    by_code = {t.code: t for t in data_types(cat)}
    assert (by_code[25].width, by_code[25].kind, by_code[25].lanes) == (32, "unsigned-integer", 1)
    # the profile names code 4 differently: its facts are not borrowed
    assert (by_code[4].name, by_code[4].width, by_code[4].kind) == ("FP16", None, None)


def test_no_domain_no_table(tree):
    lines, tag, record = _record(tree, TYPES_UNIT)
    record.pop("field_domains")
    _write(tree, TYPES_UNIT, lines, tag, record)
    cat = load_catalog(tree).catalog
    assert data_types(cat) == () and data_type_name(cat, 4) is None


@pytest.mark.realtree
def test_real_tree_table(real_load):
    cat = real_load.catalog
    table = {t.code: t for t in data_types(cat)}
    assert len(table) == 25
    assert (table[4].name, table[4].width, table[4].kind) == ("FP16", 16, "floating")
    assert (table[11].name, table[11].lanes) == ("E2M1X2", 2)
    assert data_type_name(cat, 25) == "U32"
    assert {"PTO-FIELD-BLOCK-DATATYPE", "PTO-FIELD-BLOCK-CMODE"} <= set(field_domains(cat))


def test_malformed_domains_and_profile_are_data(tree):
    lines, tag, record = _record(tree, TYPES_UNIT)
    record["field_domains"].append({"id": "PTO-FIELD-ODD", "assigned": 5, "reserved": "x", "width": "w"})
    record["field_domains"][0]["assigned"].append({"value": True, "meaning": "BOOL"})
    _write(tree, TYPES_UNIT, lines, tag, record)
    (tree / "spec" / "hardware-conformance-profile.json").write_text('{"data_types": {"code": 4}}', "utf-8")
    cat = load_catalog(tree).catalog
    odd = field_domains(cat)["PTO-FIELD-ODD"]
    assert (odd.assigned, odd.reserved, odd.width) == ((), (), None)
    assert len(data_types(cat)) == 25 and data_types(cat)[4].width is None
