"""A direct writer's kernel-buffer bound on a socket its client has just left (issue 51's bench
at 20,000: the relay's handler raised, its subscriber left in the audience): nothing to bound,
nothing raised."""

from __future__ import annotations

import socket

import uvloop.loop
from tableside.live.direct import DirectWriter


class _Transport:
    """uvicorn's transport under uvloop at the moment its file is gone: its socket a uvloop
    PseudoSocket of descriptor -1 (setsockopt raises ValueError, not OSError)."""

    def get_extra_info(self, name: str):
        assert name == "socket"
        return uvloop.loop.PseudoSocket(socket.AF_INET, socket.SOCK_STREAM, 0, -1)


class _Protocol:
    transport = _Transport()


def test_bounding_a_socket_whose_file_is_gone_raises_nothing() -> None:
    DirectWriter(_Protocol()).bound(64 * 1024)
