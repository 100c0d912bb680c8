"""The README's pictures of an instruction page's executed example: the example section (``section.pto-teaching``)
of one page per kind of example, cropped to that section, as small PNGs.

    python3 tools/screenshots.py [TREE] [--site SITE] [--out docs/images]

TREE (default: the repository's sample ``catalog/``) is built with ``pto-docs build`` into a temporary folder,
unless ``--site`` names a site already built from it. Each kind of example (:data:`KINDS`) is shown by the first of
its candidate instructions whose English page has an example section; a kind the tree has no such page for is
reported and skipped (the sample catalog has no scalar and no fault example: its toy model has no memory and no
faulting instruction). With ``--checkout`` TREE is a pto-spec checkout and the pictures are of the kinds the catalog
lacks (:data:`CHECKOUT_KINDS`: a scalar, a scalar floating-point and a fault example). Needs playwright and Debian's
chromium (``/usr/bin/chromium``), like the browser tests.
Exit status: 0 when every kind has a picture, 1 when some kind has none, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
SELECTOR = "section.pto-teaching"  # the example section (templates/partials/teaching.html.j2)
MARKER = 'class="pto-section pto-teaching"'  # how the section's opening tag reads in the page's HTML
# kind -> (file name, candidate mnemonics in order: real-tree instructions first, then the sample catalog's)
KINDS = {
    "assembly": ("example-assembly.png", ("ADD", "SSRSET", "BSTART.TEPL")),
    "floating-point": ("example-floating-point.png", ("FADD", "FMUL", "TSQRT")),
    "tile": ("example-tile.png", ("TADD", "TMUL")),
    "fault": ("example-fault.png", ("ASSERT", "ACRC", "EBREAK")),
}
# the kinds the sample catalog has no page for, pictured from a pto-spec checkout (``--checkout``): only the
# example section, which pto-docs writes (assembly of its own assembler, values the model computed, its captions)
CHECKOUT_KINDS = {
    "scalar": ("example-scalar-pto-spec.png", ("ADD",)),
    "scalar-floating-point": ("example-floating-point-pto-spec.png", ("FADD",)),
    "fault": ("example-fault-pto-spec.png", ("ASSERT",)),
}
WIDTH = 820  # CSS pixels of the viewport: the section's tables at their reading width
MARGIN = 8  # CSS pixels kept around the section


def instruction_page(site: Path, mnemonic: str) -> Path | None:
    """The English page of ``mnemonic`` in a built site (``instructions/<surface>/<classes>/<MNEMONIC>/``)."""
    for page in sorted((site / "instructions").glob(f"**/{mnemonic}/index.html")):
        return page
    return None


def has_example(page: Path) -> bool:
    return MARKER in page.read_text(encoding="utf-8", errors="replace")


def pick_pages(site: Path, kinds: dict = KINDS) -> dict[str, tuple[str, Path] | None]:
    """kind -> (mnemonic, page) of the first candidate whose page shows an executed example, or None."""
    chosen: dict[str, tuple[str, Path] | None] = {}
    for kind, (_name, candidates) in kinds.items():
        chosen[kind] = None
        for mnemonic in candidates:
            page = instruction_page(site, mnemonic)
            if page is not None and has_example(page):
                chosen[kind] = (mnemonic, page)
                break
    return chosen


def shoot(site: Path, out: Path, err=sys.stderr, kinds: dict = KINDS) -> int:
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(REPO))
    from tests.conftest import serve_directory  # the static server of the browser tests

    chosen = pick_pages(site, kinds)
    out.mkdir(parents=True, exist_ok=True)
    httpd = serve_directory(site)
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    missing = 0
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": WIDTH, "height": 900}, device_scale_factor=1)
            for kind, found in chosen.items():
                name = kinds[kind][0]
                if found is None:
                    print(f"{kind}: no page of {', '.join(kinds[kind][1])} has an executed example: no {name}",
                          file=err)
                    missing += 1
                    continue
                mnemonic, path = found
                page.goto(base + path.relative_to(site).parent.as_posix() + "/")
                box = page.locator(SELECTOR).first.bounding_box()
                clip = {"x": max(0, box["x"] - MARGIN), "y": max(0, box["y"] - MARGIN),
                        "width": box["width"] + 2 * MARGIN, "height": box["height"] + 2 * MARGIN}
                page.screenshot(path=str(out / name), clip=clip, full_page=True, animations="disabled")
                size = (out / name).stat().st_size
                print(f"{kind}: {mnemonic} -> {out / name} ({size // 1024} KB)", file=err)
            browser.close()
    finally:
        httpd.shutdown()
    return 1 if missing else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree", nargs="?", default=str(REPO / "catalog"), help="spec tree (default: catalog/)")
    parser.add_argument("--site", help="a site already built from the tree (default: build one)")
    parser.add_argument("--out", default=str(REPO / "docs" / "images"), help="where the PNGs go")
    parser.add_argument("--checkout", action="store_true",
                        help="TREE is a pto-spec checkout: picture the kinds the catalog lacks (scalar, fault)")
    args = parser.parse_args(argv)
    kinds = CHECKOUT_KINDS if args.checkout else KINDS
    if not CHROMIUM.exists():
        print(f"error: {CHROMIUM} is not installed", file=sys.stderr)
        return 2
    if args.site:
        return shoot(Path(args.site), Path(args.out), kinds=kinds)
    from pto_docs.cli import main as pto_docs
    with tempfile.TemporaryDirectory(prefix="pto-docs-shots-") as tmp:
        site = Path(tmp) / "site"
        rc = pto_docs(["build", args.tree, "--site-dir", str(site), "-q",
                       "--config-file", str(REPO / "mkdocs.yml")])
        if rc != 0:
            print(f"error: pto-docs build {args.tree} failed ({rc})", file=sys.stderr)
            return 2
        return shoot(site, Path(args.out), kinds=kinds)


if __name__ == "__main__":
    sys.exit(main())
