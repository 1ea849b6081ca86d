"""Disciplines: the pure rules of each game the product records (korona moves here later)."""
