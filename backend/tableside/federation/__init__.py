"""The federation service (issue 49): every enrolled venue pushes its signed record here, the
federation verifies it before keeping it, witnesses each head with its own key, and raises an
alarm on a fork. Its own database (`schema/federation/`), its own app (`app.py`), its own
staff (federation admin, registrar). It never imports the venue's app (`server/`), nor the
venue's the federation's: what both read is `eventlog/` (chains, checkpoints, the JSONL
format, the acknowledgement `eventlog/federation_ack.py`).

Its read side: `archive/`
(the kept venue events folded into what the venue publishes, decision 0172), `register/`
(players across events, decision 0171), `ranking/` (the season's lists; `ranking/rules/`
pure, decision 0170), `public/` (the public Router and face, decision 0174)."""
