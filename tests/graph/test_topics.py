"""Section topics without a parse: runs of content words between punctuation, numbers and stop
words, singular, most frequent first."""

from raag_assets.graph.topics import MAX_TOPICS, heading_topics, singular, text_topics


def test_topics_are_the_runs_of_content_words_most_frequent_first() -> None:
    text = (
        "A full-time employee is entitled to annual leave. Annual leave is taken in the leave "
        "year; unused annual leave of 5 days is lost. The Notices go to the parties."
    )
    topics = text_topics(text)
    assert topics[0] == "annual leave"
    assert "full-time employee" in topics and "leave year" in topics
    assert "notice" in topics and "party" in topics  # singular
    assert not any(t in ("the", "a", "is", "day") for t in topics)  # stop and generic words


def test_topics_are_capped_and_ordered_alike_for_the_same_text() -> None:
    text = " ".join(f"alpha{chr(97 + i)} word, " * (i + 1) for i in range(12))
    assert len(text_topics(text)) == MAX_TOPICS
    assert text_topics(text) == text_topics(text)


def test_heading_and_text_read_a_plural_alike() -> None:
    assert heading_topics("Notices; Parties") == ["notice", "party"]
    assert text_topics("Parties' notices") == ["notice", "party"]
    assert singular("business") == "business" and singular("status") == "status"
    assert singular("logistics") == "logistics"
