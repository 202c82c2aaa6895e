"""The secret of a pass and how it is found again.

A pass's link carries a token of 43 URL-safe characters (256 bits): the HMAC-SHA256 of the pass's
``nonce`` (``secrets.token_urlsafe(24)``) under the site's secret key. The database keeps the nonce
and the token's SHA-256, never the token: a copy of the database alone opens no pass, while the
desk can print the same card again (the token is derived again from the nonce). A token is looked
up by its hash through a unique index: what a guess could learn from the time a comparison takes
is about the hash, never about a live token.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets

from django.utils.crypto import salted_hmac

SALT = "spielleitung.player-pass"
TOKEN_LENGTH = 43
# What a token looks like; anything else is refused before any query (still counted as a failure).
TOKEN_SHAPE = re.compile(rf"[A-Za-z0-9_-]{{{TOKEN_LENGTH}}}")


def new_nonce() -> str:
    return secrets.token_urlsafe(24)


def token_for(nonce: str) -> str:
    """The link's secret for a pass with ``nonce`` (under the current secret key)."""
    digest = salted_hmac(SALT, nonce, algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def hash_of(token: str) -> str:
    """What the database keeps of a token (hex SHA-256)."""
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()


def well_formed(token: str) -> bool:
    return TOKEN_SHAPE.fullmatch(token) is not None
