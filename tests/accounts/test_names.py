"""Names people read beside others' words: no character that reorders what is shown."""

from __future__ import annotations

import pytest

from accounts.services import user_register
from plumbing.errors import ServiceError
from plumbing.text import BIDI_CONTROLS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("control", sorted(BIDI_CONTROLS))
def test_a_username_with_a_bidirectional_control_is_refused(control: str) -> None:
    with pytest.raises(ServiceError) as refused:
        user_register(username=f"bob{control}x", password="a long enough password 1")
    assert refused.value.code == "bad_username"
