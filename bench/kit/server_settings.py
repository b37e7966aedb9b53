"""The settings of the server processes a test or a bench starts (bench/kit/stack.py): the site's
own, except that passwords hash at one PBKDF2 iteration, as in the test process (hashers.py), and
no automatic analyses unless asked for (ANALYSIS_AUTOMATIC=1 in the environment).

With the site's hasher each sign-in on a server costs one to two hashes at a million iterations
(verifying, then upgrading a test-made hash), one to four seconds on the shared test machines."""

import os

from django.conf import global_settings

from harehra_site.settings import *  # noqa: F403
from harehra_site.settings import CELERY_BEAT_SCHEDULE as _SITE_BEAT
from harehra_site.settings import env_bool

# No rated game's end starts an analysis on a test's (or a bench's) servers unless it asks.
ANALYSIS_AUTOMATIC = env_bool("ANALYSIS_AUTOMATIC", False)

PASSWORD_HASHERS = [
    "bench.kit.hashers.OneIterationPBKDF2PasswordHasher",
    *global_settings.PASSWORD_HASHERS,
]

# BEAT_EVERY_SECONDS: the beat's every-few-seconds sweeps (deadlines, tournaments, your turn) come
# this often instead of the site's 5 s, for a test that waits on what a sweep does (an arena
# seating its players again, starting, finishing); what each sweep does is the same. The slower
# entries (partitions, challenges' expiry, tournaments starting soon) keep their intervals.
if os.environ.get("BEAT_EVERY_SECONDS"):
    _every = float(os.environ["BEAT_EVERY_SECONDS"])
    CELERY_BEAT_SCHEDULE = {
        name: {**entry, "schedule": min(entry["schedule"], _every)} if entry["schedule"] <= 5.0 else entry
        for name, entry in _SITE_BEAT.items()
    }
