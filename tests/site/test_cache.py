"""site/cache.py: a page pack is sealed with the user's key (store/seal.py) and verified before it is read. A
damaged, truncated, foreign or rearranged pack is one warning naming it; it is discarded, the pages are built again, and the site
is byte-identical to a clean build's."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pto_docs.site.cache import FORMAT, MAGIC, TRAILER
from pto_docs.store import seal

HEAD = len(seal.MAGIC) + seal.MAC_SIZE  # a sealed file: seal.MAGIC, the MAC, then the pack

REPO = Path(__file__).resolve().parents[2]


def _build(site: Path, cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run([sys.executable, "-m", "pto_docs.cli", "build", str(REPO / "catalog"), "--site-dir",
                             str(site), "--cache-dir", str(cache)], cwd=REPO, env=env, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result


def _files(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> tuple[dict[str, bytes], Path]:
    """A clean build's site and the cache it left (its packs hold every page)."""
    tmp = tmp_path_factory.mktemp("clean")
    _build(tmp / "site", tmp / "cache")
    return _files(tmp / "site"), tmp / "cache"


def _split(data: bytes) -> tuple[dict, bytes]:
    data = data[HEAD:]
    start = len(MAGIC) + 8
    size = int.from_bytes(data[len(MAGIC):start], "little")
    blobs = data[start + size:len(data) - len(TRAILER) - 16]
    return json.loads(data[start:start + size]), blobs


def _join(header: dict, blobs: bytes, sealed: bytes) -> bytes:
    """The pack of ``header`` and ``blobs`` under the seal (magic and MAC) of ``sealed``: what someone without the
    key can make."""
    text = json.dumps(header, separators=(",", ":")).encode()
    return (sealed[:HEAD] + MAGIC + len(text).to_bytes(8, "little") + text + blobs + TRAILER + len(text).to_bytes(8, "little")
            + len(blobs).to_bytes(8, "little"))


def _swap(data: bytes) -> bytes:
    """Two entries' values exchanged, the header rewritten consistently (lengths and all)."""
    header, blobs = _split(data)
    first, second = list(header["pages"])[:2]
    header["pages"][first], header["pages"][second] = header["pages"][second], header["pages"][first]
    return _join(header, blobs, data)


def _flip(data: bytes) -> bytes:
    header, blobs = _split(data)
    off, n, _entries = next(iter(header["pages"].values()))
    position = len(data) - len(TRAILER) - 16 - len(blobs) + off + n // 2
    return data[:position] + bytes([data[position] ^ 0x01]) + data[position + 1:]


def _entries(data: bytes) -> bytes:
    """A search entry edited: the page's HTML is intact, its entries are not."""
    header, blobs = _split(data)
    value = next(iter(header["pages"].values()))
    value[2] = [{**value[2][0], "title": "changed"}] + value[2][1:] if value[2] else [{"title": "added"}]
    return _join(header, blobs, data)


DAMAGE = {
    "flipped byte": _flip,
    "truncated": lambda data: data[: len(data) * 2 // 3],
    "swapped entries": _swap,
    "edited search entry": _entries,
    "foreign file": lambda data: b"\x89PNG\r\n\x1a\n" + os.urandom(4096),
    "header garbage": lambda data: (data[:HEAD] + MAGIC + (12).to_bytes(8, "little") + b"{not json at"
                                    + data[HEAD + len(MAGIC) + 20:]),
    "older format": lambda data: _join({**_split(data)[0], "format": FORMAT - 1}, _split(data)[1], data),
}

# Whatever the damage, the build that discards a pack saves a new one the same way: that the next build finds it
# good is checked after a damaged body and after a file that is no pack at all (a build each saved per run).
AGAIN = {"flipped byte", "foreign file"}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_pack_is_one_warning_and_the_site_of_a_clean_build(tmp_path, clean, damage):
    site_files, cache = clean
    shutil.copytree(cache, tmp_path / "cache")
    pack = tmp_path / "cache" / "pages-en.pack"
    pack.write_bytes(DAMAGE[damage](pack.read_bytes()))
    result = _build(tmp_path / "site", tmp_path / "cache")
    warnings = [line for line in result.stderr.splitlines() if str(pack) in line]
    assert len(warnings) == 1 and "discarded" in warnings[0], result.stderr
    assert _files(tmp_path / "site") == site_files
    report = {r["locale"]: r for r in json.loads((tmp_path / "cache" / "last-build.json").read_text("utf-8"))}
    assert report["en"]["reused"] == [] and report["zh-CN"]["built"] == []  # only the damaged pack was dropped
    if damage not in AGAIN:
        return
    again = _build(tmp_path / "site2", tmp_path / "cache")  # the next build finds a good pack again
    assert str(pack) not in again.stderr
    assert _files(tmp_path / "site2") == site_files


def test_a_damaged_manifest_is_discarded(tmp_path, clean):
    site_files, cache = clean
    shutil.copytree(cache, tmp_path / "cache")
    manifest = tmp_path / "cache" / "tree-zh-CN.json"
    sealed = manifest.read_bytes()
    data = json.loads(sealed[HEAD:])
    data["pages"][0], data["pages"][1] = data["pages"][1], data["pages"][0]
    manifest.write_bytes(sealed[:HEAD] + json.dumps(data).encode())  # (the old MAC: no key to make a new one)
    result = _build(tmp_path / "site", tmp_path / "cache")
    assert sum(str(manifest) in line for line in result.stderr.splitlines()) == 1, result.stderr
    assert _files(tmp_path / "site") == site_files
