"""jieba's segmentation of the Chinese that pto-docs itself writes, computed once instead of at every build.

Material's search segments every run of Han characters with jieba. Before the first cut jieba loads its whole
dictionary (about 350,000 words): on these machines 0.6-1.6 s of CPU in the zh-CN build, which is the longer
of the two language builds, so the whole site waits for it. Yet the Chinese on a site built from an
untranslated tree (PTO-ISA/pto-spec has no zh-CN translations) is pto-docs' own: its labels, headings and
notices, a few hundred distinct runs.

``zh_segments.json`` holds jieba's segmentation of those runs (the runs of the zh-CN labels and of the search
indexes of the sample tree's and the real tree's sites), made by jieba itself (:func:`main`). It is used only
when the installed jieba is the version that made it, with its default dictionary unchanged (its sha256) and
no dictionary of the project's own (the search plugin's ``jieba_dict`` / ``jieba_dict_user``). A run it does
not hold is cut by jieba as before, so the index is always exactly Material's (tests/site/test_zh_segments.py
checks every entry against jieba, and whole builds against Material's own indexing).

    python -m pto_docs.site.speedups.zh_segments SITE [SITE ...]   # rewrite the table from built sites
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
from pathlib import Path

TABLE = Path(__file__).with_name("zh_segments.json")
SCHEMA = "pto-docs.zh-segments.v1"
ZWSP = "\u200b"


def _jieba_identity() -> tuple[str, str] | None:
    """(jieba version, sha256 of its default dictionary), or None without jieba."""
    try:
        import jieba
    except ImportError:
        return None
    path = os.path.join(os.path.dirname(jieba.__file__), "dict.txt")
    try:
        with open(path, "rb") as fh:
            digest = hashlib.sha256(fh.read()).hexdigest()
    except OSError:
        return None
    return getattr(jieba, "__version__", "?"), digest


@functools.cache
def _table() -> dict[str, tuple[str, ...]]:
    """The shipped segments when they were made by the jieba installed here, else nothing."""
    try:
        doc = json.loads(TABLE.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    identity = _jieba_identity()
    if (not isinstance(doc, dict) or doc.get("schema") != SCHEMA or identity is None
            or [doc.get("jieba"), doc.get("dictionary_sha256")] != list(identity)):
        return {}
    segments = doc.get("segments")
    return {run: tuple(words) for run, words in segments.items()} if isinstance(segments, dict) else {}


def known(run: str) -> tuple[str, ...] | None:
    """jieba's words for ``run`` from the table, or None (then jieba must cut it)."""
    import jieba
    if jieba.dt.dictionary is not None:  # jieba.set_dictionary: a dictionary of the project's own
        return None
    return _table().get(run)


def cut(run: str) -> list[str]:
    import jieba
    return list(jieba.cut(run.encode("utf-8")))


def han_runs(text: str) -> list[str]:
    """The Han runs of ``text`` as Material segments them (its pattern), and of an already segmented text (the
    zero-width spaces jieba's words are joined with do not end a run)."""
    from backrefs import bre
    pattern = bre.compile(r"((?:\p{script: Han}|\u200b)+)", bre.UNICODE)
    return [m.group(1).replace(ZWSP, "") for m in pattern.finditer(text) if m.group(1).strip(ZWSP)]


def label_runs() -> set[str]:
    """Every Han run of pto-docs' zh-CN labels."""
    import yaml

    from ... import i18n
    path = Path(i18n.__file__).with_name("zh-CN.yaml")
    found: set[str] = set()

    def walk(value) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            found.update(han_runs(value))
    walk(yaml.safe_load(path.read_text("utf-8")))
    return found


def site_runs(site: Path) -> set[str]:
    """Every Han run of a built site's zh-CN search index."""
    doc = json.loads((site / "zh-CN" / "search" / "search_index.json").read_text("utf-8"))
    return {run for entry in doc.get("docs", ()) for key in ("title", "text") for run in han_runs(entry.get(key, ""))}


def write_table(runs: set[str], path: Path = TABLE) -> int:
    identity = _jieba_identity()
    if identity is None:
        raise SystemExit("zh_segments: jieba is not installed")
    head = {"schema": SCHEMA, "jieba": identity[0], "dictionary_sha256": identity[1]}
    lines = [f"{json.dumps(run, ensure_ascii=False)}: {json.dumps(cut(run), ensure_ascii=False)}" for run in sorted(runs)]
    text = json.dumps(head, indent=1)[:-2] + ',\n "segments": {\n  ' + ",\n  ".join(lines) + "\n }\n}\n"
    json.loads(text)  # (well-formed)
    path.write_text(text, "utf-8")
    return len(runs)


def main(argv: list[str]) -> int:
    runs = label_runs()
    for site in argv:
        runs |= site_runs(Path(site))
    print(f"{write_table(runs)} runs -> {TABLE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
