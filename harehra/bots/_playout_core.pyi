from collections.abc import Sequence

from ..state import Draft
from .playout import SplitMix64

def play_moves(d: Draft, rng: SplitMix64, max_moves: int) -> list[int]: ...
def shuffle(rng: SplitMix64, cards: Sequence[str]) -> list[str]: ...
