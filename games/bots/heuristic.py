"""A sound, simple player: attack the weakest, keep a taptap for defence, heal when hurt."""

from __future__ import annotations

from typing import Any

# How much the bot wants to keep each card; the least wanted are burned and discarded first.
KEEP_VALUE = {"taptap": 6, "cumi": 5, "zada": 4, "strom": 3, "house": 3, "right": 2, "left": 2, "mini": 0}
PLAY_ORDER = ("strom", "house", "right", "left", "zada")


class HeuristicBot:
    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        if len(legal) == 1:
            return legal[0]
        kind = view["awaiting"]["kind"]
        if kind in ("volley", "skip"):
            answers = [c for c in legal if c["react"] != "none"]
            return answers[0] if answers else legal[0]
        if kind == "discard":
            return min(legal, key=lambda c: sum(KEEP_VALUE.get(card, 0) for card in c["discard"]))
        return self._turn(view, legal)

    def _turn(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        me = view["players"][view["seat"]]
        plays = {c["play"][0]: c for c in legal if "play" in c and c["play"][0] != "cumi"}
        if me["damage"] >= 2 and "zada" in plays:
            return plays["zada"]
        volleys = [c for c in legal if c.get("play", [None])[0] == "cumi"]
        if volleys:
            players = view["players"]
            # The weakest target first, then the biggest volley at it.
            return max(volleys, key=lambda c: (players[c["target"]]["damage"], len(c["play"])))
        for card in PLAY_ORDER:
            if card in plays:
                return plays[card]
        burns = [c for c in legal if "burn" in c]
        return min(burns, key=lambda c: KEEP_VALUE.get(c["burn"] or "", 0))
