"""Formats by their stable slug (the value stored in Tournament.format)."""

from tournament.formats import knockout, life_bands, points
from tournament.formats.base import FormatSpec

FORMATS: dict[str, FormatSpec] = {spec.slug: spec for spec in (knockout.SPEC, life_bands.SPEC, points.SPEC)}


def get_format(slug: str) -> FormatSpec:
    return FORMATS[slug]
