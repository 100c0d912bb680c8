"""The two heavy blocks a real tree repeats thousands of times a language: one test of a unit's evidence index
(3,352 on pto-spec 0.58.3) and the tables of one worked example from the AVS test points (about a thousand).

They were ``{% call heavy() %}`` blocks of partials/evidence.html.j2 and partials/avs_examples.html.j2, where a
Jinja call block, an attribute lookup and an escape per value cost about a tenth of the CPU of rendering a
language's pages (measured without a profiler; a profiler, which inflates calls, showed far more). Written here,
they print the same bytes (tests/site/test_heavy_html.py renders each both ways) and
put the same heavy parts in the same order: a part nested in a block is made before the block, as the call block
made it. Everything from the tree or the run is escaped, as autoescape did; the labels too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markupsafe import Markup, escape


class HeavyBlocks:
    """``evidence_test`` and ``avs_example`` for one page render: ``heavy`` takes a block's HTML and returns its
    placeholder (Collector.heavy_html), ``H`` a pre-rendered value's placeholder (Collector.H), ``label`` is the
    language's label lookup (``L`` in the templates)."""

    __slots__ = ("heavy", "H", "label")

    def __init__(self, heavy: Callable[[str], Markup], H: Callable[[Markup], Markup], label: Callable[..., str]):
        self.heavy, self.H, self.label = heavy, H, label

    def evidence_test(self, t: Any) -> Markup:
        """One test of the evidence index (render/evidence.py TestRow): its SHA-256 row and its source are heavy
        parts of their own, inside the test's block."""
        L = self.label
        sha_row = self.heavy(f'<tr data-search-exclude><th>{escape(L("common.sha256"))}</th>'
                             f'<td><code class="pto-sha">{escape(t.sha256)}</code></td></tr>')
        source = self.H(t.source)
        status = ""
        if t.avs_status:
            title = f' title="{escape(t.avs_message)}"' if t.avs_message else ""
            status = (f' · <span class="pto-avs pto-avs--{escape(t.avs_status)}"{title}>'
                      f'{escape(L("avs." + str(t.avs_status)))}</span>')
        message = ""
        if t.avs_message and t.avs_status != "pass":
            message = f'<p class="pto-avs-message"><code>{escape(t.avs_message)}</code></p>'
        return self.heavy(
            f'<div class="pto-evidence-item" id="{escape(t.id)}" data-search-exclude>\n'
            f'<p><code class="pto-id">{escape(t.id)}</code> · <code>{escape(t.kind)}</code>{status}</p>\n'
            f'{message}<table class="pto-table pto-kv" data-search-exclude>\n'
            f'<tr><th>{escape(L("common.path"))}</th><td><code>{escape(t.path)}</code></td></tr>\n'
            f'<tr><th>{escape(L("common.summary"))}</th><td lang="en">{escape(t.summary)}</td></tr>\n'
            f'<tr><th>{escape(L("instruction.pass_condition"))}</th><td lang="en">{escape(t.pass_condition)}</td></tr>\n'
            f'{sha_row}</table>\n'
            f'<details class="pto-details">\n'
            f'<summary>{escape(L("instruction.show_test_source"))}</summary>\n'
            f'{source}\n'
            f'</details>\n'
            f'</div>')

    def avs_example(self, ex: Any) -> Markup:
        """The tables of one worked example (render/avs_examples_view.py AvsExampleView): call, encoding, result,
        decoded fields, state before, changes, the test's instruction sequence and the result digest."""
        L = self.label
        out = ['<table class="pto-table pto-kv" data-search-exclude>\n'
               f'<tr><th>{escape(L("avs_example.entry"))}</th><td><code>{escape(ex.call)}</code></td></tr>\n']
        if ex.word:
            form = (f' · {escape(L("avs_example.form"))} <code>{escape(ex.form_id)}</code>' if ex.form_id else "")
            out.append(f'<tr><th>{escape(L("avs_example.encoded"))}</th><td><code>{escape(ex.word)}</code> '
                       f'({escape(ex.length_bits)} bits) = <code>{escape(ex.mnemonic)}</code>{form}</td></tr>')
        if ex.asm:
            out.append(f'<tr><th>{escape(L("avs_example.instruction"))}</th><td><code>{escape(ex.asm)}</code></td></tr>')
        if ex.exception:
            result = f'{escape(L("avs_example.exception"))}: <code>{escape(ex.exception)}</code>'
        elif ex.result is not None:
            result = f"<code>{escape(ex.result)}</code>"
        else:
            result = escape(L("common.none"))
        out.append(f'<tr><th>{escape(L("avs_example.result"))}</th><td>{result}</td></tr>\n</table>\n')
        if ex.fields:
            rows = "".join(f"<tr><td><code>{escape(name)}</code></td><td><code>{escape(value)}</code></td></tr>"
                           for name, value in ex.fields)
            out.append('<table class="pto-table pto-avs-fields" data-search-exclude>\n'
                       f'<caption>{escape(L("avs_example.decoded"))}</caption>\n'
                       f'<thead><tr><th>{escape(L("avs_example.field"))}</th><th>{escape(L("avs_example.value"))}'
                       f'</th></tr></thead>\n<tbody>{rows}</tbody>\n</table>\n')
        before = "".join(f"<tr><td><code>{escape(r.name)}</code></td><td><code>{escape(r.before)}</code></td></tr>"
                         for r in ex.before)
        out.append(self._state_table("pto-avs-state", "avs_example.before", ("avs_example.location", "avs_example.value"),
                                     before, "avs_example.nothing_before", ex.before_more))
        changed = "".join(f"<tr><td><code>{escape(r.name)}</code></td>"
                          f"<td><code>{escape(r.before if r.before is not None else '–')}</code></td>"
                          f'<td class="pto-changed"><code>{escape(r.after)}</code></td></tr>' for r in ex.changed)
        out.append(self._state_table("pto-avs-state pto-avs-changed", "avs_example.changed",
                                     ("avs_example.location", "avs_example.before_value", "avs_example.after_value"),
                                     changed, "avs_example.nothing_changed", ex.changed_more))
        if ex.truncated:
            out.append(f'<p class="pto-caption">{escape(L("avs_example.truncated"))}</p>')
        if len(ex.sequence) > 1:
            items = "".join(f"<li><strong><code>{escape(text)}</code></strong></li>" if current
                            else f"<li><code>{escape(text)}</code></li>" for text, current in ex.sequence)
            out.append('<details class="pto-details">\n'
                       f'<summary>{escape(L("avs_example.sequence"))}</summary>\n'
                       f'<ol class="pto-avs-sequence">{items}</ol>\n</details>\n')
        out.append(f'<p class="pto-digest">{escape(L("avs_example.digest"))}: '
                   f'<code class="pto-sha">{escape(ex.digest)}</code></p>')
        return self.heavy("".join(out))

    def _state_table(self, classes: str, caption: str, headers: tuple[str, ...], rows: str, nothing: str,
                     more: int) -> str:
        """A table of state rows (``rows``, HTML; none: the ``nothing`` label), then how many more there are."""
        L = self.label
        if rows:
            head = "".join(f"<th>{escape(L(key))}</th>" for key in headers)
            body = f"<thead><tr>{head}</tr></thead>\n<tbody>{rows}</tbody>"
        else:
            body = f"<tbody><tr><td>{escape(L(nothing))}</td></tr></tbody>"
        table = (f'<table class="pto-table {classes}" data-search-exclude>\n'
                 f"<caption>{escape(L(caption))}</caption>\n{body}</table>\n")
        if more:
            table += f'<p class="pto-caption">{escape(L("avs_example.more", count=more))}</p>'
        return table
