"""The value reads what the reporter wrote: the repository's template lines, bare headings and HTML
comments are every report's (link.value), so "### Reproduction" is no reproduction."""

from fixlore.core.model import Corpus
from fixlore.link import build_cases
from fixlore.rules.funnel import FunnelConfig

from test_link_builders import SINCE, issue, t

TEMPLATE = ("### Describe the bug\n\n{bug}\n\n### Reproduction\n\n{repro}\n\n### Environment\n\n{env}\n\n"
            "### Error traceback\n\n{err}\n<!-- Paste the full traceback here. -->\n")


def _values(*bodies):
    pool = [issue(100 + i, f"report {i} fails", body=b, closed=t(18), author=f"u{i}") for i, b in enumerate(bodies)]
    cases, _ = build_cases(Corpus(issues=pool), SINCE, FunnelConfig(rank_top_k=len(pool)))
    return [c.value for c in sorted(cases, key=lambda c: c.number)]


def test_a_template_left_unfilled_is_worth_what_its_writer_wrote():
    bare = TEMPLATE.format(bug="turbomind falls back to pytorch", repro="", env="", err="")
    plain = "turbomind falls back to pytorch"
    other = TEMPLATE.format(bug="a crash", repro="python run.py --tp 2", env="CANN 8.0", err="RuntimeError: x")
    with_template, _ = _values(bare, other)
    alone, _ = _values(plain, other)
    assert with_template == alone


def test_what_the_writer_put_into_the_template_still_counts():
    filled = TEMPLATE.format(bug="the server crashes when a client connects",
                             repro="python serve.py --port 6006 --workers 5, then connect twice",
                             env="CANN 8.2.RC1, 910A", err="Segmentation fault in ContextManager::Bind")
    bare = TEMPLATE.format(bug="the server crashes", repro="", env="", err="")
    rich, thin = _values(filled, bare)
    assert rich > thin


def test_what_is_pasted_in_a_fence_stays_the_writers_own():
    from fixlore.rules.funnel.bookkeeping import own_words, template_lines
    a = "It crashes:\n```\nTraceback (most recent call last):\n  main()\nRuntimeError: a\n```\n"
    b = "Also here:\n```\nTraceback (most recent call last):\n  main()\nRuntimeError: b\n```\n"
    shared = template_lines([a, b])
    assert "Traceback (most recent call last):" not in shared and "```" not in shared
    assert "Traceback (most recent call last):" in own_words(a, shared) and "```" in own_words(a, shared)


def test_one_writers_two_reports_make_no_template():
    from fixlore.rules.funnel.bookkeeping import template_lines
    cmd = "python serve.py --port 6006 --workers 5"
    assert cmd not in template_lines([[f"crash:\n{cmd}", f"hang:\n{cmd}"], "other report"])
    assert cmd in template_lines([f"crash:\n{cmd}", f"hang:\n{cmd}"])


def test_an_unclosed_comment_costs_linear_time():
    import time
    from fixlore.rules.funnel.bookkeeping import own_words
    start = time.process_time()
    own_words("<!-- " * 13000, frozenset())
    assert time.process_time() - start < 1
