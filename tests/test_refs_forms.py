"""Properties of the reference parser (`rules.refs.find_refs`) over the forms people write today.

Texts are built from pieces: references in every form the parser reads (`#N`, `!N` and their
full-width marks, `owner/repo#N`, `PR N` and its kin, issue and PR URLs), each maybe after a closing
keyword in English (any letter case) or Chinese, maybe inside Markdown (bold, code, a list item, a
heading, brackets, a link), with ordinary words between them. The parser must find exactly the
references put in, where they were put, with their kind, repo, number, keyword and form; and none
in text that holds no reference (numbers, versions, colours, headings, `C#`, `&#123;`...).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fixlore.rules.refs import (FORM_FULL, FORM_SHORT, FORM_URL, FORM_WORD, KIND_EITHER, KIND_ISSUE, KIND_PULL,
                                find_refs)

REPO = "home/repo"

_EN = {"close": "closes", "closes": "closes", "closed": "closes", "fix": "fixes", "fixes": "fixes",
       "fixed": "fixes", "resolve": "resolves", "resolves": "resolves", "resolved": "resolves",
       # GitLab's default closing pattern's -ing forms, and "solves" as people write it (issue #23)
       "closing": "closes", "fixing": "fixes", "resolving": "resolves", "solve": "resolves", "solves": "resolves",
       "solved": "resolves"}
_ZH = {"修复": "fixes", "修复了": "fixes", "解决": "resolves", "解决了": "resolves", "关闭": "closes",
       "关闭了": "closes", "关联": "relates", "修正": "fixes", "修正了": "fixes"}
# Cues that only point at a ticket (issue #23): the reference is found, with no keyword.
_POINTERS = ("reported in", "Reported at", "as described in", "see", "See", "addresses", "Addresses", "mentioned in",
             "discussed in", "re", "cf.", "详见", "见", "来自")   # 参见 is a soft background cue (test_link_background)
# Words with no reference in them and no cue the parser reads (no "issue", "PR", "not", "priority"...).
_WORDS = ("the", "crash", "when", "loading", "model", "on", "NPU", "910B", "报错", "内存", "升级", "after", "graph",
          "mode", "v2.1", "3.2.1", "at 10:30", "x86_64", "2048MB", "OOM", "`aclnn`", "**bold**", "done.", "ok,")
_MARKDOWN = ("{}", "**{}**", "`{}`", "({})", "[{}]", "- {}", "* {}", "> {}", "## {}", "{}.", "{},", "{}:", "{};",
             "{}。", "（{}）", "~~{}~~", "[{}](https://example.com/notes)", "- [ ] {}")


@dataclass(frozen=True)
class Piece:
    text: str
    at: int              # where the reference itself starts in `text` (after keyword and Markdown)
    kind: str
    repo: str
    number: int
    keyword: str
    form: str


_numbers = st.integers(min_value=1, max_value=9_999_999)
_names = st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,7}(?:\.[a-z]{1,3})?", fullmatch=True).filter(
    lambda n: not n.lower().endswith(".git"))
_sigils = st.sampled_from(["#", "＃", "!", "！"])
_WIDE = str.maketrans("0123456789", "０１２３４５６７８９")


def _written(n: int, wide: bool) -> str:
    """The number as typed: ASCII digits, or full-width ones (a Chinese input method's ＃１２)."""
    return str(n).translate(_WIDE) if wide else str(n)


def _mixed_case(word: str, flips: list[bool]) -> str:
    return "".join(c.upper() if f else c.lower() for c, f in zip(word, flips + [False] * len(word)))


@st.composite
def _short(draw):
    sig, n = draw(_sigils), draw(_numbers)
    digits = _written(n, sig in "＃！" and draw(st.booleans()))
    return f"{sig}{digits}", (KIND_PULL if sig in "!！" else KIND_EITHER), REPO, n, FORM_SHORT


@st.composite
def _full(draw):
    owner, name, sig, n = draw(_names), draw(_names), draw(_sigils), draw(_numbers)
    return f"{owner}/{name}{sig}{n}", (KIND_PULL if sig in "!！" else KIND_EITHER), f"{owner}/{name}", n, FORM_FULL


@st.composite
def _url(draw):
    owner, name, n = draw(_names), draw(_names), draw(_numbers)
    host = draw(st.sampled_from(["gitcode.com", "github.com", "gitee.com", "gitcode.net", "www.github.com"]))
    path = draw(st.sampled_from(["issues", "pull", "pulls", "merge_requests", "-/issues", "-/merge_requests"]))
    scheme = draw(st.sampled_from(["https", "http"]))
    kind = KIND_ISSUE if path.endswith("issues") else KIND_PULL
    return f"{scheme}://{host}/{owner}/{name}/{path}/{n}", kind, f"{owner}/{name}", n, FORM_URL


@st.composite
def _word(draw):
    word = draw(st.sampled_from(["pr", "prs", "mr", "mrs", "pull request", "merge request", "issue", "issues"]))
    word = _mixed_case(word, draw(st.lists(st.booleans(), max_size=13)))
    # a template's field label after the word: "ISSUE ID: 6207", "Issue No. 12", "PR number: 7"
    field = draw(st.sampled_from(["", " ID", " id", " No.", " number", " 编号"]))
    colon = draw(st.sampled_from(["", ":", "：", "/"]))
    sig = draw(st.sampled_from(["", "#", "＃", "!", "！"]))
    space = draw(st.sampled_from(["", " "]))
    n = draw(_numbers)
    kind = KIND_ISSUE if word.lower().startswith("issue") and sig not in ("!", "！") else KIND_PULL
    return f"{word}{field}{space}{colon}{space}{sig}{n}", kind, REPO, n, FORM_WORD


@st.composite
def _keyword(draw):
    """(as written, normalised) or ("", "")."""
    which = draw(st.sampled_from(["none", "en", "zh"]))
    if which == "none":
        return "", ""
    if which == "en":
        word = draw(st.sampled_from(sorted(_EN)))
        written = _mixed_case(word, draw(st.lists(st.booleans(), max_size=8)))
        return written + draw(st.sampled_from([" ", ": ", ":", "：", "  ", " (", " （"])), _EN[word]
    word = draw(st.sampled_from(sorted(_ZH)))
    return word + draw(st.sampled_from(["", " ", "：", ": ", "（", "：（"])), _ZH[word]


@st.composite
def _piece(draw):
    ref, kind, repo, n, form = draw(st.one_of(_short(), _full(), _url(), _word()))
    keyword, normal = draw(_keyword())
    outer = draw(st.sampled_from(_MARKDOWN))
    before, _, after = outer.partition("{}")
    if kind == KIND_PULL and keyword.rstrip().endswith(("(", "（")):
        normal = ""      # "the fix (!41)": a change in brackets names the change itself, no closing claim
    return Piece(before + keyword + ref + after, len(before) + len(keyword), kind, repo, n, normal, form)


_filler = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4).map(" ".join)
_joint = st.sampled_from([" ", "\n", "\n\n", " \n"])


@st.composite
def _text(draw):
    pieces = draw(st.lists(_piece(), min_size=1, max_size=5))
    text, expected = draw(st.one_of(st.just(""), _filler.map(lambda f: f + " "))), []
    for i, p in enumerate(pieces):
        if i:
            text += draw(_joint) + draw(_filler) + draw(_joint)
        expected.append((p.kind, p.repo, p.number, p.keyword, p.form, len(text) + p.at))
        text += p.text
    text += draw(st.one_of(st.just(""), _filler.map(lambda f: " " + f)))
    return text, expected


@settings(max_examples=400, deadline=None)
@given(_text())
def test_finds_exactly_the_references_written(case):
    text, expected = case
    found = [(r.kind, r.repo, r.number, r.keyword, r.form, r.span[0]) for r in find_refs(text, REPO)]
    assert found == expected, text


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["#", "＃", "!", "！"]), min_size=1, max_size=3), st.integers(1, 9_999_000), st.booleans())
def test_a_keyword_list_carries_to_each_reference(sigils, n, chinese):
    """"Fixes #1, #2 and #3" / "修复 #1、#2 和 #3": one keyword for the whole list."""
    refs = [f"{s}{n + i}" for i, s in enumerate(sigils)]
    text = ("修复 " + "、".join(refs)) if chinese else ("Fixes " + ", ".join(refs[:-1]) + (" and " if len(refs) > 1 else "")
                                                      + refs[-1])
    assert [(r.number, r.keyword) for r in find_refs(text, REPO)] == [(n + i, "fixes") for i in range(len(refs))]


_NOT_REFERENCES = ("color: #123456", "background:#fff", "#1 priority", "ab#12", "x!1", "hello!", "C# 12", "#include",
                   "!important", "&#123;", "## Heading 2", "- [ ] step 3", "a/b", "docs/issue/302",
                   "https://example.com/o/r/issues/3", "sha deadbeef#", "1.2.3#4", "version 3.2.1", "#0", "!0",
                   "o/r#0", "#12345678901", "####", "e.g. 2!", "3 issues remain", "the PR was merged")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_WORDS), st.sampled_from(_NOT_REFERENCES)), min_size=1, max_size=8),
       st.lists(_joint, min_size=8, max_size=8))
def test_no_reference_in_text_without_one(parts, joints):
    text = "".join(p + j for p, j in zip(parts, joints))
    assert find_refs(text, REPO) == [], text


def test_one_issue_key_reader_for_every_command():
    from fixlore.rules.refs import issue_key

    assert issue_key("Ascend/msmodeling#390") == ("Ascend/msmodeling", 390)
    assert issue_key(" a/b # 7 ") == ("a/b", 7)
    assert issue_key("https://gitcode.com/Ascend/MindSpeed/-/issues/690") == ("Ascend/MindSpeed", 690)
    for text in ("", "a/b", "msmodeling#390", "a/b/c#1", "a/b#x", "a/b!3", "https://gitcode.com/a/b/merge_requests/3"):
        assert issue_key(text) is None, text


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_POINTERS), st.one_of(_short(), _full(), _url(), _word()), st.sampled_from(["", " ", "：", ": "]))
def test_a_pointer_names_the_ticket_without_closing_it(cue, ref, gap):
    """"reported in …/issues/12", "see issue #4", "详见 #3": found, in its form, with no keyword and the
    pointer cue named (the linker reads it as a mention, never as a closing claim)."""
    written, kind, repo, n, form = ref
    text = f"{cue}{gap or ' '}{written}"
    found = find_refs(text, REPO)
    assert [(r.kind, r.repo, r.number, r.keyword, r.form) for r in found] == [(kind, repo, n, "", form)], text
    assert found[0].pointer == " ".join(cue.split()).lower(), text


def test_a_closing_keyword_is_never_a_pointer_and_a_negated_one_is_none():
    assert [(r.keyword, r.pointer) for r in find_refs("Solves #5; see #6, #7", REPO)] == [
        ("resolves", ""), ("", "see"), ("", "see")]
    assert [r.keyword for r in find_refs("does not solve #5, 未修正 #6", REPO)] == ["", ""]


@settings(max_examples=200, deadline=None)
@given(_text(), st.sampled_from(["<!-- {} -->", "<!--\n{}\n-->", "<!-- {}", "[//]: # ({})", "[comment]: <> ({})"]),
       _filler)
def test_nothing_is_read_inside_a_comment_nobody_sees(case, wrapper, after):
    """An issue or PR template's "<!-- Fixes #123 -->", a Markdown comment line: hidden when rendered,
    so nothing in it is a reference; what follows a closed comment still is."""
    text, _ = case
    if wrapper.startswith("["):
        text = " ".join(text.split())      # a Markdown comment is one line
    hidden = wrapper.format(text)
    assert find_refs(hidden, REPO) == [], hidden
    if "-->" in wrapper or wrapper.startswith("["):
        shown = find_refs(f"{hidden}\nFixes #42 {after}", REPO)
        assert [(r.number, r.keyword) for r in shown] == [(42, "fixes")], hidden


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["Is this fixed by {}?", "Was it resolved by {}?", "Does {} fix this?", "是否由 {} 修复",
                        "{} 修复了吗", "This is not fixed by {}.", "{} didn't fix it", "{} does not solve the crash",
                        "{} 并未解决", "caused by {}", "a regression from {}", "introduced in {}", "由 {} 引入",
                        "{} 导致了这个问题", "Could you check whether {} fixes it?"]),
       st.one_of(_short(), _full(), _url(), _word()))
def test_a_clause_that_asks_denies_or_blames_withholds_the_credit(clause, ref):
    written = ref[0]
    found = find_refs(clause.format(written), REPO)
    assert len(found) == 1 and found[0].number == ref[3], clause.format(written)
    assert found[0].keyword == "" and found[0].withheld in ("asked", "denied", "blamed"), clause.format(written)


def test_credit_stands_beside_a_clause_about_another_reference():
    refs = find_refs("Fixes #12, not #13. Fixes #14 introduced by #10. Fixed by #15, can you confirm?", REPO)
    assert [(r.number, r.keyword, r.withheld) for r in refs] == [
        (12, "fixes", ""), (13, "", ""), (14, "fixes", ""), (10, "", "blamed"), (15, "", "")]
    assert [r.withheld for r in find_refs("因为 #12 修复了这个问题，所以关闭。I think #13 fixes it", REPO)] == ["", ""]


def test_gh_form_is_read_on_github_only():
    from fixlore.rules.refs import FORM_GH

    text = "Fixes GH-12 and gh-13; see x-GH-4, GH-1.2"
    assert [(r.number, r.keyword, r.form, r.kind) for r in find_refs(text, REPO, "github")] == [
        (12, "fixes", FORM_GH, KIND_EITHER), (13, "fixes", FORM_GH, KIND_EITHER)]
    assert find_refs(text, REPO, "gitcode") == [] and find_refs(text, REPO) == []


def test_fix_credits_skip_a_withheld_clause():
    from fixlore.rules.refs import fix_credits

    assert fix_credits("fixed by !57; not fixed by !58; !59 修复了吗；!60 修复了内存泄漏") == [57, 60]


def test_every_reader_of_references_skips_what_a_reader_never_sees():
    """A PR template's commented-out example ("<!-- Fixes #12 -->") is read by no reader: not as a
    credit, a copy, a plan's table or a cherry-pick (rules.refs.visible keeps offsets)."""
    from fixlore.rules.cherry_pick import picked_shas
    from fixlore.rules.refs import copied_numbers, fix_credits, has_task_list_ref, table_ref_rows, visible
    hidden = "<!-- fixed by !12; backport of #13\n- [ ] #14\n| a | #1 |\n| b | #2 |\n| c | #3 |\n" \
             "(cherry picked from commit 0123456789abcdef0123456789abcdef01234567) -->"
    assert len(visible(hidden)) == len(hidden) and visible("a <!-- b --> c") == "a            c"
    assert fix_credits(hidden) == [] and fix_credits(hidden + " fixed by !15") == [15]
    assert copied_numbers("t", hidden, False) == [] and not has_task_list_ref(hidden)
    assert table_ref_rows(hidden) == 0 and picked_shas(hidden) == []
    shown = hidden.replace("<!--", "").replace("-->", "")
    assert fix_credits(shown) == [12] and copied_numbers("t", shown, False) == [13]
    assert has_task_list_ref(shown) and table_ref_rows(shown) == 3 and picked_shas(shown)


def test_a_field_word_qualified_by_another_tracker_is_that_trackers_ticket():
    for other in ("Internal Jira issue ID: 4512", "JIRA issue: 4512", "nvbugs issue 4512", "Bugzilla issue 4512",
                  "内部 issue 编号：4512", "Internal issue: 4512", "Jira's issue 4512", "JIRA ISSUE ID: 4512"):
        assert find_refs(other, REPO) == [], other
    # with "#" the platform links this repository's ticket whatever stands before it; words that name a
    # tracker and a thing ("linear"), or a qualifier on the line before, leave the reference as it is
    for ours in ("ISSUE ID: 4512", "Issue ID: #4512", "Fixes issue #4512", "contract issue 4512",
                 "Internal tracker: see issue #4512", "Jira: ABC-12, GitHub issue: #4512", "see issue 4512, internal",
                 "Bugzilla issue #4512", "Fixes internal issue #4512", "Fix nn.Linear issue #4512 on NPU",
                 "fused linear issue 4512 (bf16)", "The crash is internal\nIssue 4512 has the trace"):
        assert [(r.number, r.repo) for r in find_refs(ours, REPO)] == [(4512, REPO)], ours


def test_a_field_word_without_its_colon_is_prose_and_long_blanks_cost_nothing():
    import time
    assert find_refs("the issue number 5 of the magazine", REPO) == []
    assert find_refs("I have issue ID 3 devices", REPO) == []
    assert [r.number for r in find_refs("This is a duplicate of issue number 4321", REPO)] == [4321]
    assert [r.number for r in find_refs("Fixed in PR number 1234", REPO)] == [1234]
    start = time.process_time()
    find_refs("issue" + " " * 60000 + "x 1", REPO)
    find_refs("pull" + "\n" * 30000 + "request 1", REPO)
    assert time.process_time() - start < 2          # backtracking over the blanks took 38 s


def test_a_closing_clause_that_only_names_the_ticket_is_left_out_of_a_sentence():
    from fixlore.rules.refs import without_trailing_fix_ref as cut
    assert cut("This PR fixes a compatibility issue in `moe_mlp.py` for newer vLLM versions and will fix "
               "vllm-project/vllm-ascend#8463.") == "This PR fixes a compatibility issue in `moe_mlp.py` for newer vLLM versions."
    assert cut("Refactor the loader, which fixes #12 and #13.") == "Refactor the loader."
    assert cut("This pull request fixes LMCache/LMCache-Ascend#29") == ""
    for whole in ("Fixes #12", "修复 #12", "The fix for #12 moves the lock", "This fixes the race in #12's loader"):
        assert cut(whole) == whole


# A line that only files a change under its ticket says nothing a row can keep, in any form people
# write the reference; a line with content around the reference stays.
@settings(max_examples=60, deadline=None)
@given(verb=st.sampled_from(["Fix", "Fixes", "fix", "Closes", "Resolved", "修复", "解决"]),
       noun=st.sampled_from(["", "issue ", "Issue ", "the issue ", "bug "]),
       where=st.sampled_from(["", "vllm-project/vllm-ascend", "a-b/c.d"]),
       tag=st.sampled_from(["", "[fix_bug] ", "[BugFix] "]),
       number=st.integers(1, 99999), tail=st.sampled_from(["", ".", "。", " issue1"]))
def test_a_line_that_only_files_a_change_is_not_kept(verb, noun, where, tag, number, tail):
    from fixlore.rules.refs import files_only
    from fixlore.rules.text import sentences
    line = f"{tag}{verb} {noun}{where}#{number}{tail}"
    assert files_only(line)
    assert sentences(line) == []


@pytest.mark.parametrize("line", ["See #12 for the root cause in the allocator",
                                  "Fix dtype of attention_mask in foo() (#1234)",
                                  "Sync vllm-project/vllm#14702 to solve grammar_bitmask IndexError",
                                  "修复 #33：int32 掩码改为 bool"])
def test_a_line_with_content_around_its_reference_is_kept(line):
    from fixlore.rules.refs import files_only
    from fixlore.rules.text import sentences
    assert not files_only(line)
    assert sentences(line)


def test_a_long_text_of_references_without_a_clause_break_is_read_whole():
    """Issue text is hostile input: a 70 KB body of "#1 for " (no comma, no full stop) took 8 s, every
    reference's clause search running on to the end of the text (a 200 KB one took 90 s); each
    search now stops at its reference."""
    import time
    start = time.process_time()
    for mark in ("#", "＃", "!"):
        assert len(find_refs(f"{mark}1 for " * 10_000, REPO, "github")) == 10_000
    assert time.process_time() - start < 3          # hostile input, as the guards above: 8 s before


def test_a_list_item_wrapped_by_hand_is_one_sentence_and_a_lead_in_keeps_no_list_mark():
    from fixlore.rules.text import sentences
    body = ("This PR:\n\n- Records the first resolved backend on\n`StructuredOutputsConfig`.\n"
            "- Adds a fallback guard in `grammar_init` for\nrequests that bypass it.")
    assert sentences(body) == ["This PR: Records the first resolved backend on `StructuredOutputsConfig`.",
                               "Adds a fallback guard in `grammar_init` for requests that bypass it."]
    assert sentences("已排期 26Q3，分三批补实测：\n- GLM 5.1 / vllm-ascend 0.18.0 / A3 800T") == \
        ["已排期 26Q3，分三批补实测：GLM 5.1 / vllm-ascend 0.18.0 / A3 800T"]


@pytest.mark.parametrize("line", ["问题在于显存。", "问题出在驱动。", "问题在于 CANN 版本", "Bug in the NPU op."])
def test_a_short_cause_without_a_ticket_is_kept(line):
    """The words a filing line is read past (问题, 已, 在, 由, 于, 'in', 'the') stand inside real
    sentences too ('问题在于显存': the problem is the memory); with no ticket in the line there is
    nothing filed, and the line is judged whole as before files_only."""
    from fixlore.rules.refs import files_only
    from fixlore.rules.text import sentences
    assert not files_only(line)
    assert sentences(line)
