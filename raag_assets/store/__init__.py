"""Database access: the connection and migrations (db), named SQL from sql/queries, tables as
polars frames with binary COPY (frames), and the reads and writes of documents, the graph and
the heading-vector cache. Imports core only."""
