"""The document relationship graph: pure extraction logic, no Dagster, no database.

Layer 1 (`patterns`, `documents`, `terms`, `topics`): regexes, phrase patterns, metadata and
file-name rules, fuzzy matching. Layer 2 (`nlp`): spaCy parse structure. Layer 3
(`semantic`): embedding similarity for references the first two could not resolve.
"""
