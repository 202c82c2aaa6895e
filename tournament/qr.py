"""QR codes that every reader scans, on the projector and on paper.

One drawing for every place a code is shown or printed (the projector's "Find your table",
the printed player list, the table cards):

- the quiet zone the standard asks for (ISO/IEC 18004: 4 modules of light around the symbol),
  drawn in the SVG itself, so no page's padding, border radius or dark background can eat it;
- a viewBox and no width or height: the code scales to the box its stylesheet gives it and is
  never cut (a fixed-size SVG in a smaller box lost its right-hand finder pattern);
- the smallest symbol for the link (error level L raised by segno to the highest level that keeps
  the same version), so each module is as large as the box allows. The boxes are sized in the
  stylesheets: at least 3 screen pixels a module on the projector (display.css) and about 0.7 mm
  a module on paper (app.css, print.css).
"""

from __future__ import annotations

import segno

# Modules of light around the symbol (ISO/IEC 18004).
QUIET_ZONE = 4


def svg(link: str) -> str:
    """``link`` as an inline SVG QR code: black on white, quiet zone included, sized by its box."""
    code = segno.make(link, error="l", boost_error=True)
    return str(code.svg_inline(border=QUIET_ZONE, omitsize=True, dark="#000", light="#fff", svgclass="qr-code"))


def modules(link: str) -> int:
    """The code's width in modules, quiet zone included (the tests size the boxes with it)."""
    return int(segno.make(link, error="l", boost_error=True).symbol_size(border=QUIET_ZONE)[0])
