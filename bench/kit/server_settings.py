"""The settings of the server processes a test or a bench starts (bench/kit/stack.py): the site's
own, except that passwords hash at one PBKDF2 iteration, as in the test process (hashers.py), and
no automatic analyses unless asked for (ANALYSIS_AUTOMATIC=1 in the environment), and the beat's
every-5-s tasks as often as BEAT_EVERY_SECONDS says, if it says.

With the site's hasher each sign-in on a server costs one to two hashes at a million iterations
(verifying, then upgrading a test-made hash), one to four seconds on the shared test machines."""

import os

from django.conf import global_settings

from harehra_site.settings import *  # noqa: F403
from harehra_site.settings import CELERY_BEAT_SCHEDULE, env_bool

# No rated game's end starts an analysis on a test's (or a bench's) servers unless it asks.
ANALYSIS_AUTOMATIC = env_bool("ANALYSIS_AUTOMATIC", False)

PASSWORD_HASHERS = [
    "bench.kit.hashers.OneIterationPBKDF2PasswordHasher",
    *global_settings.PASSWORD_HASHERS,
]

# The beat's frequent tasks (the sweep, the decisions' notices, the tournaments' step) every
# BEAT_EVERY_SECONDS instead of every 5 s: a test that moves a slow game on the beat's sweeps and
# notices waits a second for each, not five. The rarer tasks keep their intervals.
if os.environ.get("BEAT_EVERY_SECONDS"):
    _every = float(os.environ["BEAT_EVERY_SECONDS"])
    CELERY_BEAT_SCHEDULE = {
        name: {**entry, "schedule": _every if entry["schedule"] == 5.0 else entry["schedule"]}
        for name, entry in CELERY_BEAT_SCHEDULE.items()
    }
