"""verifiers' ``v1`` API, imported once for the adapter, or an error naming the extra.

Raises (on import):
    MissingExtraError: verifiers is not installed (``pip install 'envsuite[verifiers]'``).
"""

from __future__ import annotations

from envsuite.errors import MISSING_EXTRA, MissingExtraError

try:
    import verifiers.v1 as vf
except ImportError as exc:
    raise MissingExtraError(
        MISSING_EXTRA.format(
            id="envsuite's verifiers adapter", module="verifiers", extra="verifiers"
        )
    ) from exc

__all__ = ["vf"]
