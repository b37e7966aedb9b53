"""The settings of the server processes a test starts: the kit's (bench/kit/server_settings.py)."""

from bench.kit.server_settings import *  # noqa: F403
