"""Generated English on a zh-CN page (issue 33): the visible text of a built page outside what is English by
design (spec prose awaiting translation and quotations are marked lang="en"; code, identifiers in <code>/<pre>,
the theme's header, sidebar and footer), checked against what pto-docs generates: every English UI label whose
zh-CN label differs (the literal parts of its template) and every spec enumeration value with a label. A page that
shows one of them printed an English label, an untranslated enumeration word or a label that bypassed the catalog.

A model check's reason (the detail of a finding, on the report page's model-check table and in an instruction's
finding notice) is generated text even when it is marked lang="en": there, only code and the quoted spec text are
English by design, and a run of three English words outside them is generated English."""

from __future__ import annotations

import re
from functools import cache
from html.parser import HTMLParser

from pto_docs.i18n import labels

_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
         "path", "rect", "line", "circle", "use", "stop"}
_ENGLISH_BY_DESIGN = {"code", "pre", "kbd", "script", "style", "q", "samp"}
_CHROME = ("md-header", "md-sidebar", "md-footer", "md-search", "md-source", "headerlink")
_FINDINGS = ("pto-findings-report", "pto-finding")  # where a lang="en" span is a checker's reason, not spec prose
_WORDS = re.compile(r"[A-Za-z]{2,}(?:[ ,;:'’-]+[A-Za-z]{2,}){2,}")  # (as browser_checks.GENERATED_ENGLISH_JS)


@cache
def generated_phrases() -> re.Pattern:
    en, zh = labels("en"), labels("zh-CN")
    zh_text = " ".join(zh.t(k) for k in zh.keys())  # English a zh-CN label keeps on purpose (field names: Function)
    phrases = set()
    for key in en.keys():
        if en.t(key) == zh.t(key) or key.startswith("language_name"):
            continue
        for piece in re.split(r"\{[^}]*\}", en.t(key)):
            piece = piece.strip(" .,;:()·—–-\"'…")
            if re.search(r"[A-Za-z]{5,}", piece) and not re.search(rf"(?<![\w-]){re.escape(piece)}(?![\w-])", zh_text):
                phrases.add(piece)
    alternation = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternation})(?![\w-])")


class _Visible(HTMLParser):
    """Text of <article> (and the SVG tooltips in it) outside the English-by-design elements."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool, bool, bool]] = []  # (tag, skipped, skipped in findings, a findings box)
        self.article = 0
        self.text: list[str] = []
        self.findings_text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in _VOID:
            return
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        chrome = any(c.startswith(_CHROME) for c in cls)
        code = tag in _ENGLISH_BY_DESIGN
        self.stack.append((tag, code or a.get("lang") == "en" or chrome, code or chrome,
                           any(c in _FINDINGS for c in cls)))
        self.article += tag == "article"

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        while self.stack:
            name, *_ = self.stack.pop()
            self.article -= name == "article"
            if name == tag:
                break

    def handle_data(self, data):
        if self.article <= 0:
            return
        if not any(skip for _, skip, _f, _b in self.stack):
            self.text.append(data)
        if any(box for *_, box in self.stack) and not any(skip for _, _s, skip, _b in self.stack):
            self.findings_text.append(data)


def generated_english(html: str) -> list[str]:
    parser = _Visible()
    parser.feed(html)
    return generated_phrases().findall(" ".join(parser.text)) + _WORDS.findall(" ".join(parser.findings_text))
