"""Korona's protocol: its data (`sheet`) and its PDF (`protocol_pdf`)."""
