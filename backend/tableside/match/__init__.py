"""The match kernel, discipline-neutral: the venue's events in a match stream (`events`), what
every match refuses (`errors`), which match each table plays now (`tables_now`), the PDF
building blocks (`exports/`) and the HTTP plumbing every discipline's endpoints share
(`http/`: command caller and storing, responses, JSONL export, audit, finder, problems).

Each discipline's match slice lives beside the others under `tableside.plugins.<name>`.
"""
