"""A default example's caption says only what its table shows: a status flag the caption names as set is set
in the run's flags, and a caption that says no flag is set shows none (issue 32: TADD, TSUB, TMUL, TDIV and
TREM said "gives NaN and NV" above a table with NV=0, as tile-tile binary operations publish no flags)."""

from __future__ import annotations

import re

import pytest

from pto_docs.executor import default_cases, run_case, supported_instructions

FLAG = r"(NV|DZ|OF|UF|NX)\b"
SET_PHRASES = {"en": re.compile(r"(?:and|with|sets|raises) " + FLAG), "zh-CN": re.compile(r"并置 ?" + FLAG)}
NO_FLAG_PHRASES = {"en": re.compile(r"no status flag"), "zh-CN": re.compile(r"不置(?:任何)?状态标志")}
CASES = [(m, i, case) for m in sorted(supported_instructions()) for i, case in enumerate(default_cases(m))]


@pytest.mark.parametrize(("mnemonic", "index", "case"), CASES, ids=[f"{m}-{i}" for m, i, _ in CASES])
def test_caption_flag_claims_match_the_run(mnemonic, index, case):
    flags = run_case(case)["status_flags"]
    for language, caption in case["caption"].items():
        for flag in SET_PHRASES[language].findall(caption):
            assert flags[flag], f"{mnemonic} case {index} ({language}) says {flag} is set: {caption}"
        if NO_FLAG_PHRASES[language].search(caption):
            assert not any(flags.values()), f"{mnemonic} case {index} ({language}) says no flag: {flags}"


def test_the_five_tile_binary_captions_say_no_flag_is_set():
    for mnemonic in ("TADD", "TSUB", "TMUL", "TDIV", "TREM"):
        fp32 = [c for c in default_cases(mnemonic) if c["caption"]["en"].startswith("FP32")]
        assert fp32 and all(NO_FLAG_PHRASES["en"].search(c["caption"]["en"]) for c in fp32), mnemonic
