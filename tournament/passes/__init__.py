"""A player's pass (issue 32, items 1 and 5): a personal, unguessable link that opens "my
tournament" on the player's phone without an account, and calls them to their table.

- ``tokens``: the link's secret, derived from the pass's nonce with the site's secret key; only
  its hash is stored and looked up.
- ``limits``: failed look-ups are counted per client address in the shared cache (django-ratelimit).
- ``services``: the writes (a new pass from the desk, the passes of the start cards, "I'm at my
  table"), each audited; what a player does with the pass is audited as that player.

The reads are in ``selectors.passes``, the pages in ``views.passes``.
"""
