"""Request bodies of the password and lockout routes (the other API bodies are in `dto`)."""

from __future__ import annotations

from typing import Annotated

import msgspec

Password = Annotated[str, msgspec.Meta(min_length=8, max_length=200)]


class PasswordChange(msgspec.Struct, forbid_unknown_fields=True):
    """A staff member's own new password, with the current one (ASVS V6.2.3)."""

    current_password: Annotated[str, msgspec.Meta(max_length=200)]
    new_password: Password
