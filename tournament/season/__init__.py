"""The club's season: the series ranking over events, the rating for tables of 3-4 and its chart.

The modules here are pure (no Django; ``mypy --strict``): ``series_rules`` (points per place,
best N, tie-breaks), ``rating`` (openskill's Plackett-Luce from the tables' orders, and each
format's table result turned into an order), ``history_chart`` (an SVG of a rating over events).
"""
