"""What every printed record of the house is drawn with: the PDF building blocks (`pdf`), the
embedded Unicode font (`fonts`) and the words and citations in each language (`labels`).
Each discipline's protocol is its own (`tableside.plugins.<name>.exports`); the JSON Lines
record export lives in `tableside.eventlog.jsonl`, its route in `match.http.export_routes`.
"""
