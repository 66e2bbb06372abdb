"""The words a document may write for a query's words (pure)."""

from raag_assets.retrieval.vocabulary import document_words, with_document_words


def test_a_british_spelling_finds_the_american_one_and_back():
    assert document_words("What licence does it grant?") == {"license": "licence"}
    assert document_words("Which license applies?") == {"licence": "license"}
    # "programme" would match "programmer" (stem "programm"), not another spelling of "program"
    assert document_words("Who may copy the program?") == {}


def test_a_plain_word_finds_the_drafting_terms_for_it():
    added = document_words("What must a party do after it ends?")
    assert added == {
        "terminate": "ends",
        "termination": "ends",
        "expire": "ends",
        "expiration": "ends",
    }
    # one direction: a query in drafting terms is not widened to plain words
    assert "end" not in document_words("What happens upon termination?")


def test_words_the_query_holds_are_not_added_again_and_order_is_the_query_s():
    added = document_words("Is hiring or employment of staff barred?")
    assert "employment" not in added
    assert list(added) == ["employ", "employees", "personnel"]
    assert document_words("Which law governs it?") == {}


def test_full_text_searches_the_query_then_the_added_words():
    assert with_document_words("Who owns it?") == "Who owns it? title ownership vest"
    assert with_document_words("Which law governs it?") == "Which law governs it?"
