"""Named exceptions. Each message says what was wrong and what to do about it."""


class RaagError(Exception):
    """Base class for every error raag raises on purpose."""


class InvalidTenant(RaagError):
    """A tenant id that is not a safe, short identifier."""


class TenantNotFound(RaagError):
    """A tenant that has not been registered (nothing ingested for it)."""


class BadDocument(RaagError):
    """A file that cannot be ingested; the message is the one-line reason."""


class DimensionMismatch(RaagError):
    """The embedding model's dimension differs from the store's vector(n) column."""


class ModelMismatch(RaagError):
    """The store was embedded with a different model than the one configured."""


class InvalidFilter(RaagError):
    """A retrieval filter of the wrong shape."""


class DocumentNotFound(RaagError):
    """A doc_id the tenant does not hold."""
