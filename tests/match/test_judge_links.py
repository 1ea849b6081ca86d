"""The judge's QR link must be one a tablet can open (issue 14, point 7): a console opened
on this machine gives loopback links; they are replaced by the hall-network address when the
server listens there, and marked unreachable (with the address to use) when it does not."""

from __future__ import annotations

import pytest
from tableside.staff import links

LINK = "http://127.0.0.1:8000/judge?table=3#token=tj_abc"


@pytest.fixture
def hall(monkeypatch):
    """A machine whose hall-network address is 192.168.1.20 (the probe needs no network)."""
    monkeypatch.setattr(links, "lan_address", lambda: "192.168.1.20")


def test_a_loopback_link_becomes_the_hall_address_when_the_server_listens_there(hall):
    link, reachable, lan = links.reachable_link(LINK, "0.0.0.0")
    assert link == lan == "http://192.168.1.20:8000/judge?table=3#token=tj_abc"
    assert reachable


def test_a_server_on_loopback_only_gives_an_unreachable_link_and_says_where_to_listen(hall):
    link, reachable, lan = links.reachable_link(LINK, "127.0.0.1")
    assert link == LINK and not reachable
    assert lan == "http://192.168.1.20:8000/judge?table=3#token=tj_abc"


def test_a_link_by_a_network_name_is_left_alone(hall):
    named = "http://hall.local:8000/judge?table=3#token=tj_abc"
    assert links.reachable_link(named, "127.0.0.1") == (named, True, "")


@pytest.mark.parametrize("host", ["127.0.0.1", "127.1.2.3", "localhost", "[::1]", "::1"])
def test_loopback_hosts(host):
    assert links.is_loopback(host)


def test_the_probe_never_answers_loopback():
    assert not links.is_loopback(links.lan_address() or "192.0.2.1")
