"""Prints a new VAPID key pair for web push, as the settings take them (docs/OPERATIONS.md)."""

from __future__ import annotations

import base64
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def vapid_key_pair() -> tuple[str, str]:
    """(public, private): the uncompressed P-256 point and the 32-byte scalar, base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(public), b64url(key.private_numbers().private_value.to_bytes(32, "big"))


class Command(BaseCommand):
    help = "Print a new VAPID key pair (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY) for web push."

    def handle(self, *args: Any, **options: Any) -> None:
        public, private = vapid_key_pair()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}\n")
