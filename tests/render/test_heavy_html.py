"""render/heavy_html.py prints what the Jinja call blocks it replaced printed: for generated evidence tests and worked
examples (every branch, hostile text), the page text and the heavy parts, in order, are the same both ways. The
blocks below are the template text they replaced (partials/evidence.html.j2, partials/avs_examples.html.j2)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from pto_docs.i18n import labels
from pto_docs.render.avs_examples_view import AvsExampleView, StateRow
from pto_docs.render.env import environment
from pto_docs.render.evidence import TestRow as EvidenceTest
from pto_docs.render.heavy_html import HeavyBlocks
from pto_docs.render.pages import Collector

EVIDENCE_BLOCK = """{% for t in tests %}
{% call heavy() %}
<div class="pto-evidence-item" id="{{ t.id }}" data-search-exclude>
<p><code class="pto-id">{{ t.id }}</code> · <code>{{ t.kind }}</code>{% if t.avs_status %} · <span class="pto-avs pto-avs--{{ t.avs_status }}"{% if t.avs_message %} title="{{ t.avs_message }}"{% endif %}>{{ L('avs.' ~ t.avs_status) }}</span>{% endif %}</p>
{% if t.avs_message and t.avs_status != 'pass' %}<p class="pto-avs-message"><code>{{ t.avs_message }}</code></p>{% endif %}
<table class="pto-table pto-kv" data-search-exclude>
<tr><th>{{ L('common.path') }}</th><td><code>{{ t.path }}</code></td></tr>
<tr><th>{{ L('common.summary') }}</th><td lang="en">{{ t.summary }}</td></tr>
<tr><th>{{ L('instruction.pass_condition') }}</th><td lang="en">{{ t.pass_condition }}</td></tr>
{% call heavy() %}<tr data-search-exclude><th>{{ L('common.sha256') }}</th><td><code class="pto-sha">{{ t.sha256 }}</code></td></tr>{% endcall %}
</table>
<details class="pto-details">
<summary>{{ L('instruction.show_test_source') }}</summary>
{{ H(t.source) }}
</details>
</div>
{% endcall %}

{% endfor %}
"""

NEW_EVIDENCE_BLOCK = """{% for t in tests %}
{{ evidence_test(t) }}
{% endfor %}
"""

EXAMPLE_BLOCK = """{% for ex in examples %}
<div>
{% call heavy() %}
<table class="pto-table pto-kv" data-search-exclude>
<tr><th>{{ L('avs_example.entry') }}</th><td><code>{{ ex.call }}</code></td></tr>
{% if ex.word %}<tr><th>{{ L('avs_example.encoded') }}</th><td><code>{{ ex.word }}</code> ({{ ex.length_bits }} bits) = <code>{{ ex.mnemonic }}</code>{% if ex.form_id %} · {{ L('avs_example.form') }} <code>{{ ex.form_id }}</code>{% endif %}</td></tr>{% endif %}
{% if ex.asm %}<tr><th>{{ L('avs_example.instruction') }}</th><td><code>{{ ex.asm }}</code></td></tr>{% endif %}
<tr><th>{{ L('avs_example.result') }}</th><td>{% if ex.exception %}{{ L('avs_example.exception') }}: <code>{{ ex.exception }}</code>{% elif ex.result is not none %}<code>{{ ex.result }}</code>{% else %}{{ L('common.none') }}{% endif %}</td></tr>
</table>
{% if ex.fields %}
<table class="pto-table pto-avs-fields" data-search-exclude>
<caption>{{ L('avs_example.decoded') }}</caption>
<thead><tr><th>{{ L('avs_example.field') }}</th><th>{{ L('avs_example.value') }}</th></tr></thead>
<tbody>{% for name, value in ex.fields %}<tr><td><code>{{ name }}</code></td><td><code>{{ value }}</code></td></tr>{% endfor %}</tbody>
</table>
{% endif %}
<table class="pto-table pto-avs-state" data-search-exclude>
<caption>{{ L('avs_example.before') }}</caption>
{% if ex.before %}<thead><tr><th>{{ L('avs_example.location') }}</th><th>{{ L('avs_example.value') }}</th></tr></thead>
<tbody>{% for r in ex.before %}<tr><td><code>{{ r.name }}</code></td><td><code>{{ r.before }}</code></td></tr>{% endfor %}</tbody>{% else %}<tbody><tr><td>{{ L('avs_example.nothing_before') }}</td></tr></tbody>{% endif %}
</table>
{% if ex.before_more %}<p class="pto-caption">{{ L('avs_example.more', count=ex.before_more) }}</p>{% endif %}
<table class="pto-table pto-avs-state pto-avs-changed" data-search-exclude>
<caption>{{ L('avs_example.changed') }}</caption>
{% if ex.changed %}<thead><tr><th>{{ L('avs_example.location') }}</th><th>{{ L('avs_example.before_value') }}</th><th>{{ L('avs_example.after_value') }}</th></tr></thead>
<tbody>{% for r in ex.changed %}<tr><td><code>{{ r.name }}</code></td><td><code>{{ r.before if r.before is not none else '–' }}</code></td><td class="pto-changed"><code>{{ r.after }}</code></td></tr>{% endfor %}</tbody>{% else %}<tbody><tr><td>{{ L('avs_example.nothing_changed') }}</td></tr></tbody>{% endif %}
</table>
{% if ex.changed_more %}<p class="pto-caption">{{ L('avs_example.more', count=ex.changed_more) }}</p>{% endif %}
{% if ex.truncated %}<p class="pto-caption">{{ L('avs_example.truncated') }}</p>{% endif %}
{% if ex.sequence | length > 1 %}
<details class="pto-details">
<summary>{{ L('avs_example.sequence') }}</summary>
<ol class="pto-avs-sequence">{% for text, current in ex.sequence %}<li>{% if current %}<strong><code>{{ text }}</code></strong>{% else %}<code>{{ text }}</code>{% endif %}</li>{% endfor %}</ol>
</details>
{% endif %}
<p class="pto-digest">{{ L('avs_example.digest') }}: <code class="pto-sha">{{ ex.digest }}</code></p>
{% endcall %}
</div>
{% endfor %}
"""

NEW_EXAMPLE_BLOCK = """{% for ex in examples %}
<div>
{{ avs_example(ex) }}</div>
{% endfor %}
"""

HOSTILE = st.sampled_from(["", "a", "<script>alert(1)</script>", "\"quoted\" & 'single'", "x{0}y", "–", "零",
                           "line\nbreak", "<!--pto-h:0-->", "{{ L('x') }}"])
TEXT = st.one_of(HOSTILE, st.text(max_size=12))
STATUS = st.sampled_from(["", "pass", "fail", "error", "stale", "missing"])


@st.composite
def evidence_rows(draw):
    source = Markup(draw(st.sampled_from(["<pre>src</pre>", "<div class=\"highlight\">x &amp; y</div>"])))
    return EvidenceTest(draw(TEXT), draw(TEXT), draw(TEXT), draw(TEXT), draw(TEXT), draw(TEXT), (), source,
                   draw(STATUS), draw(TEXT))


ROW_VALUE = st.one_of(st.none(), TEXT)
STATE_ROWS = st.lists(st.builds(StateRow, TEXT, ROW_VALUE, ROW_VALUE, st.integers(1, 4)), max_size=3)


@st.composite
def examples(draw):
    word = draw(st.one_of(st.none(), st.just(""), TEXT))
    return AvsExampleView(
        test_id=draw(TEXT), test_href="#x", kind="execution", status=draw(STATUS) or "pass", profile="ieee",
        own=draw(st.booleans()), call=draw(TEXT), mnemonic=draw(st.one_of(st.none(), TEXT)),
        form_id=draw(st.one_of(st.none(), TEXT)), asm=draw(st.one_of(st.none(), TEXT)), word=word,
        length_bits=draw(st.one_of(st.none(), st.integers(0, 128))),
        fields=tuple(draw(st.lists(st.tuples(TEXT, TEXT), max_size=3))),
        result=draw(st.one_of(st.none(), TEXT)), exception=draw(st.one_of(st.just(""), TEXT)),
        faulted=draw(st.booleans()), before=tuple(draw(STATE_ROWS)), before_more=draw(st.integers(0, 3)),
        changed=tuple(draw(STATE_ROWS)), changed_more=draw(st.integers(0, 3)),
        sequence=tuple(draw(st.lists(st.tuples(TEXT, st.booleans()), max_size=3))),
        truncated=draw(st.booleans()), digest=draw(TEXT))


def render(block: str, locale: str, **values):
    """(text, heavy parts) of ``block`` rendered as a page template renders it (render/pages.py _render)."""
    out = Collector()
    label = labels(locale).t
    blocks = HeavyBlocks(out.heavy_html, out.H, label)
    text = environment().from_string(block).render(
        L=label, heavy=out.heavy, H=out.H, evidence_test=blocks.evidence_test, avs_example=blocks.avs_example,
        **values)
    return text, out.heavy_parts


@settings(max_examples=150, deadline=None)
@given(tests=st.lists(evidence_rows(), max_size=3), locale=st.sampled_from(["en", "zh-CN"]))
def test_an_evidence_test_prints_what_the_call_block_printed(tests, locale):
    assert render(NEW_EVIDENCE_BLOCK, locale, tests=tests) == render(EVIDENCE_BLOCK, locale, tests=tests)


@settings(max_examples=150, deadline=None)
@given(example_list=st.lists(examples(), max_size=3), locale=st.sampled_from(["en", "zh-CN"]))
def test_a_worked_example_prints_what_the_call_block_printed(example_list, locale):
    assert (render(NEW_EXAMPLE_BLOCK, locale, examples=example_list)
            == render(EXAMPLE_BLOCK, locale, examples=example_list))


def test_the_source_of_a_test_shown_twice_on_a_page_is_one_heavy_part():
    source = Markup("<pre>shared</pre>")
    row = EvidenceTest("T-1", "p.asl", "kind", "s", "c", "0" * 64, (), source)
    text, parts = render(NEW_EVIDENCE_BLOCK, "en", tests=[row, row])
    assert parts.count("<pre>shared</pre>") == 1
    assert (text, parts) == render(EVIDENCE_BLOCK, "en", tests=[row, row])
