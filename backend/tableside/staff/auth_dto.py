"""Request and response bodies of the staff routes: logins, accounts, judge tokens, passwords."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

import msgspec

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=80)]
Password = Annotated[str, msgspec.Meta(min_length=8, max_length=200)]


class PasswordChange(msgspec.Struct, forbid_unknown_fields=True):
    """A staff member's own new password, with the current one (ASVS V6.2.3)."""

    current_password: Annotated[str, msgspec.Meta(max_length=200)]
    new_password: Password


class LoginRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Staff login."""

    username: Name
    password: Annotated[str, msgspec.Meta(max_length=200)]


class LoginResponse(msgspec.Struct):
    """A bearer token for `Authorization: Bearer …`."""

    token: str
    username: str
    role: str
    expires_at: str


class JudgeTokenResponse(msgspec.Struct):
    """A table judge's token, its link and the link as QR images."""

    token_id: UUID
    token: str
    table: int
    link: str
    qr_svg: str
    qr_png: str
    # False when the link names this machine's loopback (127.0.0.1, localhost): a tablet
    # cannot open it. `lan_link` is the same link on this machine's hall-network address
    # ("" when none is known); it works once the server listens there (`--host 0.0.0.0`).
    reachable: bool = True
    lan_link: str = ""


class AccountRequest(msgspec.Struct, forbid_unknown_fields=True):
    """A new staff account (head judge only)."""

    username: Name
    role: Annotated[str, msgspec.Meta(pattern="^(head_judge|secretary|auditor)$")]
    password: Annotated[str, msgspec.Meta(min_length=8, max_length=200)]
