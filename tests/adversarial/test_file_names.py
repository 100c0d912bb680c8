"""A file name that is not UTF-8 (git stores any bytes) in a parsed area is a PATH-ENCODING error and is not read
(review1 R4): every path pto-docs keeps is text that a report, a page or JSON can carry."""

from __future__ import annotations

import os
import shutil

from pto_docs.sources.tree import SpecTree

from .conftest import run_main


def test_a_non_utf8_example_name_is_a_path_encoding_error(tree):
    shutil.copy(tree / "examples/TMUL/u64-products.json", os.fsencode(tree) + b"/examples/TMUL/q\xff.json")
    os.mkdir(os.fsencode(tree) + b"/spec/d\xfe")
    code, out, err = run_main("validate", str(tree))
    assert code == 1, out + err
    assert "examples/TMUL/q%FF.json: error[PATH-ENCODING]" in out + err
    assert "spec/d%FE: error[PATH-ENCODING]" in out + err
    loaded = SpecTree.open(tree)
    assert all(path.isprintable() and path.encode("utf-8") for path in loaded.files)
    assert [d.code for d in loaded.diagnostics].count("PATH-ENCODING") == 2


def test_a_non_utf8_name_outside_the_parsed_areas_is_not_reported(tree):
    with open(os.fsencode(tree) + b"/notes-\xff.txt", "wb") as fh:
        fh.write(b"x")
    code, out, err = run_main("validate", str(tree))
    assert "PATH-ENCODING" not in out + err and code == 0, out + err
