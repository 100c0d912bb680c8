"""Material's search indexing, the same entries at a fraction of the cost.

Material's search plugin splits every page into sections with ``html.parser.HTMLParser`` and segments every
Chinese run with jieba. On a tree of ~940 pages per language that is the largest single cost of a build
(profiled: a quarter of the English build, a third of the Chinese one). Two things here make it cheap
without changing a byte of ``search_index.json``:

* :class:`SectionParser` restates Material's ``Parser`` rule for rule on tag names (Material's elements
  compare by tag, so that is what its rules test) and is fed by a regular-expression tokenizer instead of
  HTMLParser's state machine. The tokenizer accepts exactly the well-formed subset the pages are made of
  (start and end tags with quoted attributes, text, entities, plain comments) and delivers the calls
  HTMLParser would (lower-case names, unescaped text and attribute values, one text call per run, ``<x/>``
  as start then end). Anything else (other comments, doctypes, processing instructions, ``<script>`` or
  ``<style>`` content, unquoted attributes, a stray ``<``), or any failure, hands the whole page to
  Material's own parser instead, so the result never depends on which path ran.
* :func:`page_context` stands for the search plugin's ``on_page_context`` event (when its source is the one it
  restates): Material's pattern removing ``data-search-*`` attributes begins with an optional space, so it tries
  every position of every page; it now runs only on a page that holds such an attribute with a value.
* :func:`install` memoises jieba per Chinese run (the same labels recur on every page), takes the runs of
  pto-docs' own Chinese from a table jieba made once (``zh_segments``: jieba's dictionary is then never loaded
  for an untranslated tree), and compiles Material's Han-script pattern once instead of once per string.

``tests/site/test_search_fast.py`` checks both against Material's implementation: generated HTML, every
page of the sample tree, and byte-identical search indexes of a whole build with and without this module.
"""

from __future__ import annotations

import functools
import re
from html import escape, unescape

from . import zh_segments

try:
    from material.plugins.search import plugin as material_search
except ImportError:  # pragma: no cover - Material is a dependency; without it there is nothing to speed up
    material_search = None

_ATTR = r"""\s+[a-zA-Z_:][-a-zA-Z0-9_:.]*(?:\s*=\s*(?:"[^"]*"|'[^']*'))?"""
_TOKEN = re.compile(
    r"(?P<text>[^<]+)"
    r"|<(?P<start>[a-zA-Z][a-zA-Z0-9-]*)(?P<attrs>(?:" + _ATTR + r")*)\s*(?P<close>/?)>"
    r"|</(?P<end>[a-zA-Z][a-zA-Z0-9-]*)\s*>"
    r"|(?P<comment><!--(?:[^-<>]|-(?!-))*-->)"  # a plain comment (the pages' fragment placeholders)
    r"|(?P<other><)")                            # anything else: HTMLParser must read the page
_ONE_ATTR = re.compile(r"""\s+([a-zA-Z_:][-a-zA-Z0-9_:.]*)(\s*=\s*(?:"([^"]*)"|'([^']*)'))?""")
_RAW_TEXT = ("script", "style")  # HTMLParser's CDATA_CONTENT_ELEMENTS: their content is not markup
_HEADINGS = frozenset(f"h{x}" for x in range(1, 7))
_NEVER_UNSKIPPED = ("script", "style", "object")  # Material's endtag never takes these out of its skip set
_MATERIAL = material_search.Parser() if material_search is not None else None
_KEEP = frozenset(_MATERIAL.keep) if _MATERIAL else frozenset()  # tags kept in the index text (p, code, ...)
_SKIP = frozenset(_MATERIAL.skip) if _MATERIAL else frozenset()  # tags whose content is never indexed


class Unsupported(Exception):
    """The input leaves the tokenizer's subset: HTMLParser must read it."""


@functools.lru_cache(maxsize=4096)
def attributes(raw: str) -> tuple[tuple[str, str | None], ...]:
    """Attribute (name, value) pairs as HTMLParser gives them: names lower-cased, a bare attribute's value
    None, a quoted value unescaped (an empty one stays '')."""
    pairs = []
    for m in _ONE_ATTR.finditer(raw):
        name, assigned, double, single = m.groups()
        if assigned is None:
            value = None
        else:
            value = double if double is not None else single
            if "&" in value:
                value = unescape(value)
        pairs.append((name.lower(), value))
    return tuple(pairs)


class SectionParser:
    """Material's search ``Parser`` (``material/plugins/search/plugin.py``) re-stated for speed, rule for rule.

    Material compares its ``Element`` objects by tag name only (``__eq__`` and ``__hash__`` use the tag), so
    its ``skip`` set and every ``x in self.context`` test are tests on tag names; here they are written that
    way, on a list of tag names kept beside the context, with the same consequences (an excluded ``div`` is
    un-skipped by the first nested ``</div>``, as in Material). ``data`` holds Material's own ``Section``
    objects, so its ``create_entry_for_section`` turns them into entries unchanged."""

    def __init__(self) -> None:
        self.context: list = []       # Material Elements, as Material keeps them
        self.tags: list[str] = []     # their tag names
        self.skip = set(_SKIP)
        self.skipping = False         # whether some context tag is in skip (Material: skip ∩ context)
        self.section = None
        self.data: list = []

    def _rescan(self) -> None:
        skip = self.skip
        self.skipping = any(t in skip for t in self.tags)

    def _preface(self):
        if self.section is None:
            self.section = material_search.Section(material_search.Element("hx"))
            self.data.append(self.section)
        return self.section

    def start(self, tag: str, pairs) -> None:
        attrs = dict(pairs)
        if tag in material_search.void:
            return
        el = material_search.Element(tag, attrs)
        self.context.append(el)
        self.tags.append(tag)
        if tag in self.skip:
            self.skipping = True
        if tag in _HEADINGS and "id" in attrs:
            depth = len(self.context)
            if tag != "h1" and not self.data:
                self.section = material_search.Section(material_search.Element("hx"), depth)
                self.data.append(self.section)
            self.section = material_search.Section(el, depth)
            if self.data:
                self.section.id = attrs["id"]
            self.data.append(self.section)
        section = self._preface()
        if "data-search-exclude" in attrs or attrs.get("class") == "linenodiv":
            self.skip.add(tag)
            self.skipping = True
            return
        if not self.skipping and tag in _KEEP:
            (section.title if section.el.tag in self.tags else section.text).append(f"<{tag}>")

    def end(self, tag: str) -> None:
        if not self.tags or self.tags[-1] != tag:
            return
        depth = len(self.context)
        if self.section.depth > depth:
            for section in reversed(self.data):
                if section.depth <= depth:
                    self.section.depth = float("inf")
                    self.section = section
                    break
        self.context.pop()
        self.tags.pop()
        if tag in self.skip:
            if tag not in _NEVER_UNSKIPPED:
                self.skip.remove(tag)
            self._rescan()
            return
        if self.skipping:
            self._rescan()
        if not self.skipping and tag in _KEEP:
            section = self.section
            data = section.title if section.el.tag in self.tags else section.text
            index = data.index(f"<{tag}>")
            for i in range(index + 1, len(data)):
                if not data[i].isspace():
                    index = len(data)
                    break
            if len(data) > index:
                del data[index:]
            else:
                data.append(f"</{tag}>")

    def text(self, data: str) -> None:
        if self.skipping:
            return
        tags = self.tags
        in_pre = "pre" in tags
        space = data.isspace()
        if not in_pre:
            data = " " if space else data.replace("\n", " ")
        section = self._preface()
        if section.el.tag in tags:
            if not any(el.tag == "a" and el.attrs.get("class") == "headerlink" for el in self.context):
                section.title.append(escape(data, quote=False))
        elif space:
            if not section.text or not section.text[-1].isspace() or in_pre:
                section.text.append(data)
        else:
            section.text.append(escape(data, quote=False))

    def feed(self, html: str) -> None:
        """Drive the handlers straight from the tokenizer's matches, as HTMLParser(convert_charrefs=True) would:
        lower-case names, unescaped text and attribute values, one text call per run, ``<x/>`` as start then end."""
        start, end, text = self.start, self.end, self.text
        for m in _TOKEN.finditer(html):
            kind = m.lastgroup
            if kind == "text":
                data = m.group("text")
                text(unescape(data) if "&" in data else data)
            elif kind == "end":
                end(m.group("end").lower())
            elif kind == "comment":
                continue
            elif kind == "other":
                raise Unsupported(html[m.start():m.start() + 40])
            else:
                tag = m.group("start").lower()
                if tag in _RAW_TEXT:
                    raise Unsupported(tag)
                raw = m.group("attrs")
                start(tag, attributes(raw) if raw else ())
                if m.group("close"):
                    end(tag)


def sections(html: str) -> list:
    """Material's ``Parser().feed(html); .close(); .data`` — fast when ``html`` is in the tokenizer's subset
    (and Material's own parser, from the start, whenever it is not or the fast path fails in any way)."""
    parser = SectionParser()
    try:
        parser.feed(html)
        return parser.data
    except Exception:  # noqa: BLE001 - Unsupported, or an input Material itself fails on: let Material decide
        slow = material_search.Parser()
        slow.feed(html)
        slow.close()
        return slow.data


_HAN = None


_OWN_DICTIONARY = [False]  # the search plugin of this build names a jieba dictionary of its own (install)


@functools.cache
def _segment_run(run: str) -> str:
    words = None if _OWN_DICTIONARY[0] else zh_segments.known(run)
    if words is None:
        import jieba
        words = jieba.cut(run.encode("utf-8"))
    return "".join(["\u200b", "\u200b".join(words), "\u200b"])


def segment_chinese(data: str) -> str:
    """Material's ``SearchIndex._segment_chinese``: the same pattern and jieba call, compiled and cut once."""
    global _HAN
    if data.isascii():  # no Han character, and nothing for strip("\u200b") to remove
        return data
    if _HAN is None:
        from backrefs import bre
        _HAN = bre.compile(r"(\p{script: Han}+)", bre.UNICODE)
    return _HAN.sub(lambda m: _segment_run(m.group(0)), data).strip("\u200b")


def add_entry_from_context(index, page) -> None:
    """Material's ``SearchIndex.add_entry_from_context`` with :func:`sections` for its parser."""
    search = page.meta.get("search") or {}
    if search.get("exclude"):
        return
    for section in sections(page.content):
        if not section.is_excluded():
            index.create_entry_for_section(section, page.toc, page.url, page)


# Material's SearchPlugin.on_page_context (the sha256 of its source, dedented) whose rewrite page_context is: the
# index entry, then its data-search-* attributes removed from the content (as in mkdocs-material 9.8.2)
PAGE_CONTEXT_SOURCE = "2ebaa3873b3e092dd5710da32df19082fb09ae781c71c19a2fe9b82671559b83"
_MATERIAL_ATTRIBUTES = re.compile(r"\s?data-search-\w+=\"[^\"]+\"")  # Material's pattern, as it is written there
_ANY_ATTRIBUTE = re.compile(r'data-search-\w+="[^"]+"')  # what each of its matches holds: found fast (literal)


def page_context(plugin, context, *, page, config, nav):
    """Material's ``on_page_context`` for ``plugin``, without its pass over the whole content when that holds no
    attribute to remove (the pages' ``data-search-exclude`` has no value): Material's pattern starts with an
    optional space, so its scan tries every position; a match needs ``data-search-…="…"``, found by a literal
    scan first."""
    if not plugin.config.enabled:
        return
    plugin.search_index.add_entry_from_context(page)
    if _ANY_ATTRIBUTE.search(page.content) is not None:
        page.content = _MATERIAL_ATTRIBUTES.sub("", page.content)


@functools.cache
def _material_page_context_known() -> bool:
    import hashlib
    import inspect
    import textwrap
    try:
        source = textwrap.dedent(inspect.getsource(material_search.SearchPlugin.on_page_context))
    except (OSError, TypeError):
        return False
    return hashlib.sha256(source.encode()).hexdigest() == PAGE_CONTEXT_SOURCE


def install(search_plugin, plugins=None) -> bool:
    """Speed up one search plugin instance's index (its class and every other instance are untouched), and, given
    the build's ``plugins`` (MkDocs' PluginCollection), that instance's ``page_context`` event when Material's is
    the one :func:`page_context` restates. False when the plugin is not Material's or its index is not the one
    this module mirrors."""
    index = getattr(search_plugin, "search_index", None)
    if material_search is None or not isinstance(index, material_search.SearchIndex):
        return False
    if not all(hasattr(index, name) for name in ("create_entry_for_section", "_segment_chinese")):
        return False
    index.add_entry_from_context = functools.partial(add_entry_from_context, index)
    events = getattr(plugins, "events", {}).get("page_context") if plugins is not None else None
    if events is not None and _material_page_context_known():
        for n, method in enumerate(events):
            if (getattr(method, "__self__", None) is search_plugin
                    and getattr(method, "__func__", None) is material_search.SearchPlugin.on_page_context):
                events[n] = functools.partial(page_context, search_plugin)
                origins = getattr(plugins, "_event_origins", None)  # (the plugin MkDocs names in its messages)
                if isinstance(origins, dict) and method in origins:
                    origins[events[n]] = origins[method]
    config = getattr(search_plugin, "config", None)
    _OWN_DICTIONARY[0] = bool(getattr(config, "jieba_dict", None) or getattr(config, "jieba_dict_user", None))
    _segment_run.cache_clear()  # jieba's dictionary is set in the search plugin's on_config of this build
    if material_search.jieba is not None:
        index._segment_chinese = segment_chinese
    return True
