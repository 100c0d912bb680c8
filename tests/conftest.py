from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


# CI (.ci/run) unpacks the acceptance corpus and sets PTO_DOCS_REQUIRE_REAL_TREE=1: there a missing or unusable
# checkout fails the real-tree tests instead of skipping them.
REAL_TREE_REQUIRED = os.environ.get("PTO_DOCS_REQUIRE_REAL_TREE") == "1"


def real_tree() -> Path | None:
    """A PTO-ISA/pto-spec checkout named by PTO_SPEC_CHECKOUT (tests that need it skip without it)."""
    value = os.environ.get("PTO_SPEC_CHECKOUT")
    path = Path(value) if value else None
    if path and (path / "asl").is_dir():
        return path
    if REAL_TREE_REQUIRED:
        raise RuntimeError(f"PTO_DOCS_REQUIRE_REAL_TREE=1 but PTO_SPEC_CHECKOUT={value!r} is not a pto-spec checkout")
    return None


@pytest.fixture(scope="session", autouse=True)
def _own_user_cache(tmp_path_factory):
    """The run's own user cache (XDG_CACHE_HOME: parsed ASL, SEMANTICS-PROSE verdicts, examples runs), shared by
    the run's workers and its subprocesses: the suite never reads what an earlier run, or the developer's own
    builds, left in ~/.cache, and never writes there."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "user-cache"
    folder.mkdir(parents=True, exist_ok=True)
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(folder)
    yield folder
    if previous is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = previous


@pytest.fixture(scope="session")
def asl_model_cache(_own_user_cache) -> Path:
    """The run's cache of parsed ASL models: pto-docs' default (``$XDG_CACHE_HOME/pto-docs/asl``) in the run's own
    user cache, sealed with the run's own key (a store.SealedFolder: ``str()`` is its path). A model is parsed once
    per run, and every later test that links the same texts reads it (a cache file is written whole and renamed
    into place, so the workers share it safely)."""
    from pto_docs.store import asl_cache_dir, sealed_folder
    return sealed_folder(asl_cache_dir())


@pytest.fixture
def tree(tmp_path) -> Path:
    """A private copy of catalog/ to edit (a test module may define its own ``tree`` instead)."""
    root = tmp_path / "tree"
    shutil.copytree(REPO / "catalog", root)
    return root


@pytest.fixture(scope="session")
def real_tree_root() -> Path:
    root = real_tree()
    if root is None:
        pytest.skip("set PTO_SPEC_CHECKOUT to a PTO-ISA/pto-spec checkout to run real-tree tests")
    return root


@pytest.fixture(scope="session")
def real_load(real_tree_root):
    from pto_docs.analysis.load import load_catalog
    return load_catalog(real_tree_root)


@pytest.fixture(scope="session")
def catalog_load():
    from pto_docs.analysis.load import load_catalog
    return load_catalog(REPO / "catalog")


@pytest.fixture(scope="session")
def real_avs_examples(real_tree_root, asl_model_cache, tmp_path_factory, request):
    """``pto-docs avs --examples`` of the real tree under the ieee profile, for the points worked examples come
    from (kinds execution and fault): ``(results path, document)``. None without the tree's generated decoders
    (PTO_DOCS_AVS_DECODERS), unless PTO_DOCS_REQUIRE_REAL_TREE=1 makes that a failure."""
    import contextlib
    import io
    import json
    try:
        decoders = request.getfixturevalue("real_decoders")
    except pytest.skip.Exception:
        return None
    from pto_docs.cli import main
    work = tmp_path_factory.mktemp("avs-examples")
    results = work / "avs.json"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["avs", str(real_tree_root), "--decoders", str(decoders), "--profile", "ieee", "--examples",
                     "--kind", "execution", "--kind", "fault", "-q", "--cache-dir", str(asl_model_cache),
                     "--json", str(results)])
    assert code in (0, 1) and "Traceback" not in err.getvalue(), err.getvalue()
    return results, json.loads(results.read_text("utf-8"))


@pytest.fixture(scope="session")
def real_site(real_tree_root, real_avs_examples, tmp_path_factory) -> Path:
    """The whole bilingual site of the real tree, built once per session the way a pto-spec maintainer would:
    a copy of the checkout, `pto-docs init` (the minimal mkdocs.yml at its root), the worked examples of
    ``real_avs_examples`` added to it (``avs_results``; when there are any), `mkdocs build`. Shared by every
    real-tree site test."""
    import subprocess
    import sys
    root = tmp_path_factory.mktemp("real") / "pto-spec"
    shutil.copytree(real_tree_root, root, symlinks=True, ignore=shutil.ignore_patterns(".git", "site"))
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}

    def run(*command):
        result = subprocess.run([sys.executable, "-m", *command], cwd=root, env=env, capture_output=True,
                                text=True, timeout=1800)
        assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr

    run("pto_docs.cli", "init", ".")
    config = root / "mkdocs.yml"
    text = config.read_text("utf-8")
    assert "      spec_root: .\n" in text
    if real_avs_examples is not None:
        results = real_avs_examples[0]
        config.write_text(text.replace("      spec_root: .\n", f"      spec_root: .\n      avs_results: {results}\n", 1),
                          "utf-8")
    run("mkdocs", "build", "-q")
    return root / "site"


# -- browser (tests marked ``browser``: real chromium through playwright) -------------------------------------
CHROMIUM = Path("/usr/bin/chromium")
BROWSER_REQUIRED = os.environ.get("PTO_DOCS_REQUIRE_BROWSER") == "1"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def serve_directory(site: Path):
    """A static server of ``site`` on a free loopback port (shut it down when done)."""
    import functools
    import http.server
    import sys
    import threading

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            if isinstance(sys.exc_info()[1], ConnectionError):
                return  # the browser dropped a request it no longer needed (a page left before it loaded)
            super().handle_error(request, client_address)

    httpd = Server(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


@pytest.fixture(scope="session")
def chromium():
    if not CHROMIUM.exists():
        if BROWSER_REQUIRED:
            pytest.fail("PTO_DOCS_REQUIRE_BROWSER=1 but /usr/bin/chromium is missing")
        pytest.skip("Debian chromium is not installed")
    if BROWSER_REQUIRED:
        import playwright.sync_api as sync_api
    else:
        sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium):
    """A page of a fresh browser context (no cookies, storage or cache shared with another test)."""
    context = chromium.new_context()
    pg = context.new_page()
    yield pg
    context.close()


@pytest.fixture(scope="session")
def real_decoders() -> Path:
    """The generated decoder ASL of the real tree (PTO_DOCS_AVS_DECODERS; .ci/run makes it with the corpus's
    own generator). pto-docs never runs that generator itself."""
    value = os.environ.get("PTO_DOCS_AVS_DECODERS")
    if value and Path(value).is_file():
        return Path(value)
    if os.environ.get("PTO_DOCS_REQUIRE_REAL_TREE") == "1":
        pytest.fail("PTO_DOCS_REQUIRE_REAL_TREE=1 but PTO_DOCS_AVS_DECODERS names no generated decoder file")
    pytest.skip("set PTO_DOCS_AVS_DECODERS to the real tree's generated decoder ASL")


# -- scheduling on the workers (pytest-xdist, pyproject: --dist loadgroup --no-loadscope-reorder) ----------------
# Each file is one unit of work, as with --dist loadfile, except the files that share a costly session fixture:
# they go to one worker together, so the fixture is made once per run instead of once per worker.
SHARED_GROUPS = {
    "tests/site/test_real_tree_site.py": "real-site",  # real_site (above): the real tree's site, with examples
    "tests/site/test_realtree_avs_examples.py": "real-site",  # real_avs_examples, and real_site
    "tests/site/test_links.py": "real-site",
    "tests/site/test_reader_browser.py": "real-site",
    "tests/site/test_find_browser.py": "real-site",
    "tests/executor/test_exec_v2_realtree.py": "real-exec",  # shared_real_exec (tests/executor/conftest.py)
    "tests/executor/test_exec_v2_bundle_realtree.py": "real-exec",
    "tests/executor/test_exec_v1_on_model_realtree.py": "real-exec",  # real_load, shared with the group
    "tests/history/test_formats.py": "releases",  # releases (tests/history/conftest.py): the unpacked 0.58.x trees
    "tests/history/test_diff.py": "releases",
    "tests/history/test_versions_real_browser.py": "releases",  # three real releases' versioned site, built once
}
# The units that take a minute or more (measured with --durations), costliest first. They are handed out
# before all others, so that the run never ends with one worker alone on one of them.
SLOW_FIRST = (
    "real-site",  # `pto-docs avs --examples` of the real tree, then its site with those examples, in chromium
    "tests/asl/test_realtree.py",  # every AVS point of the real tree (pto-v0)
    "real-exec",
    "tests/executor/test_tcvt.py",
    "tests/test_package.py",
    "tests/site/test_cache.py",
    "tests/checks/test_semantics.py",
)


def work_unit(item) -> str:
    """The unit of work ``item`` belongs to: its file, or its file's shared group."""
    path = item.nodeid.split("::", 1)[0]
    return SHARED_GROUPS.get(path, path)


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the xdist_group marks
def pytest_collection_modifyitems(config, items):
    for item in items:
        item.add_marker(pytest.mark.xdist_group(work_unit(item)))
    rank = {unit: n for n, unit in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(work_unit(item), len(rank)))  # stable: the rest keep their order
