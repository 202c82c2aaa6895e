"""Every read used by the views, by concern (``desk``, ``play``, ``audit``,
``ranking``, ``public``). Each function issues a fixed number of queries,
whatever the number of players; the query-count tests pin them at two sizes.
Format-specific reads live in each format's ``reads`` and are reached through
the registry.
"""

from tournament.selectors import audit, desk, play, public, ranking

__all__ = ["audit", "desk", "play", "public", "ranking"]
