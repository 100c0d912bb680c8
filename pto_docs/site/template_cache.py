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
on disk carries the SHA-256 of its content: a damaged or foreign file is ignored (the template compiles, and
the file is written again), never loaded. Caching only ever costs speed: a cache that cannot be read or written
(a read-only home, a full disk) leaves every template to compile as before.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

import jinja2
import jinja2.bccache

FILE_MAGIC = b"pto-docs compiled template 1\n"


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

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def load_bytecode(self, bucket) -> None:
        try:
            data = (self.folder / bucket.key).read_bytes()
        except OSError:
            return
        head = len(FILE_MAGIC) + 32
        if data[:len(FILE_MAGIC)] != FILE_MAGIC or hashlib.sha256(data[head:]).digest() != data[len(FILE_MAGIC):head]:
            return  # damaged or not ours: compiled afresh, and written again
        try:
            bucket.bytecode_from_string(data[head:])
        except Exception:  # noqa: BLE001 - intact but unusable (another Jinja's format): compiled afresh
            bucket.reset()

    def dump_bytecode(self, bucket) -> None:
        payload = bucket.bytecode_to_string()
        data = FILE_MAGIC + hashlib.sha256(payload).digest() + payload
        temporary = None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=self.folder, prefix=".tmp-", delete=False) as handle:
                temporary = handle.name
                handle.write(data)
            os.replace(temporary, self.folder / bucket.key)
            temporary = None
        except OSError:
            pass  # only ever costs speed: the next build compiles it again
        finally:
            if temporary is not None:
                try:
                    os.unlink(temporary)
                except OSError:
                    pass


def user_templates(spec_root: Path | None) -> CompiledTemplates | None:
    """The user's cache of compiled templates (``$XDG_CACHE_HOME/pto-docs/templates``); None when that folder is
    over, in or around the spec tree (pto-docs writes nothing there) or is not a directory."""
    from ..commands.avs_cmd import default_cache_dir
    from ..output_guard import OutputRefused, check_cache_dir
    try:
        folder = check_cache_dir(default_cache_dir().parent / "templates", spec_root)
    except OutputRefused:
        return None
    return CompiledTemplates(folder)


def install(theme, cache: jinja2.BytecodeCache | None) -> None:
    """Every Jinja environment ``theme`` makes from now on uses ``cache``: MkDocs' own for the pages, the
    navigation's overlay of it (speedups/nav_cache.py) and the one Material's search plugin makes for its
    translations. (MkDocs makes a new environment at each call of ``Theme.get_env``.)"""
    make = type(theme).get_env.__get__(theme)  # the theme's own method, never one installed before

    def get_env():
        env = make()
        env.bytecode_cache = cache
        return env

    theme.get_env = get_env
