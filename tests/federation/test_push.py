"""Issue 49, done when (a): a venue records 3 matches while the federation is down; the
federation comes up; every event arrives exactly once, the federation's copy equals the
venue's (positions, both chains' hashes, payloads, meta, times), and every receipt verifies
against the venue's key as the federation enrolled it and is held by the federation's copy.
The federation's acknowledgement the venue keeps verifies against the federation's key.
A round robin of three (three matches more) played meanwhile stands at the federation's public
page as it stands at the venue, and every receipt is checked there ("holds")."""

from __future__ import annotations

import json
import uuid

import msgspec
from support.federation import (
    KEPT_ROWS,
    VENUE_ROWS,
    caught_up,
    enrolment_code,
    federation_server,
    records,
    status,
    venue_env,
)
from support.federation_read import finished_round_robin
from support.harness import Api, Server, wait_for
from support.recorded import record_match
from tableside.eventlog import federation_ack, receipts

THREE = ["Anna-Liisa Põldmäe-Kuusk", "Ilze Bērziņa-Ozoliņa", "Guðrún Þórsdóttir"]


def test_three_matches_recorded_while_the_federation_is_down_arrive_exactly_once(
    new_database, federation_database, tmp_path
) -> None:
    venue_url = new_database()
    fed = federation_server(federation_database, tmp_path).start()
    uplink = tmp_path / "uplink"
    env = venue_env(fed.base, enrolment_code(fed.base), uplink, TABLESIDE_CHECKPOINT_MINUTES="0.02")
    venue = Server(venue_url, env=env).start()
    try:
        wait_for(lambda: status(uplink).get("state") == "enrolled", timeout=30)
        assert (uplink / "credential.json").stat().st_mode & 0o077 == 0
        fed.stop()
        head = Api(venue.base).login()
        # every tap answered while the federation is down: the uplink only waits
        matches = [record_match(head, table=t, games=1).match_id for t in (1, 2, 3)]
        trio = [{"name": n, "birth_year": 1990, "sex": "F"} for n in THREE]
        comp = finished_round_robin(head, "Talvekarikas", trio)
        standings = head.get(f"/api/competitions/{comp.id}/standings").json()["rows"]
        wait_for(lambda: status(uplink).get("state") == "offline", timeout=30)
        assert Api(venue.base).get("/health").json()["federation"]["state"] == "offline"
        fed = federation_server(federation_database, tmp_path, port=fed.port).start()
        receipted = [Api(venue.base).get(f"/api/receipts/{m}").json()["receipts"] for m in matches]
        wait_for(lambda: caught_up(uplink, venue_url), timeout=60)
        assert Api(venue.base).get("/health").json()["federation"]["state"] == "witnessed"
    finally:
        venue.stop()
    try:
        credential = json.loads((uplink / "credential.json").read_bytes())
        venue_id = credential["venue_id"]
        wait_for(
            lambda: (
                records(federation_database, KEPT_ROWS, venue_id)[-1:]
                == records(venue_url, VENUE_ROWS)[-1:]
            ),
            timeout=30,
        )
        kept = records(federation_database, KEPT_ROWS, venue_id)
        assert kept == records(venue_url, VENUE_ROWS)  # each once: the table's keys say so
        about = Api(fed.base).get(f"/api/federation/venues/{venue_id}").json()
        key = bytes.fromhex(about["keys"][0]["public_key"])
        for match, found in zip(matches, receipted, strict=True):
            stream = [r for r in kept if r.stream_id == uuid.UUID(match)]
            for raw in found:
                receipt = msgspec.convert(raw, receipts.Receipt)
                assert receipts.problem(receipt, key) is None
                assert receipts.held_by(receipt, stream) is None
        fed_key = bytes.fromhex(Api(fed.base).get("/api/federation/key").json()["public_key"])
        acks = (uplink / "federation-acks.jsonl").read_bytes().splitlines()
        newest = federation_ack.decode(acks[-1])
        assert federation_ack.problem(newest, fed_key) is None
        assert newest.position == kept[-1].position
        assert newest.head_hash == kept[-1].global_hash.hex()
        public = Api(fed.base)
        path = f"/api/public/events/{venue_id}/{comp.id}"
        wait_for(lambda: public.get(path).status_code == 200, timeout=30)
        assert public.get(path).json()["standings"] == standings
        for found in receipted:
            for raw in found:
                verdict = public.get("/api/public/receipts", r=json.dumps(raw)).json()
                assert verdict["receipt"] == "holds", verdict
    finally:
        fed.stop()
