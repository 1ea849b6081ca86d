"""Backgammon's score sheet, protocol and federation report (PDF), in its own words."""
