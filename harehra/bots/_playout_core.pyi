from ..state import Draft
from .playout import SplitMix64

def play_moves(d: Draft, rng: SplitMix64, max_moves: int) -> list[int]: ...
