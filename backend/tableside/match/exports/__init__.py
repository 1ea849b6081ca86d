"""Printable and portable records of a match: the protocol sheet (data and PDF).

`sheet.protocol_sheet(records)` turns a match's stored events into what the official
protocol shows (EKML §16, NOVUS08 9.1.7/9.1.11); `pdf.protocol_pdf(sheet, lang)` lays it out
with fpdf2 and an embedded Unicode font (`fonts.py`). The JSON Lines record export lives in
`tableside.eventlog.jsonl`; the HTTP routes in `tableside.match.http.export_routes`.
"""
