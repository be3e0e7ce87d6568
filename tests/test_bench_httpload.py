"""bench/httpload.py, the load generator's HTTP/1.1 client: whole bodies by Content-Length and by
chunks, the status, keep-alive reuse, `Connection: close`, an idle connection the server closed, and
a response cut short (an error, not a short body)."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path

import pytest

spec = importlib.util.spec_from_file_location("bench_httpload", Path(__file__).parents[1] / "bench" / "httpload.py")
httpload = importlib.util.module_from_spec(spec)
sys.modules["bench_httpload"] = httpload
spec.loader.exec_module(httpload)


def fixed(status: int, body: bytes, extra: str = "") -> bytes:
    return (f"HTTP/1.1 {status} X\r\nContent-Length: {len(body)}\r\n{extra}\r\n").encode() + body


def chunked(*parts: bytes) -> bytes:
    out = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    for part in parts:
        out += f"{len(part):x}\r\n".encode() + part + b"\r\n"
    return out + b"0\r\n\r\n"


async def serve(answers: dict[str, bytes], seen: list[tuple[int, str]], close_after: set[str] = frozenset()):
    """A server answering each request line's target from `answers`, written in small pieces; it
    records (connection number, target) and closes the connection after targets in `close_after`."""
    count = 0

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal count
        count += 1
        me = count
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                target = head.split(b" ", 2)[1].decode()
                assert b"\r\nHost: 127.0.0.1:" in head
                seen.append((me, target))
                raw = answers[target.split("?")[0]]
                for i in range(0, len(raw), 7):         # the parser must join pieces
                    writer.write(raw[i:i + 7])
                    await writer.drain()
                if target.split("?")[0] in close_after:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        writer.close()

    return await asyncio.start_server(handle, "127.0.0.1", 0)


def test_bodies_statuses_and_connections_are_read_right():
    big = bytes(range(256)) * 300
    answers = {"/len": fixed(200, b'{"a": 1}'), "/chunks": chunked(b"hello ", b"world", big),
               "/missing": fixed(404, b'{"error": "no"}'), "/bye": fixed(200, b"last", "Connection: close\r\n"),
               "/empty": fixed(204, b"")}
    seen: list[tuple[int, str]] = []

    async def main():
        server = await serve(answers, seen)
        client = httpload.Client("127.0.0.1", server.sockets[0].getsockname()[1], connections=1)
        got = [await client.get("/len", {"q": "npu 超时 a&b", "k": 5}), await client.get("/chunks"),
               await client.get("/missing"), await client.get("/empty"), await client.get("/bye"),
               await client.get("/len")]
        await client.close()
        await asyncio.sleep(0.05)               # the handlers see the connections end
        server.close()
        return got

    got = asyncio.run(main())
    assert got == [(200, b'{"a": 1}'), (200, b"hello world" + big), (404, b'{"error": "no"}'), (204, b""),
                   (200, b"last"), (200, b'{"a": 1}')]
    assert seen[0] == (1, "/len?q=npu+%E8%B6%85%E6%97%B6+a%26b&k=5")      # parameters encoded
    assert [c for c, _ in seen] == [1, 1, 1, 1, 1, 2]      # kept alive, then a new one after Connection: close


def test_an_idle_connection_closed_by_the_server_is_replaced_and_a_cut_response_is_an_error():
    answers = {"/once": fixed(200, b"ok"), "/cut": b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort"}
    seen: list[tuple[int, str]] = []

    async def main():
        server = await serve(answers, seen, close_after={"/once", "/cut"})
        client = httpload.Client("127.0.0.1", server.sockets[0].getsockname()[1], connections=2)
        first = await client.get("/once")          # kept-alive by the headers, then closed by the server
        await asyncio.sleep(0.05)
        second = await client.get("/once")          # the idle one is gone: a new connection answers
        with pytest.raises(httpload.ResponseError):
            await client.get("/cut")
        await client.close()
        await asyncio.sleep(0.05)               # the handlers see the connections end
        server.close()
        return first, second

    assert asyncio.run(main()) == ((200, b"ok"), (200, b"ok"))
    assert [c for c, _ in seen] == [1, 2, 3]
