"""A cheap HTTP/1.1 GET client for bench/serve.py's load generator: keep-alive connections on
asyncio, responses parsed by httptools (uvicorn's C parser, already a dependency).

The load generator shares the machine's cores with the server it measures, so what it spends a
request is taken from the server: an httpx client spent 0.8 ms of CPU a request (closed loop) and
1.39 ms (open loop) against the server's ~3.5 ms. This client builds one request line and one Host
header, sends it on an idle connection of its pool, and lets httptools find the end of the response
(Content-Length or chunked) and its status; the body is kept whole. A response that says
`Connection: close` (or an HTTP/1.0 one) closes its connection; one cut short is an error.

    client = Client("127.0.0.1", port, connections=8)
    status, body = await client.get("/api/cases/search", {"q": "npu timeout", "k": 5})
    await client.close()
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlencode

import httptools


class ResponseError(Exception):
    """The server closed the connection or sent what is not an HTTP/1.x response."""


class _Connection(asyncio.Protocol):
    """One keep-alive connection: one request at a time, its response parsed as it arrives."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.reusable = False
        self._parser = httptools.HttpResponseParser(self)
        self._body: list[bytes] = []
        self._done: asyncio.Future | None = None
        self.answered = False           # a byte of the current response came (a reused connection
                                        # closed before that can be retried: GET is idempotent)

    # asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.answered = True
        try:
            self._parser.feed_data(data)
        except httptools.HttpParserError as exc:
            self._fail(ResponseError(f"unparseable response: {exc}"))

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        self._fail(ResponseError(f"connection closed before the response ended ({exc or 'by the server'})"))

    # httptools callbacks
    def on_body(self, body: bytes) -> None:
        self._body.append(body)

    def on_message_complete(self) -> None:
        self.reusable = self._parser.should_keep_alive()
        if self._done is not None and not self._done.done():
            self._done.set_result((self._parser.get_status_code(), b"".join(self._body)))

    def _fail(self, exc: Exception) -> None:
        self.reusable = False
        if self._done is not None and not self._done.done():
            self._done.set_exception(exc)
        if self.transport is not None:
            self.transport.close()

    async def request(self, raw: bytes) -> tuple[int, bytes]:
        if self.transport is None:
            raise ResponseError("connection closed")
        self._body = []
        self.reusable = self.answered = False
        self._done = asyncio.get_running_loop().create_future()
        self.transport.write(raw)
        try:
            return await self._done
        finally:
            self._done = None


class Client:
    """GET requests to one host and port, on at most `connections` keep-alive connections at a time
    (a call waits for a free one)."""

    def __init__(self, host: str, port: int, connections: int = 8) -> None:
        self.host, self.port = host, port
        self._head = f" HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: */*\r\n\r\n".encode("ascii")
        self._slots = asyncio.Semaphore(connections)
        self._idle: list[_Connection] = []

    async def _open(self) -> _Connection:
        loop = asyncio.get_running_loop()
        _, connection = await loop.create_connection(_Connection, self.host, self.port)
        return connection

    async def get(self, path: str, params: dict | None = None) -> tuple[int, bytes]:
        """The response's status and whole body (decoded from chunks if chunked)."""
        target = path + ("?" + urlencode(params) if params else "")
        raw = b"GET " + target.encode("ascii") + self._head
        async with self._slots:
            while self._idle:
                connection = self._idle.pop()
                if connection.transport is not None:
                    try:
                        return await self._send(connection, raw)
                    except ResponseError:
                        if connection.answered:
                            raise       # the server answered and the answer broke: an error
                    # closed by the server while idle (its keep-alive timeout): next one
            return await self._send(await self._open(), raw)

    async def _send(self, connection: _Connection, raw: bytes) -> tuple[int, bytes]:
        try:
            answer = await connection.request(raw)
        except BaseException:
            if connection.transport is not None:
                connection.transport.close()
            raise
        if connection.reusable and connection.transport is not None:
            self._idle.append(connection)
        elif connection.transport is not None:
            connection.transport.close()
        return answer

    async def close(self) -> None:
        while self._idle:
            connection = self._idle.pop()
            if connection.transport is not None:
                connection.transport.close()
