"""A password hasher for test and bench servers: PBKDF2 as in production, at one iteration.

Production's million iterations cost most of a second per hash on these machines, and tests and
benches register hundreds of users. The hashes keep production's algorithm name and carry their
own iteration count, so servers with production settings still verify them."""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class OneIterationPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1
