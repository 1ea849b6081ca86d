"""Tableside: match recording for korona / novus / novuss tournaments."""
