"""Profiles: the pages and API that gather a player's accounts, games and ratings."""
