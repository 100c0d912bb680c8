"""What the command line and the MkDocs plugin both call: load (analyse) a spec tree, validate it, build the site,
run the trace gate, run its AVS test points, run a worked-example case, load a release (a tree or a git revision)
and compare two releases (diff).

Each returns data or raises one of two exceptions whose message is the one line to show:
:class:`ConfigProblem` (a usage or configuration problem: exit 2) and :class:`BuildFailed` (the build found
defects or failed: exit 1). Nothing here prints, exits or reads ./mkdocs.yml by itself.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from mkdocs.exceptions import PluginError

from .analysis.load import LoadResult
from .model.diagnostics import Diagnostic
from .sources.mkdocs_options import ConfigProblem

__all__ = ["BuildFailed", "ConfigProblem", "SiteUpToDate", "Validation", "build_site", "diff", "load",
           "load_catalog", "load_release", "needs_decoders", "run_avs", "run_case", "run_trace", "validate"]


class BuildFailed(Exception):
    """The site build stopped (validation errors, a strict warning, a failed language build)."""


class SiteUpToDate(Exception):
    """Raised by the plugin's on_config to end a ``pto-docs build`` whose site is already what it would build
    (site/uptodate.py); :func:`build_site` returns its message."""


def config_path(config, value: str) -> Path:
    """A path option of the plugin: relative to the directory of mkdocs.yml (else the working directory)."""
    path = Path(os.path.expanduser(value))
    if not path.is_absolute():
        path = Path(config.config_file_path or ".").resolve().parent / path
    return path


def check_mkdocs_config(config) -> None:
    """What the site needs from MkDocs' configuration; one message each, before anything is built."""
    if config.theme.name != "material":
        raise PluginError(f"pto-docs: the site needs the Material theme (theme: {{name: material}}), "
                          f"not {config.theme.name or 'a custom theme without a name'!r}")
    if not config.use_directory_urls:
        raise PluginError("pto-docs: the generated site needs use_directory_urls: true")


def load(spec_root: str | os.PathLike, *, memo=None, previous=None, preread: dict | None = None,
         avs: Mapping | None = None, avs_run=None, started=None, teach_run=None):
    """The analysed tree (analysis.state.Analysis: the loaded tree, every diagnostic, the worked examples, the AVS
    results and, for a tree without errors, the site data the pages are rendered from). ``memo`` and
    ``previous`` (a store.LoadMemo and the last SpecTree of the same root) make a reload incremental; the other
    options are analysis.state.analyse's."""
    from .analysis.state import analyse
    return analyse(spec_root, memo, previous=previous, preread=preread, avs=avs, avs_run=avs_run, started=started,
                   teach_run=teach_run)


def load_catalog(spec_root: str | os.PathLike) -> LoadResult:
    from .analysis.load import load_catalog as _load
    return _load(spec_root)


@dataclass(frozen=True)
class Validation:
    """What ``pto-docs validate`` reports: every diagnostic of the tree (the loader's, then the consistency checks
    of worked examples, flags and semantics), and the counts of its summary line."""

    result: LoadResult
    diagnostics: tuple[Diagnostic, ...]
    counts: Mapping[str, int]

    @property
    def exit_code(self) -> int:
        """2 for a tree that cannot be read, 1 for errors, else 0."""
        if any(d.code.startswith("IO-") for d in self.diagnostics):
            return 2
        return 1 if self.counts["errors"] else 0


def validate(spec_root: str | os.PathLike, *, strict: bool = False) -> Validation:
    """Load and check a tree. ``strict`` makes every warning an error. Raises ConfigProblem (one line, exit 2) for a
    spec root that is missing or unreadable."""
    from .checks.consistency import consistency_diagnostics
    from .model.diagnostics import SpecRootError, count
    try:
        result = load_catalog(spec_root)
    except SpecRootError as exc:
        raise ConfigProblem(f"{spec_root}: error[IO-ROOT]: {exc}") from None
    except OSError as exc:
        raise ConfigProblem(f"{spec_root}: error[IO-ROOT]: cannot read spec root: {exc.strerror or exc}") from None
    diags = list(result.diagnostics) + list(consistency_diagnostics(result.catalog))
    if strict:
        diags = [d if d.is_error else type(d)(d.path, d.line, d.col, "error", d.code, d.message, d.pointer)
                 for d in diags]
    errors, warnings = count(diags)
    cat = result.catalog
    counts = {"units": len(cat.units), "instructions": sum(1 for u in cat.units.values() if u.is_instruction),
              "ndf_clauses": sum(len(u.ndf) for u in cat.units.values()), "requirements": len(cat.requirements),
              "tests": len(cat.tests), "adrs": len(cat.adrs), "errors": errors, "warnings": warnings}
    return Validation(result, tuple(diags), counts)


def load_release(spec: str, cwd: str | os.PathLike | None = None):
    """One release to compare (a history.release.LoadedRelease: side, LoadResult, diagnostics): a spec tree
    directory (relative to ``cwd``) or a git revision (tag, branch, sha, HEAD) of the checkout ``cwd`` lies in,
    read from .git without running git. Raises ConfigProblem (exit 2) for one that cannot be loaded."""
    from .history.release import ReleaseProblem
    from .history.release import load_release as _load
    try:
        return _load(spec, cwd)
    except ReleaseProblem as exc:
        raise ConfigProblem(str(exc)) from None


def diff(old, new, *, cwd: str | os.PathLike | None = None):
    """What changed from release ``old`` to release ``new``: a history.diff.ReleaseDiff (``.document()`` is the
    ``pto-docs.diff.v1`` JSON). Each is a spec name for :func:`load_release` or an already loaded release
    (LoadedRelease, LoadResult, Analysis or Catalog)."""
    from .history.diff import diff_analyses
    before = load_release(old, cwd) if isinstance(old, str) else old
    after = load_release(new, cwd) if isinstance(new, str) else new
    return diff_analyses(before, after)


def run_avs(catalog, generated: str | None = None, **options) -> dict:
    """Run the spec's AVS test points of a loaded, error-free tree on pto-docs' ASL interpreter and return the
    ``pto-docs.avs.v1`` document: bridge.avs.run_tree_avs, the one orchestration and cache rule of
    ``pto-docs avs`` and of the build's ``avs_examples: run``. ``generated``: the decoders the model links with
    (None when it needs none: :func:`needs_decoders`); ``options``: cache_dir, pattern, kinds, profile, examples,
    jobs, progress."""
    from .bridge.avs import run_tree_avs
    return run_tree_avs(catalog, generated, **options)


def prepare_for_a_save() -> None:
    """Serving, after a rebuild (in the background): make what the next save of code would make first
    (bridge.teaching_run.prepare_for_a_save). Pages do not change."""
    from .bridge.teaching_run import prepare_for_a_save as prepare
    prepare()


def teach(catalog, cache_dir=None, split: bool = False) -> tuple[dict, dict]:
    """Every instruction's own executed teaching example (bridge.teaching_run.teach): (unit id -> Taught, unit id
    -> Untaught) of a loaded, error-free tree, run on its ASL model linked with pto-docs' own decoders under
    ``ieee``; ({}, {}) for a tree without an ASL model. ``cache_dir``: a checked folder for the sealed results.
    ``split``: share the runs with a forked helper once the model is linked (only from a process with no other
    thread that ends with the build, such as a build's load worker: the linked model is frozen out of the garbage
    collector's sight)."""
    from .bridge.avs import model_units
    from .bridge.avs import needs_decoders as needs
    from .bridge.teaching_run import teach as run
    if not model_units(catalog):
        return {}, {}
    generated = None
    if needs(catalog):
        from .checks.semantics import kept_decoders
        generated = kept_decoders(catalog)  # (remembered while the records are the same)
        if generated is None:
            return {}, {}
    return run(catalog, generated, cache_dir, split=split)


def needs_decoders(catalog) -> bool:
    """Whether the tree's ASL model links with generated decoders (generated:decoders)."""
    from .bridge.avs import needs_decoders as needs
    return needs(catalog)


def run_case(case: Mapping, *, loaded: LoadResult | None = None, decoders=None, cache=None) -> dict:
    """Run one worked-example case and return its result document. A v1 case runs on the NumPy executor
    (executor.run_case, which raises executor.CaseError for a malformed case), or, when the executor lacks its
    operation (TGATHER, TCONCAT, TPART*, TTRANS) and ``loaded`` is given, on that tree's ASL model
    (bridge.exec_v1_model: the same v1 result; executor.CaseError when it cannot run); a v2 case runs on the spec's ASL
    model of ``loaded`` (a tree loaded without errors) linked with its generated ``decoders``, under the
    interpreter's memory cap (bridge.exec_model; raises bridge.exec_model.CaseProblem, also for a model that
    cannot be linked). ``cache``: the checked parsed-model cache folder."""
    from .bridge.exec_model import CaseProblem, ModelRunner, check_case, is_v2
    if not is_v2(case):
        from .bridge.exec_v1_model import needs_model, run_on_model
        if loaded is not None and needs_model(case):  # an operation the NumPy executor lacks: the tree's model
            return run_on_model(loaded.catalog, decoders, cache, dict(case))
        from .executor import run_case as run_v1
        return run_v1(dict(case))
    check_case(case)
    if loaded is None:
        raise CaseProblem("a v2 case runs on a spec tree's ASL model: give the loaded tree", "/")
    from .asl.harness import failure_text, memory_capped
    calls = (case["instruction"]["call"],) if "call" in case["instruction"] else ()
    with memory_capped():
        try:
            runner = ModelRunner(loaded.catalog, decoders, cache, case.get("profile", "ieee"), calls)
        except Exception as exc:  # noqa: BLE001 - a model that cannot be linked, said with its position
            raise CaseProblem(f"the tree's ASL model cannot be linked: {failure_text(exc)}", "/") from None
        return runner.run(case)


def mkdocs_config(config_file: str | None, *, spec_root: str | None = None, site_dir: str | None = None,
                  strict: bool = True):
    """MkDocs' configuration of a site build: ``config_file``, else the configuration shipped with pto-docs
    (resources.DEFAULT_CONFIG: the hand-written site sources, ``site/`` in the working directory)."""
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort, ConfigurationError

    from .render.resources import DEFAULT_CONFIG, SITE_SRC_DIR
    overrides: dict = {"strict": strict}
    if config_file is None:
        if spec_root is None:
            raise ConfigProblem("pto-docs build: error[USAGE]: no spec root: give SPEC_ROOT, or run where an "
                                "mkdocs.yml with the pto-docs plugin is (`pto-docs init SPEC_ROOT` writes one)")
        config_file = str(DEFAULT_CONFIG)
        overrides["docs_dir"] = str(SITE_SRC_DIR)
        overrides["site_dir"] = os.path.abspath("site")
    if site_dir:
        overrides["site_dir"] = os.path.abspath(site_dir)
    try:
        config = load_config(config_file=config_file, **overrides)
    except (ConfigurationError, Abort) as exc:  # MkDocs has logged each problem
        raise ConfigProblem(f"{config_file}: {exc}") from None
    if "pto-docs" not in config.plugins:
        raise ConfigProblem(f"{config_file}: the pto-docs plugin is not among its plugins")
    try:
        check_mkdocs_config(config)
    except Exception as exc:  # a PluginError with its one line
        raise ConfigProblem(f"{config_file}: {exc}") from None
    if spec_root is not None:
        config.plugins["pto-docs"].config.spec_root = os.path.abspath(spec_root)
    return config


def build_site(spec_root: str | None = None, site_dir: str | None = None, *, config_file: str | None = None,
               strict: bool = True, cache: bool = True, cache_dir: str | None = None, progress=None,
               force: bool = False, version: str | None = None, previous: str | None = None) -> str:
    """Build every language of the site (the same bytes as ``mkdocs build`` of that configuration); returns the
    summary line. ``version``: the site is that release of a versioned site (site/versions.py); ``previous``: a
    release (a spec tree directory, else a git revision of the checkout) whose changes since the site shows. The site and cache directories are checked first (output_guard: never over or inside the
    spec tree, never over a file or, unless ``force``, a directory that is not a previous site). An OSError
    while writing (a full disk) propagates."""
    from mkdocs.commands.build import build
    from mkdocs.exceptions import Abort, PluginError
    if spec_root is not None and not Path(spec_root).is_dir():
        raise ConfigProblem(f"{spec_root}: error[IO-ROOT]: spec root does not exist or is not a directory")
    config = mkdocs_config(config_file, spec_root=spec_root, site_dir=site_dir, strict=strict)
    plugin = config.plugins["pto-docs"]
    if cache_dir:
        plugin.config.cache_dir = os.path.abspath(cache_dir)
    if version is not None:
        plugin.config.version = version
    if previous is not None:
        plugin.config.previous = os.path.abspath(previous) if Path(previous).is_dir() else previous
    use_cache = bool(plugin.config.cache and cache)
    plugin.config.cache = use_cache
    from .store.output_guard import OutputRefused, check_cache_dir, check_site_dir
    root = config_path(config, plugin.config.spec_root)
    try:
        if plugin.config.cache_dir:
            check_cache_dir(plugin.config.cache_dir, root)
        check_site_dir(config["site_dir"], root, force=force, create=True)
    except OutputRefused as exc:
        raise ConfigProblem(exc.format()) from None
    plugin.progress = progress
    config.plugins.on_startup(command="build", dirty=use_cache)  # dirty: MkDocs skips the pages reused from the cache
    try:
        build(config, dirty=use_cache)
    except SiteUpToDate as done:  # nothing changed, the site is as the last build left it (site/uptodate.py)
        return str(done)
    except (PluginError, Abort) as exc:
        raise BuildFailed(str(exc)) from None
    return plugin.summary_text or ""


def run_trace(result: LoadResult, *, check: bool = False, stamp: bool = False, policy_items: Iterable[str] = (),
              options: Mapping | None = None, environ: Mapping[str, str] | None = None, avs: Mapping | None = None,
              previous=None):
    """The traceability report and gate of a loaded tree (a trace.run.TraceRun: report, findings, exit code; analysis.trace_run);
    with ``stamp``, the review lock is written first. ``previous`` (a release from :func:`load_release`): also
    report every instruction removed and every encoding changed since it that no ADR or changelog entry of this
    release names (CHANGE-UNDOCUMENTED, history/undocumented.py).
    Raises ConfigProblem for a bad policy or SOURCE_DATE_EPOCH, analysis.trace_run.StampError when the lock cannot be
    stamped."""
    from .analysis.trace_run import trace
    from .trace.gate import PolicyError
    changes, checked = [], []
    if previous is not None:
        from .history.undocumented import CODE, changelog_text, undocumented_changes
        changes = undocumented_changes(diff(previous, result), result.catalog, changelog_text(result.catalog.root))
        checked = [CODE]
    try:
        return trace(result, check=check, stamp=stamp, policy_items=policy_items, options=options or {},
                     environ=os.environ if environ is None else environ, avs=avs, changes=changes, checked=checked)
    except PolicyError as exc:
        raise ConfigProblem(str(exc)) from None
