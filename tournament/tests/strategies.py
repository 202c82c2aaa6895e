"""Hypothesis strategies shared by the format tests."""

from __future__ import annotations

from hypothesis import strategies as st

# (preferred, largest) table sizes a tournament may be set to: 2-6 preferred, up to 8 at most.
table_sizes = st.integers(min_value=2, max_value=6).flatmap(
    lambda preferred: st.tuples(st.just(preferred), st.integers(min_value=preferred, max_value=8))
)
