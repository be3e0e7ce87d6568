"""Knowledge base: tokens, index, hybrid search, threshold, incremental ingest, enrich."""

from __future__ import annotations

import json
import logging
import shutil
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest

from fixlore.retrieval.base import THRESHOLD_NAME, VECTORS_NAME, KnowledgeBase
from fixlore.kb.calibrate import Ranked, best_threshold, calibrate, cross_validate, evaluate, rank_labelled
from fixlore.retrieval.embed import UseEmbedder
from fixlore.kb.enrich import case_query, CorpusLookup, enrich
from fixlore.core.model import Case, Comment, Corpus, FixRef, Issue, Pull
from test_kb_corpus import QUERIES, UNRELATED, write_corpus

T0 = datetime(2026, 9, 10, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def embedder():
    return UseEmbedder()


@pytest.fixture(scope="module")
def built(tmp_path_factory, embedder):
    root = tmp_path_factory.mktemp("kbworld")
    docs = write_corpus(root)
    kb = KnowledgeBase.open(root / "index", embedder=embedder)
    stats = kb.ingest_folder(docs, prefix="docs")
    yield kb, docs, stats
    kb.close()


def test_ingest_reads_text_and_code_and_skips_binaries(built):
    kb, _, stats = built
    docs = {r[0] for r in kb.db.execute("SELECT doc FROM sources")}
    assert "docs/Ascend/msmodeling/docs/moe.md" in docs
    assert "docs/Ascend/mind-cluster/component/ascend-docker-runtime/mount.go" in docs
    assert not any(d.endswith(".png") for d in docs)
    assert stats.added == len(docs) and stats.embedded == stats.chunks > 0
    kinds = dict(kb.db.execute("SELECT doc, kind FROM sources"))
    assert kinds["docs/Ascend/memfabric_hybrid/src/election.py"] == "code"
    assert kinds["docs/Ascend/memfabric_hybrid/docs/ha.rst"] == "doc"


def test_jieba_cache_and_user_dictionary_live_in_the_index(built):
    kb, _, _ = built
    assert Path(kb.tokenizer._jieba.tmp_dir) == kb.dir
    assert (kb.dir / "jieba.cache").is_file()
    assert logging.getLogger("jieba").level >= logging.WARNING
    words = (kb.dir / "userdict.txt").read_text("utf-8").split()
    assert "all_to_all" in words and "node_base_info" in words and "init_routing_v2" in words


def test_identifier_tokens(built):
    kb, _, _ = built
    toks = kb.tokenizer.tokens("init_routing_v2 按 numel 驱动 all_to_all，NodeAffinity 失败 unknown_ident_x")
    for t in ("init_routing_v2", "init", "routing", "all_to_all", "nodeaffinity", "node", "affinity",
              "驱动", "unknown_ident_x"):
        assert t in toks
    assert all(t == t.lower() for t in toks)


@pytest.mark.parametrize("query,expected", QUERIES)
def test_queries_find_the_right_document_first(built, query, expected):
    kb, _, _ = built
    hits = kb.search(query, k=5)
    assert hits[0].doc == expected
    refs = kb.refs_for(query)
    assert refs and refs[0].doc == expected and refs[0].chunk == hits[0].chunk


def test_the_right_chunk_not_just_the_document(built):
    kb, _, _ = built
    hit = kb.search("all_to_all 通信量如何用 numel 估算", k=1)[0]
    assert hit.doc.endswith("moe.md") and "通信量估算" in hit.heading
    hit = kb.search("network_link 采集周期是多少", k=1)[0]
    assert hit.doc.endswith("npu_exporter.md") and "network" in hit.heading
    assert hit.bm25_rank is not None and hit.vector_rank is not None


@pytest.mark.parametrize("query", UNRELATED)
def test_nothing_relevant_gives_no_refs(built, query):
    kb, _, _ = built
    assert kb.search(query, k=3)          # search still answers ...
    assert kb.refs_for(query) == []       # ... but nothing clears the threshold


def test_incremental_reingest_does_no_work(tmp_path, embedder):
    docs = write_corpus(tmp_path)
    kb = KnowledgeBase.open(tmp_path / "index", embedder=embedder)
    first = kb.ingest_folder(docs, prefix="docs")
    vec_mtime = (kb.dir / VECTORS_NAME).stat().st_mtime_ns
    again = kb.ingest_folder(docs, prefix="docs")
    assert (again.added, again.updated, again.removed, again.chunks, again.embedded) == (0, 0, 0, 0, 0)
    assert again.unchanged == first.added
    assert (kb.dir / VECTORS_NAME).stat().st_mtime_ns == vec_mtime

    # One edited section re-embeds only that section; a deleted file leaves the index.
    moe = docs / "Ascend/msmodeling/docs/moe.md"
    moe.write_text(moe.read_text("utf-8").replace("不受上述问题影响", "同样不受影响，已在 26.2.0 验证"), "utf-8")
    (docs / "Ascend/msmodeling/docs/optix_config.md").unlink()
    third = kb.ingest_folder(docs, prefix="docs")
    assert (third.updated, third.removed) == (1, 1)
    assert third.embedded == 1
    assert not [p for p in kb.search("OptiX 参数注入位置", k=10) if p.doc.endswith("optix_config.md")]
    # Passage frequencies kept at ingest agree with a recount from the FTS vocabulary.
    kept = dict(kb.db.execute("SELECT term, df FROM term_df"))
    assert kept == dict(kb.db.execute("SELECT term, doc FROM chunks_vocab"))
    n_chunks = kb.db.execute("SELECT sum(n_chunks) FROM sources").fetchone()[0]
    assert kb.stats()["total_chunks"] == n_chunks < first.chunks
    assert kb.db.execute("SELECT count(*) FROM chunks_fts").fetchone()[0] == n_chunks
    kb.close()


def test_ingest_cases_are_searchable_as_kind_case_but_never_cited(built):
    kb, _, _ = built
    case = Case(repo="Ascend/MindSpeed-Bridge", number=41, title="thd 格式训练 loss 飙至 21",
                problem="Qwen3.5 用 thd 格式训练 loss 飙升、grad_norm 570+",
                answer="attention_mask 以 int32 创建，被当作行号索引而非掩码；PR 55 改为 bool。")
    stats = kb.ingest_cases([case])
    assert stats.added == 1
    assert kb.ingest_cases([case]).unchanged == 1
    hits = kb.search("attention_mask int32 当行号索引 loss 飙升", k=3, kind="case")
    assert hits and hits[0].doc == "cases/Ascend/MindSpeed-Bridge/41" and hits[0].kind == "case"
    assert all(r.doc.startswith("docs/") for r in kb.refs_for("attention_mask int32 当行号索引 loss 飙升", threshold=0.0))


def _corpus() -> Corpus:
    issues = [
        Issue(repo="Ascend/msmodeling", number=390, title="开 shared-expert-tp 时 MoE 分发量高估",
              body="<!-- 模板 -->\n开启 shared-expert-tp 后 all_to_all 通信量约 2 倍。\n![img](http://x/y.png)",
              state="closed", created_at=T0, updated_at=T0, closed_at=T0, author="user1"),
        Issue(repo="Ascend/msmodeling", number=999, title="请问 Windows 上 Photoshop 插件字体颜色怎么改",
              body="安装插件后字体颜色不对", state="closed", created_at=T0, updated_at=T0, closed_at=T0,
              author="user2"),
    ]
    comments = [
        Comment(repo="Ascend/msmodeling", parent_kind="issue", parent_number=390, id="1", author="maintainer",
                body="route() 在 token 切片前计算，topk 仍是 N×k，init_routing_v2 按 numel 驱动 all_to_all。",
                created_at=T0),
        Comment(repo="Ascend/msmodeling", parent_kind="issue", parent_number=390, id="2", author="user1",
                body="谢谢", created_at=T0),
    ]
    pulls = [Pull(repo="Ascend/msmodeling", number=795, title="[fix] 路由与 token 切片对齐",
                  body="Closes #390. route 在 TP 切分之后计算 topk。", state="merged", created_at=T0,
                  updated_at=T0, merged_at=T0, closed_at=T0)]
    return Corpus(issues=issues, comments=comments, pulls=pulls)


def test_case_query_uses_issue_maintainer_comments_and_fix_prs():
    corpus = _corpus()
    case = Case(repo="Ascend/msmodeling", number=390, fix=[FixRef(repo="Ascend/msmodeling", number=795, role="fix")])
    q = case_query(case, CorpusLookup(corpus))
    assert "init_routing_v2" in q.text and "init_routing_v2" in q.focus      # the maintainer's answer, weighted
    assert "路由与 token 切片对齐" in q.focus and "[fix]" not in q.focus        # fix PR title without its tag
    assert "谢谢" not in q.text                                                 # the reporter's own reply
    assert "<!--" not in q.text and "http" not in q.text and "img" not in q.text
    assert q.prefer == "docs/Ascend/msmodeling/"


def test_enrich_sets_refs_only_above_threshold(built):
    kb, _, _ = built
    corpus = _corpus()
    cases = [Case(repo="Ascend/msmodeling", number=390, fix=[FixRef(repo="Ascend/msmodeling", number=795, role="fix")]),
             Case(repo="Ascend/msmodeling", number=999)]
    enrich(cases, corpus, kb)
    assert cases[0].kb_refs and cases[0].kb_refs[0].doc == "docs/Ascend/msmodeling/docs/moe.md"
    assert all(r.score >= kb.threshold() for r in cases[0].kb_refs)
    assert cases[1].kb_refs == []
    enrich(cases, corpus, kb, threshold=0.99)
    assert cases[0].kb_refs == [] and cases[1].kb_refs == []


def test_best_threshold_maximises_correct_decisions():
    rows = [Ranked(docs=[("a", 0.7), ("b", 0.3)], expected=frozenset({"a"})),
            Ranked(docs=[("b", 0.6), ("a", 0.2)], expected=frozenset({"b"})),
            Ranked(docs=[("a", 0.35)], expected=frozenset()),
            Ranked(docs=[("c", 0.5)], expected=frozenset())]
    t = best_threshold(rows)
    assert 0.5 < t < 0.6
    res = evaluate(rows, t)
    assert res["correct"] == 4 and res["right_doc_first"] == 2 and res["none_when_none"] == 2
    # A wrong document above the threshold counts as wrong even if the right one follows.
    wrong = Ranked(docs=[("x", 0.9), ("a", 0.8)], expected=frozenset({"a"}))
    assert evaluate([wrong], 0.5)["wrong_doc_cited"] == 1


def test_calibrate_saves_threshold_used_by_default(tmp_path, built, embedder):
    kb, _, _ = built
    labelled = [(q, d) for q, d in QUERIES] + [(q, None) for q in UNRELATED]
    copy = tmp_path / "index"
    shutil.copytree(kb.dir, copy)
    kb2 = KnowledgeBase.open(copy, embedder=embedder)
    t = calibrate(kb2, labelled, source="fixture")
    saved = json.loads((copy / THRESHOLD_NAME).read_text("utf-8"))
    assert saved["threshold"] == t == kb2.threshold() and saved["source"] == "fixture"
    assert saved["correct"] == len(labelled)
    rows = rank_labelled(kb2, labelled)
    cv = cross_validate(rows, folds=2, repeats=3)
    assert cv["total"] == len(labelled)
    kb2.close()


def test_changelogs_are_searchable_but_never_cited():
    from fixlore.retrieval.base import is_changelog

    assert is_changelog("docs/o/r/CHANGELOG.md") and is_changelog("docs/o/r/docs/zh/release_notes/26.3.0.md")
    assert is_changelog("docs/o/r/docs/26.0.0.rst")
    assert not is_changelog("docs/o/r/docs/moe.md") and not is_changelog("docs/o/r/src/changes.py")
    assert not is_changelog("docs/o/r/docs/v2.1-migration.md")


def test_query_terms_skip_function_words_and_bare_numbers():
    from fixlore.retrieval.tokens import is_query_term

    assert not is_query_term("的") and not is_query_term("它") and not is_query_term("12") and not is_query_term("0.8")
    assert is_query_term("26.2.0") and is_query_term("30s") and is_query_term("通信") and is_query_term("all_to_all")


def test_search_from_another_thread(built):
    from concurrent.futures import ThreadPoolExecutor

    kb, _, _ = built
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda q: kb.search(q, k=1)[0].doc, [q for q, _ in QUERIES]))
    assert results == [d for _, d in QUERIES]


def test_cli_build_search_stats(tmp_path):
    from typer.testing import CliRunner

    from fixlore.cli.commands import app

    docs = write_corpus(tmp_path)
    index = tmp_path / "cli-index"
    runner = CliRunner()
    res = runner.invoke(app, ["kb", "build", str(docs), "--index", str(index)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["kb", "search", "node_base_info 驱动版本标签", "--index", str(index), "-k", "2", "--json"])
    assert res.exit_code == 0, res.output
    first = json.loads(res.output.splitlines()[0])
    assert first["doc"] == "docs/Ascend/mind-cluster/docs/npu_exporter.md" and first["chunk"].startswith("part")
    # the score printed is the score the rows are ordered by
    res = runner.invoke(app, ["kb", "search", "采集 周期 驱动 版本 NodeAffinity", "--index", str(index), "--json"])
    scores = [json.loads(line)["score"] for line in res.output.splitlines()]
    assert len(scores) > 2 and scores == sorted(scores, reverse=True)
    res = runner.invoke(app, ["kb", "search", "[bold]NodeAffinity[/bold] pending", "--index", str(index)])
    assert res.exit_code == 0 and "faq.md" in res.output
    res = runner.invoke(app, ["kb", "stats", "--index", str(index)])
    assert res.exit_code == 0 and "total_chunks" in res.output
    res = runner.invoke(app, ["kb", "search", "x", "--index", str(tmp_path / "missing")])
    assert res.exit_code != 0 and "no knowledge base" in str(res.exception)
    assert not (tmp_path / "missing").exists()


def test_two_folders_under_one_prefix_keep_each_other(tmp_path, embedder):
    a, b = tmp_path / "a" / "docs", tmp_path / "b" / "docs"
    (a / "o1/r1").mkdir(parents=True)
    (b / "o2/r2").mkdir(parents=True)
    (a / "o1/r1/x.md").write_text("# X\n\nall_to_all 通信量估算与 numel 的关系说明。\n", "utf-8")
    (b / "o2/r2/y.md").write_text("# Y\n\netcd 选主与租约续期的说明文字。\n", "utf-8")
    kb = KnowledgeBase.open(tmp_path / "index", embedder=embedder)
    kb.ingest_folder(a, prefix="docs")
    kb.ingest_folder(b, prefix="docs")
    docs = {r[0] for r in kb.db.execute("SELECT doc FROM sources")}
    assert docs == {"docs/o1/r1/x.md", "docs/o2/r2/y.md"}
    (a / "o1/r1/x.md").unlink()
    assert kb.ingest_folder(a, prefix="docs").removed == 1
    assert {r[0] for r in kb.db.execute("SELECT doc FROM sources")} == {"docs/o2/r2/y.md"}
    kb.close()


def test_coarse_pass_finds_the_same_nearest_rows_as_brute_force():
    import numpy as np

    from fixlore.retrieval import vectors

    rng = np.random.default_rng(3)
    centres = rng.normal(size=(40, 512)).astype(np.float32)
    matrix = centres[rng.integers(0, 40, 6000)] + 0.3 * rng.normal(size=(6000, 512)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    projection = vectors.fit_projection(matrix, dims=64)
    coarse = matrix @ projection
    for k in range(5):
        q = matrix[rng.integers(0, 6000)] + 0.1 * rng.normal(size=512).astype(np.float32)
        q /= np.linalg.norm(q)
        exact_rows, sims = vectors.top_rows(matrix, q, 20)
        approx_rows, known = vectors.top_rows(matrix, q, 20, coarse=coarse, projection=projection)
        assert list(approx_rows) == list(exact_rows)
        assert all(abs(known[int(r)] - sims[int(r)]) < 1e-5 for r in approx_rows)


def test_the_best_of_many_scores_past_a_sampled_cut_are_the_best_of_all():
    """`vectors._best` over a large array selects past a cut read on a sample; the rows chosen
    and their order are those of a full sort (masked rows, -inf, never chosen; equal scores by
    position), whether the best are spread out or all bunched where the sample does not look."""
    import numpy as np

    from fixlore.retrieval import vectors

    rng = np.random.default_rng(5)
    for trial in range(20):
        scores = rng.normal(size=40_000).astype(np.float32)
        if trial % 4 == 1:
            scores = np.round(scores, 2)                    # many equal scores
        if trial % 4 == 2:
            scores[rng.random(40_000) < 0.5] = -np.inf      # a filter
        if trial % 4 == 3:
            scores[1:40_000:16] += 10.0                     # the best all off the sample
        for n in (1, 50, 600):
            want = np.lexsort((np.arange(len(scores)), -scores))[:n]
            want = want[np.isfinite(scores[want])]
            got = vectors._best(scores, n)
            assert list(got) == list(want)


def test_a_judge_reads_the_candidates_and_keeps_only_what_explains(built):
    """With a judge, the top documents are read whatever their score; the threshold no longer decides."""
    from fixlore.kb.verify import PassageVerdict as Verdict

    kb, _, _ = built
    corpus = _corpus()
    seen: list[str] = []

    def judge(case_text: str, passage: str) -> Verdict:
        seen.append(passage)
        return Verdict("topk" in passage or "routing" in passage.lower(), "names the routing step")

    cases = [Case(repo="Ascend/msmodeling", number=390, fix=[FixRef(repo="Ascend/msmodeling", number=795, role="fix")])]
    summary = enrich(cases, corpus, kb, threshold=0.99, judge=judge)
    assert 1 <= len(seen) <= 3 and "init_routing_v2" in cases[0].kb_refs[0].doc + "".join(seen)
    assert [r.doc for r in cases[0].kb_refs] == ["docs/Ascend/msmodeling/docs/moe.md"]
    assert summary["passages_judged"] == len(seen) and summary["kept"] == 1 and summary["rejected"] == len(seen) - 1

    def says_no(case_text: str, passage: str) -> Verdict:
        return Verdict(False)

    summary = enrich(cases, corpus, kb, judge=says_no)          # nothing explains: nothing cited, never forced
    assert cases[0].kb_refs == [] and summary["kept"] == 0

    def breaks(case_text: str, passage: str) -> Verdict:
        raise TimeoutError("the model did not answer")

    summary = enrich(cases, corpus, kb, judge=breaks)            # a failed check keeps the threshold's refs
    assert cases[0].kb_refs and cases[0].kb_refs[0].doc == "docs/Ascend/msmodeling/docs/moe.md"
    assert summary["cases_on_threshold"] == 1


def test_the_model_judge_against_a_loopback_endpoint(built):
    from fake_openai import FakeOpenAI, Ok, Raw
    from fixlore.kb.verify import model_judge
    from fixlore.edges.llmclient import ChatClient

    kb, _, _ = built
    corpus = _corpus()
    cases = [Case(repo="Ascend/msmodeling", number=390, fix=[FixRef(repo="Ascend/msmodeling", number=795, role="fix")])]
    def verdict(user: str):
        passage = user.split("PASSAGE", 1)[-1].lower()
        return Ok({"explains": "topk" in passage or "routing" in passage, "why": "scripted"})
    with FakeOpenAI(default=verdict) as fake:
        client = ChatClient(base_url=fake.base_url, model="fake", timeout=2.0, attempts=1)
        summary = enrich(cases, corpus, kb, judge=model_judge(client))
        body = fake.requests[0]["body"]
    assert body["response_format"]["type"] == "json_schema" and "PASSAGE" in body["messages"][1]["content"]
    assert summary["passages_judged"] == len(fake.requests)
    assert [r.doc for r in cases[0].kb_refs] == ["docs/Ascend/msmodeling/docs/moe.md"]
    with FakeOpenAI(default=lambda user: Raw("yes, it explains it")) as fake:
        client = ChatClient(base_url=fake.base_url, model="fake", timeout=2.0, attempts=1)
        summary = enrich(cases, corpus, kb, judge=model_judge(client))
    assert summary["cases_on_threshold"] == 1                  # a malformed verdict is a failed check


def test_with_a_model_named_each_case_is_ranked_once(built, monkeypatch):
    """The threshold's refs and the judge's candidates come from one ranking per case: the judge
    (the scripted model server) reads the ranking's top documents, and a case whose check fails
    keeps exactly what `refs_for` cites on its own."""
    from fake_openai import FakeOpenAI, Ok, Raw
    from fixlore.kb.enrich import queries_for
    from fixlore.kb.verify import model_judge
    from fixlore.edges.llmclient import ChatClient

    kb, _, _ = built
    corpus = _corpus()
    cases = [Case(repo="Ascend/msmodeling", number=390, fix=[FixRef(repo="Ascend/msmodeling", number=795, role="fix")]),
             Case(repo="Ascend/msmodeling", number=390)]
    queries = queries_for(cases, corpus)
    top = [[p.text[:200] for p in kb.ranked_docs(q)[:3]] for q in queries]
    alone = [kb.refs_for(q) for q in queries]
    ranked_for: list[str] = []
    rank = kb.ranked_docs
    monkeypatch.setattr(kb, "ranked_docs", lambda query, *a, **k: ranked_for.append(query.text) or rank(query, *a, **k))

    with FakeOpenAI(default=lambda user: Ok({"explains": False, "why": "scripted"})) as fake:
        client = ChatClient(base_url=fake.base_url, model="fake", timeout=2.0, attempts=1)
        summary = enrich(cases, corpus, kb, judge=model_judge(client))
        read = [r["body"]["messages"][1]["content"] for r in fake.requests]
    assert ranked_for == [q.text for q in queries]
    assert summary["passages_judged"] == len(read) == sum(len(t) for t in top)
    assert all(any(t in user for user in read) for texts in top for t in texts)

    ranked_for.clear()
    with FakeOpenAI(default=lambda user: Raw("not json")) as fake:
        client = ChatClient(base_url=fake.base_url, model="fake", timeout=2.0, attempts=1)
        summary = enrich(cases, corpus, kb, judge=model_judge(client))
    assert ranked_for == [q.text for q in queries] and summary["cases_on_threshold"] == 2
    assert [c.kb_refs for c in cases] == alone


def test_a_text_embedded_once_is_not_embedded_again_in_the_process(monkeypatch):
    """The memo in UseEmbedder.encode: the same text gives the same row without the model, a new
    text still goes to the model, duplicates are embedded once, and the memo stays bounded."""
    from fixlore.retrieval import embed

    monkeypatch.setenv("FIXLORE_VECTOR_CACHE", "off")        # the memo alone (the disk cache: test_vector_cache)
    monkeypatch.setattr(embed, "_MEMO", embed.OrderedDict())
    monkeypatch.setattr(embed, "MEMO_ROWS", 3)
    first = UseEmbedder().encode(["HCCL timeout on 8 cards", "EZ9999 out of memory"])
    asked: list[list[str]] = []

    class Counting:
        def __init__(self, model):
            self.model = model

        def encode(self, texts):
            asked.append(list(texts))
            return self.model.encode(texts)

    again = UseEmbedder()
    again._model = Counting(again._load())
    rows = again.encode(["EZ9999 out of memory", "HCCL timeout on 8 cards", "npu-smi shows no device",
                         "npu-smi shows no device"])
    assert asked == [["npu-smi shows no device"]]
    assert np.array_equal(rows[0], first[1]) and np.array_equal(rows[1], first[0])
    assert np.array_equal(rows[2], rows[3]) and rows.shape == (4, embed.DIM) and rows.flags.writeable
    assert np.allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)
    again.encode(["one more text"])                           # the oldest row goes: still 3 rows
    assert len(embed._MEMO) == 3


def test_a_case_cites_its_own_repositorys_documents_or_its_owners_documentation_only():
    from fixlore.retrieval.schema import in_scope

    owners = frozenset({"Ascend", "PaddlePaddle"})
    assert in_scope("docs/Ascend/msmodeling/docs/moe.md", "Ascend/msmodeling", owners)
    assert not in_scope("docs/Ascend/mind-cluster/docs/mounts.md", "Ascend/msmodeling", owners)   # another product
    assert not in_scope("docs/PaddlePaddle/docs/api.md", "Ascend/msmodeling", owners)             # another owner
    assert in_scope("docs/PaddlePaddle/docs/guides/ocr.md", "PaddlePaddle/PaddleOCR", owners)      # the owner's docs repo
    assert in_scope("docs/PaddlePaddle/Paddle-docs/x.md", "PaddlePaddle/PaddleOCR", owners)
    assert in_scope("docs/guides/install.md", "Ascend/msmodeling", owners)     # a folder given to kb build: no repository
    assert in_scope("docs/Ascend/mind-cluster/x.md", "Ascend/msmodeling", frozenset())


def test_enrich_cites_nothing_from_another_product_however_well_it_matches(built):
    kb, _, _ = built
    corpus = _corpus()
    theirs = Case(repo="Ascend/mind-cluster", number=390,
                  fix=[FixRef(repo="Ascend/msmodeling", number=795, role="fix")])
    ours = Case(repo="Ascend/msmodeling", number=390, fix=[FixRef(repo="Ascend/msmodeling", number=795, role="fix")])
    enrich([ours], corpus, kb, threshold=0.0)
    assert ours.kb_refs and all(r.doc.startswith("docs/Ascend/msmodeling/") for r in ours.kb_refs)
    corpus.issues.append(corpus.issues[0].__class__(**{**{f: getattr(corpus.issues[0], f) for f in
                                                          corpus.issues[0].__dataclass_fields__},
                                                       "repo": "Ascend/mind-cluster"}))
    enrich([theirs], corpus, kb, threshold=0.0)
    assert all(not r.doc.startswith("docs/Ascend/msmodeling/") for r in theirs.kb_refs)
