"""The bottom layer: named errors, identity (ids, hashes, name checks), settings and the
records every layer shares (core.model). Imports nothing else of raag."""
