"""Answers sent while they are made: the CSV exports and the printouts of a whole field.

At 5,000 players a printout of the seating or the ranking is a hundred A4 pages and takes a
second or more to render; sent in parts, the browser has the page's head, its print bar and
the first sheets within a tenth of a second and lays out the rest as it comes, and the
worker never holds the whole page as one string.

``streamed_page`` renders the page's template once with ``STREAM_HERE`` where its parts go
(everything around them: the layout, the print bar, a table's head), then renders each part
with its own small template. The data is read before the first byte is sent: rendering a
part runs no query.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.http import HttpRequest, StreamingHttpResponse
from django.template.loader import get_template, render_to_string
from django.utils import timezone, translation
from django.utils.safestring import SafeString, mark_safe

# Where the parts go in the page's template (``{{ stream_here }}``): a comment, so that a
# template rendered without streaming shows nothing there.
STREAM_HERE: SafeString = mark_safe("<!-- parts of a streamed page -->")


class ReadableStream(StreamingHttpResponse):
    """A streamed answer whose ``content`` reads the rest of the stream at once (for a caller
    that wants the whole text, such as a test; the server streams)."""

    @property
    def content(self) -> bytes:  # type: ignore[override]
        return b"".join(self.streaming_content)  # type: ignore[arg-type]


def streamed_page(
    request: HttpRequest,
    template: str,
    context: Mapping[str, Any],
    part_template: str,
    parts: Sequence[Mapping[str, Any]],
) -> ReadableStream:
    """``template`` (with ``{{ stream_here }}`` once) sent in pieces: what comes before the
    mark, then ``part_template`` rendered for each of ``parts`` (each a context added to
    ``context``, without the request's context processors: a part shows data only), then
    what comes after the mark (a page without parts, such as a ranking without rows, may leave
    the mark out). Parts are rendered in the request's language and time zone,
    also when the server sends them after the view has returned."""
    page = render_to_string(template, {**context, "stream_here": STREAM_HERE}, request)
    head, mark, tail = page.partition(STREAM_HERE)
    if not mark and parts:
        raise ValueError(f"{template} has no {{{{ stream_here }}}}")
    language = translation.get_language()
    zone = timezone.get_current_timezone()
    part = get_template(part_template)

    def pieces() -> Iterator[str]:
        yield head
        with translation.override(language), timezone.override(zone):
            for extra in parts:
                yield part.render({**context, **extra})
        yield tail

    return ReadableStream(pieces(), content_type="text/html; charset=utf-8")
