"""The settings of the server processes a test starts (tests/support/stack.py: stack_for_test):
the site's own, except that passwords hash at one PBKDF2 iteration, as in the test process
(tests/conftest.py, tests/support/hashers.py).

With the site's hasher each sign-in on a server costs one to two hashes at a million iterations
(verifying, then upgrading a test-made hash), one to four seconds on the shared test machines."""

from django.conf import global_settings

from harehra_site.settings import *  # noqa: F403

PASSWORD_HASHERS = [
    "tests.support.hashers.OneIterationPBKDF2PasswordHasher",
    *global_settings.PASSWORD_HASHERS,
]
