"""The ingest assets, one module per stage; each asset is named for the table it writes."""
