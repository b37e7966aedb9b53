from tests.moderation.conftest import moderator, two_player_game  # noqa: F401
