"""A PDF's text as poppler's pdftotext reads it, its whitespace folded to single spaces (the
test skips where poppler-utils is missing)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def pdf_text(pdf: bytes, folder: Path, name: str = "file.pdf") -> str:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext missing: run `make pdf-tools` as root (poppler-utils)")
    path = folder / name
    path.write_bytes(pdf)
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True)
    return " ".join(out.stdout.split())
