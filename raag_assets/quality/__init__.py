"""Measuring raag: retrieval evaluation (BEIR sets, span sets), the conformance corpus and
the scoring of the graph against hand-labelled gold."""
