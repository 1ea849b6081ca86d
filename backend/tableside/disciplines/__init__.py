"""Disciplines: the pure rules of each game the product records, one folder each (korona,
backgammon); nothing here imports the rest of the house (`.importlinter`)."""
