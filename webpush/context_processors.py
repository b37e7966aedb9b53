from __future__ import annotations

from django.http import HttpRequest

from .selectors import vapid_public_key


def push(request: HttpRequest) -> dict[str, str]:
    """The VAPID public key for the push switch ("" while push is off: the switch is not shown)."""
    return {"vapid_public_key": vapid_public_key()}
