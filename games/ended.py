""" "A game ended": the one step other apps subscribe to, so games never imports them.

The write path sends it in the transaction that ends a game, after its last events and row are
written, with the game's id: a subscriber's writes commit with the game's end or not at all
(ratings are recorded if and only if the game ended). Ratings subscribe in their AppConfig.ready(),
and so will tournaments; a subscriber that raises aborts the move, as any failure inside the move's
transaction does.
"""

from plumbing.hooks import Hook

game_ended = Hook("a game ended")
