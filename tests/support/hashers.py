"""The test process's password hasher: the kit's (bench/kit/hashers.py), PBKDF2 at one iteration."""

from bench.kit.hashers import OneIterationPBKDF2PasswordHasher

__all__ = ["OneIterationPBKDF2PasswordHasher"]
