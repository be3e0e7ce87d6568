"""Theme words name topics: an English function word never is one (rules/topics.FUNCTION_WORDS)."""

from hypothesis import given, settings, strategies as st

from fixlore.rules.topics import FUNCTION_WORDS, is_word, topic_words


def test_a_function_word_in_a_title_is_no_theme_word():
    assert "per" not in topic_words("Per Token 激活量化 scale 不对", 8)
    assert "does" not in topic_words("Does MindIE support llama3-70b on 310P3?", 8)
    assert "llama3" in topic_words("Does MindIE support llama3-70b on 310P3?", 8)
    assert is_word("token") and not is_word("Per") and not is_word("---")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(sorted(FUNCTION_WORDS)), min_size=1, max_size=8),
       st.lists(st.sampled_from(["allocator", "hccl", "tokenizer", "checkpoint"]), min_size=1, max_size=3))
def test_theme_words_are_never_function_words(fillers, topics):
    words = topic_words(" ".join(fillers + topics + fillers), 8)
    assert not set(words) & FUNCTION_WORDS
    assert set(words) & set(topics)
