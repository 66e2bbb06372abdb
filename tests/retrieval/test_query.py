"""Query analysis as pure functions: what is asked of a document once the query has named it."""

from raag_assets.retrieval.query import DocDescriptor, resolve_document, without_words


def test_the_phrase_naming_the_document_goes_not_only_its_capitalised_words():
    docs = [
        DocDescriptor(
            "d2-summa",
            "SOFTWARE LICENSE AND MAINTENANCE AGREEMENT between D2 Technologies, Inc. and "
            "Summa Four Inc.",
            "SOFTWARE LICENSE AND MAINTENANCE AGREEMENT",
        ),
        DocDescriptor(
            "supply", "SUPPLY AGREEMENT between Acme Corp and Beta LLC", "SUPPLY AGREEMENT"
        ),
    ]
    q = (
        "Consider the Software license and maintenance agreement between D2 Technologies, Inc. "
        "and Summa Four Inc.; which jurisdiction's law governs it?"
    )
    named = resolve_document(q, docs)
    assert named is not None and named.doc_ids == ("d2-summa",)
    # 'license', 'maintenance', 'agreement' name the contract here; kept, they drew its
    # Maintenance section to every question about it
    assert "maintenance" not in named.rest.lower() and "license" not in named.rest.lower()
    assert named.rest.endswith("which jurisdiction's law governs it?")


def test_words_of_the_name_in_what_is_asked_stay():
    title = {"software", "license", "maintenance", "agreement"}
    q = "Under the Software License Agreement, may the license be assigned?"
    assert without_words(q, {"software"}, title) == "Under , may the license be assigned?"
    # without the title, only the naming words go (as before)
    assert (
        without_words(q, {"software"})
        == "Under the License Agreement, may the license be assigned?"
    )
    # a run of name words not touching a naming word is what is asked
    q = "What maintenance does the Software agreement promise?"
    assert without_words(q, {"software"}, title) == "What maintenance does promise?"


def test_a_clause_that_only_frames_the_name_goes_whole():
    title = {"software", "license", "agreement"}
    q = "Consider the Software License Agreement between D2 Inc. and Summa Inc.; is it assignable?"
    # 'Consider between' asked nothing; 'consider' drew 'in consideration of' clauses
    assert without_words(q, {"software", "d2", "summa", "inc"}, title) == "is it assignable?"
    q = "Under the Software License Agreement; may the license be assigned?"
    assert without_words(q, {"software"}, title) == "may the license be assigned?"
    # the name within the question itself: one clause, only the name goes
    q = "Consider the Software License Agreement: may Summa assign it?"
    assert without_words(q, {"software", "summa"}, title) == "Consider : may assign it?"
    # a first clause that says more than the name is part of what is asked
    q = "Under the Software License, I want to ship binaries only. What must I offer?"
    assert without_words(q, {"software"}, title) == (
        "Under , I want to ship binaries only. What must I offer?"
    )
    # no question after the framing clause: nothing to keep it for
    q = "Consider the Software License Agreement; the assignment clause."
    assert without_words(q, {"software"}, title) == "Consider ; the assignment clause."


def test_a_naming_word_in_small_letters_in_the_question_is_asked():
    # 'Of' names the 'Form Of Franchise Agreement'; 'of' in the question is asked, and the
    # framing clause still goes whole
    title = {"form", "of", "franchise", "agreement"}
    words = {"form", "of", "franchise", "pizza", "fusion", "holding", "inc"}
    q = (
        "Consider the Form Of Franchise Agreement between Pizza Fusion Holding, Inc.; does a "
        "party have a right of first refusal?"
    )
    assert without_words(q, words, title) == "does a party have a right of first refusal?"
    q = "Consider the Intellectual Property Agreement between Acme Inc.; who owns the IP?"
    words = {"intellectual", "property", "acme", "inc"}
    title = {"intellectual", "property", "agreement"}
    assert without_words(q, words, title) == "who owns the IP?"
    q = (
        "Consider the Intellectual Property Agreement between Acme Inc.; who owns the "
        "intellectual property created under it?"
    )
    assert without_words(q, words, title) == "who owns the intellectual property created under it?"


def test_a_framing_clause_may_hold_a_few_words_beside_a_long_name():
    title = {"co", "branding", "agreement"}
    words = {"co", "branding", "dassault", "systemes", "systems", "planetcad", "inc", "of"}
    q = (
        "Consider the Co-Branding Agreement between Dassault Systemes and/or certain affiliates "
        "of Dassault Systems and PlanetCAD Inc.; what licence does it grant?"
    )
    assert without_words(q, words, title) == "what licence does it grant?"
    # a single letter ('d/b/a') is no word of its own
    q = "Consider the Supply Agreement between Acme Inc. d/b/a Beta; what is the term?"
    assert without_words(q, {"supply", "acme", "inc", "beta"}, {"supply", "agreement"}) == (
        "what is the term?"
    )


def test_a_word_in_capitals_names_a_document_it_is_called_by_not_one_its_title_holds():
    papers = [
        DocDescriptor(
            "15648443",
            "Aspirin and PGE2 synthesis in colorectal adenoma: a randomised controlled trial",
            "Aspirin and PGE2 synthesis in colorectal adenoma: a randomised controlled trial",
        ),
        DocDescriptor("2601135", "Interleukin signalling in T cells", "Interleukin signalling"),
    ]
    # a claim about PGE2 speaks of PGE2, not of the one paper whose title holds the word
    assert resolve_document("Aspirin inhibits the production of PGE2.", papers) is None
    licences = [
        DocDescriptor("MPL-2.0", "Mozilla Public License Version 2.0", "Mozilla Public License"),
        DocDescriptor("GPL-3", "GNU General Public License", "GNU General Public License"),
    ]
    # an acronym of the title, or the document's id, calls it by name
    mpl = resolve_document("What is a Larger Work under the MPL?", licences)
    assert mpl is not None and mpl.doc_ids == ("MPL-2.0",)
    gpl = resolve_document("Which notices must the GPL keep?", licences)
    assert gpl is not None and gpl.doc_ids == ("GPL-3",)


def test_a_number_after_a_name_is_a_version_only_of_a_document_that_holds_the_name():
    guides = [
        DocDescriptor(
            doc_id, f"Acme Toolkit User Guide, Version {n}", f"Acme Toolkit User Guide, Version {n}"
        )
        for doc_id, n in (("guide-old", 2), ("guide-new", 3))
    ]
    # 'GATA-3' is a gene, not version 3 of anything here: the guide does not hold 'GATA'
    assert resolve_document("GATA-3 is important for stem cell function.", guides) is None
    # 'Toolkit 3' is version 3 of the document called the Acme Toolkit User Guide
    named = resolve_document("Acme Toolkit 3: how do I install it?", guides)
    assert named is not None and named.doc_ids == ("guide-new",)
