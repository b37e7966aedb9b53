"""The rating model: OpenSkill's Weng–Lin Plackett–Luce, for free-for-all games of 2 to 6.

Pure (no Django), so `rebuild_ratings` and the live path compute exactly the same floats.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from harehra.bots import DEFAULT_LEVEL, LEVELS

MODEL = PlackettLuce()  # mu 25, sigma 25/3, tau 25/300: OpenSkill's defaults
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma
# Display: 1000 + 40 × (μ − 3σ), a conservative figure (it starts at 1000 and rises as σ shrinks).
DISPLAY_BASE, DISPLAY_SCALE = 1000, 40
PROVISIONAL_GAMES = 10  # fewer rated games than this: the rating is marked provisional
# Bots have a fixed rating per level of the pure game's and are never updated (σ small: the level is
# what it is).
BOT_RATINGS = {"easy": (18.0, 2.0), "normal": (25.0, 2.0), "hard": (30.0, 2.0)}
if set(BOT_RATINGS) != set(LEVELS):
    raise ImportError(f"ratings rate the bot levels {sorted(BOT_RATINGS)}, the bots have {list(LEVELS)}")


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)


START = Skill(START_MU, START_SIGMA)


def display_rating(mu: float, sigma: float) -> int:
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


def bot_skill(level: str | None) -> Skill:
    mu, sigma = BOT_RATINGS.get(level or DEFAULT_LEVEL, BOT_RATINGS[DEFAULT_LEVEL])
    return Skill(mu, sigma)


def rate(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """Each seat's new skill after one game with these places (1 = first; shared places tie)."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=list(places))
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def pool_of(players: int) -> str:
    return str(players) if players <= 4 else "5-6"
