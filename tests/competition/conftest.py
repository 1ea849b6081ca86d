"""The competition's rules ask each guide's sport (decision 0149): the house's sports are
registered by the composition root's import, as in the app."""

import tableside.server.disciplines  # noqa: F401
