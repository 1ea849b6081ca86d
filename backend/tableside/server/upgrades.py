"""uvicorn's HTTP protocol, letting go of itself once a connection is upgraded to a websocket.

uvicorn's httptools protocol and its parser hold each other (the parser calls the protocol
back), so once a connection is handed to the websocket protocol the pair — with its flow
control, its event and the request's headers — waits for the collector's next full pass. A
crowd of spectators arriving at once left thousands of them behind, a few KiB each (issue 42
point 4, decision 0143). `tableside serve` runs it (cli/serve.py).
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol  # httptools: pyproject


class LetGoOnUpgrade(HttpToolsProtocol):
    """HttpToolsProtocol whose parser is dropped once the connection is a websocket's."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]  # uvicorn types it as always set
