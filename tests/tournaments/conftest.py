from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def staff(make_user: Any) -> Any:
    user = make_user()
    user.is_staff = True
    user.save()
    return user
