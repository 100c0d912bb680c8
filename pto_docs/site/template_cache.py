"""Compiled Jinja templates, kept so that a build does not compile the same templates again.

MkDocs makes a new theme environment for every build, and each language process compiles Material's templates
and our page templates for itself: on the catalog that was about a fifth of a build's CPU time. Jinja's own
answer is a bytecode cache (``jinja2.BytecodeCache``); two are kept here:

- :class:`ThemeBytecode`: in the memory of a serving process, for all its rebuilds (serve.py);
- :class:`CompiledTemplates`: on disk, in the user's cache (``$XDG_CACHE_HOME/pto-docs/templates``), for every
  build of every tree by this user, like Python's ``__pycache__`` for modules. A template's compiled code does
  not depend on the spec tree, only on the template, the environment's settings, Jinja and Python.

A template is found by its name, file and the environment's syntax settings (plus, on disk, the Jinja and
Python versions); Jinja itself then checks the source's checksum, so an edited template compiles afresh. A file
on disk is sealed with the user's key (store/seal.py: an HMAC-SHA256 over it): a damaged, foreign or planted file
is ignored (the template compiles, and the file is written again), its code never loaded. Caching only ever costs speed: a cache that cannot be read or written
(a read-only home, a full disk) leaves every template to compile as before.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import jinja2
import jinja2.bccache

from ..store.seal import MAGIC, Sealer, user_sealer

FILE_MAGIC = MAGIC  # a file on disk: FILE_MAGIC, its 32-byte MAC, the bytecode


def template_key(environment, name, filename, *extra) -> str:
    """The key of template ``name`` (file ``filename``) compiled by ``environment``: everything its code depends on
    besides its source (whose checksum Jinja checks itself)."""
    settings = (name, filename, sorted(environment.extensions), environment.autoescape, environment.optimized,
                environment.trim_blocks, environment.lstrip_blocks, environment.keep_trailing_newline,
                environment.newline_sequence, environment.block_start_string, environment.variable_start_string,
                environment.comment_start_string, environment.line_statement_prefix, environment.line_comment_prefix,
                *extra)
    return hashlib.sha256(repr(settings).encode("utf-8", "surrogatepass")).hexdigest()


class _KeyedBytecode(jinja2.BytecodeCache):
    """A bytecode cache whose buckets are found by :func:`template_key` (with :attr:`VERSIONS` added)."""

    VERSIONS: tuple = ()

    def get_bucket(self, environment, name, filename, source):
        bucket = jinja2.bccache.Bucket(environment, template_key(environment, name, filename, *self.VERSIONS),
                                       self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket


class ThemeBytecode(_KeyedBytecode):
    """Compiled theme templates, kept by this serving process for all its rebuilds (and inherited by every
    fork): MkDocs makes a new theme environment per build, which would compile Material's templates again
    (~0.2 s per language)."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


class CompiledTemplates(_KeyedBytecode):
    """Compiled templates in ``folder``: one file per template key, written whole (a temporary file renamed over
    it), so builds running at the same time share the folder safely."""

    VERSIONS = (jinja2.__version__, sys.version)

    def __init__(self, folder: Path, sealer: Sealer) -> None:
        self.folder = folder
        self.sealer = sealer

    def load_bytecode(self, bucket) -> None:
        payload = self.sealer.load(self.folder / bucket.key)
        if payload is None:
            return  # absent, damaged or not ours: compiled afresh, and written again
        try:
            bucket.bytecode_from_string(payload)
        except Exception:  # noqa: BLE001 - intact but unusable (another Jinja's format): compiled afresh
            bucket.reset()

    def dump_bytecode(self, bucket) -> None:
        try:
            self.sealer.save(self.folder / bucket.key, bucket.bytecode_to_string())
        except OSError:
            pass  # only ever costs speed: the next build compiles it again


def user_templates(spec_root: Path | None) -> CompiledTemplates | None:
    """The user's cache of compiled templates (``$XDG_CACHE_HOME/pto-docs/templates``); None when that folder is
    over, in or around the spec tree (pto-docs writes nothing there), is not a directory, or the user's cache key
    cannot be trusted."""
    from ..store import user_cache_root
    from ..store.output_guard import OutputRefused, check_cache_dir
    try:
        folder = check_cache_dir(user_cache_root() / "templates", spec_root)
    except OutputRefused:
        return None
    sealer = user_sealer()
    return CompiledTemplates(folder, sealer) if sealer is not None else None


def install(theme, cache: jinja2.BytecodeCache | None, keep_listing: bool = False) -> None:
    """Every Jinja environment ``theme`` makes from now on uses ``cache``: MkDocs' own for the pages, the
    navigation's overlay of it (speedups/nav_cache.py) and the one Material's search plugin makes for its
    translations. (MkDocs makes a new environment at each call of ``Theme.get_env``.) With ``keep_listing`` (a
    serving process), its file listing keeps what installed theme directories hold (theme_listing.py)."""
    make = type(theme).get_env.__get__(theme)  # the theme's own method, never one installed before

    def get_env():
        env = make()
        env.bytecode_cache = cache
        if keep_listing:
            from .theme_listing import install as keep
            keep(env)
        return env

    theme.get_env = get_env
