"""Where the protocol's Unicode font is: DejaVu Sans (Debian's fonts-dejavu-core) or a setting.

Estonian and Latvian names (õ ä ö ü š ž ā ē ī ū ņ ķ ļ ģ č) need a TrueType font embedded
in the PDF; the 14 standard PDF fonts only know Latin-1.
"""

from __future__ import annotations

import os
from pathlib import Path

# TABLESIDE_PDF_FONT_DIR first, then Debian/Ubuntu, Fedora and Alpine locations.
_DIRS = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu-sans-fonts",
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",
)


class FontMissing(RuntimeError):
    """No DejaVu Sans on this machine."""


def dejavu() -> tuple[Path, Path]:
    """(regular, bold) DejaVu Sans TTF paths; FontMissing names the package to install."""
    dirs = [os.environ.get("TABLESIDE_PDF_FONT_DIR", ""), *_DIRS]
    for folder in filter(None, dirs):
        regular, bold = Path(folder, "DejaVuSans.ttf"), Path(folder, "DejaVuSans-Bold.ttf")
        if regular.is_file() and bold.is_file():
            return regular, bold
    raise FontMissing(
        "DejaVu Sans not found: install Debian's fonts-dejavu-core "
        "(make test does as root) or set TABLESIDE_PDF_FONT_DIR"
    )
