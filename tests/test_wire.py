"""The press's lean sender (bot.ui.wire), on real sockets: a scripted HTTP/1.1 server on 127.0.0.1
(plain and TLS) answers as the test says, and records every request's bytes; discord.py's own
client, pointed at the same server, sends the same calls for comparison."""

from __future__ import annotations

import asyncio
import io
import json
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import pytest
from discord.enums import InteractionResponseType
from discord.webhook.async_ import async_context, interaction_message_response_params

from bot.ui import http1, wire as wire_mod
from bot.ui.wire import Wire

ME = {"id": "42", "username": "Deckhand", "global_name": None, "discriminator": "0", "avatar": None, "bot": True}


@dataclass
class Seen:
    """One request as the server read it."""

    method: str
    target: str
    headers: dict[str, str]
    body: bytes
    conn: int  # which connection it came on


def answer(status: int = 200, data: Any = None, *, headers: dict[str, str] | None = None, chunks: int = 0,
           reason: str = "OK") -> list[bytes]:
    """An HTTP/1.1 answer's bytes, in pieces (written one by one): JSON with a Content-Length, or
    chunked in ``chunks`` chunks."""
    if status == 204:  # no content, and no length said
        return ["HTTP/1.1 204 No Content\r\nVia: 1.1 google\r\n\r\n".encode()]
    body = json.dumps(data if data is not None else {"ok": True}).encode()
    head = {"Content-Type": "application/json", **(headers or {})}
    if chunks:
        head["Transfer-Encoding"] = "chunked"
        size = -(-len(body) // chunks)
        parts = [body[i:i + size] for i in range(0, len(body), size)]
        pieces = [b"%x\r\n%s\r\n" % (len(p), p) for p in parts] + [b"0\r\n\r\n"]
    else:
        head["Content-Length"] = str(len(body))
        pieces = [body[: len(body) // 2], body[len(body) // 2:]]  # the body in two writes
    lines = [f"HTTP/1.1 {status} {reason}"] + [f"{k}: {v}" for k, v in head.items()]
    return [("\r\n".join(lines) + "\r\n\r\n").encode()] + pieces


# What the server does with one request: the answer's pieces, or SILENT (close without a byte).
SILENT = "silent"
Script = Callable[[Seen], Any]


@dataclass
class Server:
    script: list[Any] = field(default_factory=list)  # answers for the next requests, in order (then 200s)
    seen: list[Seen] = field(default_factory=list)
    open: set[asyncio.StreamWriter] = field(default_factory=set)
    tls: list[bool] = field(default_factory=list)  # per connection: was it TLS
    close_after: set[int] = field(default_factory=set)  # indexes of requests after whose answer the server closes
    port: int = 0
    _server: asyncio.Server | None = None

    async def start(self, ssl_context: ssl.SSLContext | None = None) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=ssl_context)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        assert self._server is not None
        self._server.close()
        for w in list(self.open):
            w.close()
        await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.open.add(writer)
        conn = len(self.tls)
        self.tls.append(writer.get_extra_info("ssl_object") is not None)
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                first, *lines = head.decode("latin-1").rstrip("\r\n").split("\r\n")
                method, target, _ = first.split(" ")
                headers = {}
                for line in lines:
                    k, _, v = line.partition(":")
                    headers[k.strip().lower()] = v.strip()
                body = await reader.readexactly(int(headers.get("content-length", 0)))
                rec = Seen(method, target, headers, body, conn)
                index = len(self.seen)
                self.seen.append(rec)
                if target.endswith("/users/@me"):
                    what: Any = answer(200, ME)
                elif self.script:
                    what = self.script.pop(0)
                    what = what(rec) if callable(what) else what
                else:
                    what = answer(200, {"id": "7", "echo": True})
                if what == SILENT:
                    return
                for piece in what:
                    writer.write(piece)
                    await writer.drain()
                    await asyncio.sleep(0)
                if index in self.close_after:
                    return
        finally:
            self.open.discard(writer)
            writer.close()

    async def connections_closed(self) -> bool:
        for _ in range(200):
            if not self.open:
                return True
            await asyncio.sleep(0.01)
        return False


@pytest.fixture
async def server(monkeypatch):
    s = Server()
    await s.start()
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{s.port}/api/v10")
    yield s
    await s.stop()


async def client() -> Any:
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    await http.static_login("wire-token")
    return http


@pytest.fixture
async def clients(server):
    """discord.py's own client, and one whose hot requests take a wire."""
    plain, taken = await client(), await client()
    wire = Wire(taken)
    yield plain, taken, wire
    await wire.close()
    await plain.close()
    await taken.close()
    assert await server.connections_closed()


def session(http: Any) -> aiohttp.ClientSession:
    return http._HTTPClient__session


def params_of_callback() -> Any:
    embed = discord.Embed(title="A table", description="é and ✓")
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Go", custom_id="dh2:t:1:s:go"))
    return interaction_message_response_params(
        type=InteractionResponseType.message_update.value, content="moved", embed=embed, view=view,
        allowed_mentions=discord.AllowedMentions.none())


def edit_params() -> Any:
    return discord.http.handle_message_parameters(content="the table ✓", embed=discord.Embed(title="t"),
                                                  allowed_mentions=discord.AllowedMentions.none())


MATTER = ("host", "authorization", "user-agent", "content-type", "content-length", "x-audit-log-reason")


def same_request(a: Seen, b: Seen) -> None:
    assert (a.method, a.target, a.body) == (b.method, b.target, b.body)
    assert {k: a.headers.get(k) for k in MATTER} == {k: b.headers.get(k) for k in MATTER}


async def test_the_requests_are_discord_pys_own(server, clients):
    plain, taken, wire = clients
    params = params_of_callback()
    for http, adapter in ((plain, async_context.get()), (taken, wire.adapter)):
        got = await adapter.create_interaction_response(1234, "tok-en_1", session=session(http), params=params)
        assert got == {"id": "7", "echo": True}
    same_request(server.seen[-2], server.seen[-1])
    assert server.seen[-1].target == "/api/v10/interactions/1234/tok-en_1/callback?with_response=1"
    assert "authorization" not in server.seen[-1].headers
    for http in (plain, taken):  # the table's edit, on the bot's token
        await http.edit_message(55, 66, params=edit_params())
    same_request(server.seen[-2], server.seen[-1])
    assert server.seen[-1].headers["authorization"] == "Bot wire-token"
    assert server.seen[-1].method == "PATCH" and server.seen[-1].target == "/api/v10/channels/55/messages/66"
    route = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=55, message_id=67)
    for http in (plain, taken):  # with an audit-log reason
        await http.request(route, json={"content": "x"}, reason="a reason/with é")
    same_request(server.seen[-2], server.seen[-1])
    assert server.seen[-1].headers["x-audit-log-reason"] == "a reason/with %C3%A9"
    assert wire.sent == 3 and wire.fell_back == 0
    # The wire's requests went on one kept-alive connection.
    assert len({s.conn for s in server.seen[-6:][1::2]}) == 1


async def test_every_request_to_discord_gives_the_interactions_place_back(server, clients, monkeypatch):
    """A press holds its turnstile place while it works, not while Discord answers it."""
    plain, taken, wire = clients
    stepped: list[str] = []

    class aside:
        async def __aenter__(self):
            stepped.append("out")

        async def __aexit__(self, *exc):
            stepped[-1] += " and back in"

    monkeypatch.setattr(wire_mod, "aside", aside)
    await wire.adapter.create_interaction_response(1234, "tok-en_1", session=session(taken), params=params_of_callback())
    assert stepped == ["out and back in"]
    await taken.edit_message(55, 66, params=edit_params())  # a hot route
    assert stepped == ["out and back in"] * 2
    await taken.request(discord.http.Route("GET", "/channels/{channel_id}", channel_id=55))  # discord.py's road
    assert stepped == ["out and back in"] * 3


async def test_what_the_wire_leaves_to_discord_py(server, clients):
    plain, taken, wire = clients
    files = discord.http.handle_message_parameters(content="pic", file=discord.File(io.BytesIO(b"x"), "a.png"))
    with files:
        await taken.edit_message(55, 66, params=files)  # a body with files: discord.py's multipart
    assert server.seen[-1].headers["content-type"].startswith("multipart/form-data")
    await taken.request(discord.http.Route("GET", "/channels/{channel_id}", channel_id=5))  # not a hot route
    assert wire.sent == 0
    taken.proxy = "http://127.0.0.1:9"  # a proxy on the client: nothing takes the wire
    assert not wire.usable
    taken.proxy = None
    taken.http_trace = aiohttp.TraceConfig()  # aiohttp's tracing of the client's requests: nor that
    assert not wire.usable
    taken.http_trace = None
    assert wire.usable
    await wire.close()  # closed: discord.py's road again
    await taken.edit_message(55, 66, params=edit_params())
    assert wire.sent == 0 and server.seen[-1].headers.get("accept-encoding")  # aiohttp's request


@pytest.mark.parametrize("chunks", [0, 3])
async def test_chunked_and_sized_answers_and_a_close(server, clients, chunks):
    plain, taken, wire = clients
    data = {"id": "9", "content": "x" * 3000, "nested": {"a": [1, 2, 3]}}
    server.script = [answer(200, data, chunks=chunks), answer(200, data, chunks=chunks, headers={"Connection": "close"}),
                     answer(200, {"id": "10"}, chunks=chunks)]
    route = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1, message_id=2)
    assert await taken.request(route, json={"content": "a"}) == data
    assert await taken.request(route, json={"content": "b"}) == data  # then the connection is closed
    assert await taken.request(route, json={"content": "c"}) == {"id": "10"}
    mine = server.seen[-3:]
    assert mine[0].conn == mine[1].conn != mine[2].conn
    assert wire.sent == 3 and wire.fell_back == 0


async def test_the_server_closing_a_kept_alive_connection(server, clients):
    plain, taken, wire = clients
    route = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1, message_id=2)
    server.close_after = {len(server.seen)}  # the next request: answered, then the connection closed
    await taken.request(route, json={"content": "a"})
    for _ in range(1000):  # until the wire has seen it closed
        if not any(c.open for c in wire._all):
            break
        await asyncio.sleep(0.01)
    await taken.request(route, json={"content": "b"})  # a new connection
    assert server.seen[-1].conn != server.seen[-2].conn and wire.sent == 2
    # The server closes a kept-alive connection as the request arrives (not a byte answered): an
    # edit is harmless twice, so discord.py's road sends it again.
    server.script = [SILENT]
    assert await taken.request(route, json={"content": "c"}) == {"id": "7", "echo": True}
    assert [s.body for s in server.seen[-2:]] == [b'{"content":"c"}'] * 2 and wire.fell_back == 1
    # A follow-up (a new message) is not sent twice: the error is raised, as aiohttp raises it.
    await taken.request(route, json={"content": "d"})
    server.script = [SILENT]
    params = discord.http.handle_message_parameters(content="hi")
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await wire.adapter.execute_webhook(5, "tok", session=session(taken), payload=params.payload, wait=True)
    assert server.seen[-1].target == "/api/v10/webhooks/5/tok?wait=1&with_components=0"


async def test_follow_ups_take_the_wire(server, clients):
    """The bot's follow-ups (``interaction.followup``: a webhook on the interaction's token) go
    through discord.py's webhook adapter as read from its context: the sender's, once served."""
    plain, taken, wire = clients

    def follow_up(http: Any) -> Any:
        return discord.Webhook.partial(5, "tok", session=session(http)).send(
            "hi ✓", embed=discord.Embed(title="t"), allowed_mentions=discord.AllowedMentions.none())

    server.script = [answer(204), answer(204)]
    assert await follow_up(plain) is None

    async def served() -> Any:
        wire.serve_webhooks()
        return await follow_up(taken)

    assert await asyncio.create_task(served()) is None  # a task of its own: the test's context stays as it was
    assert async_context.get() is not wire.adapter
    same_request(server.seen[-2], server.seen[-1])
    assert server.seen[-1].target == "/api/v10/webhooks/5/tok?wait=0&with_components=0"
    assert wire.sent == 1 and server.seen[-1].headers.get("accept-encoding") is None


def limits(remaining: int, reset_after: float, bucket: str = "b1") -> dict[str, str]:
    return {"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset-After": str(reset_after), "X-RateLimit-Bucket": bucket}


async def test_rate_limit_buckets_are_discord_pys(server, clients):
    """The same answers, through discord.py and through the wire, leave the same buckets; an
    exhausted bucket holds the request until it resets, on both roads."""
    plain, taken, wire = clients
    route = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=3, message_id=4)
    states = []
    for http in (plain, taken):
        server.script = [answer(200, headers=limits(3, 5.0)), answer(200, headers=limits(0, 0.3))]
        await http.request(route, json={"content": "a"})
        start = time.monotonic()
        await http.request(route, json={"content": "b"})  # exhausts the bucket: held until it resets
        held = time.monotonic() - start
        bucket = http._buckets[f"b1:{route.major_parameters}"]
        states.append((dict(http._bucket_hashes), sorted(http._buckets), bucket.limit, bucket.remaining, held >= 0.25))
    assert states[0] == states[1] and states[0][-1]
    assert wire.sent == 2


async def test_a_429_goes_back_through_discord_py(server, clients, caplog):
    plain, taken, wire = clients
    route = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=3, message_id=4)
    limited = {"retry_after": 0.2, "global": False, "message": "You are being rate limited."}
    server.script = [answer(429, limited, headers={"Via": "1.1 google", **limits(0, 0.2)})]
    start = time.monotonic()
    assert await taken.request(route, json={"content": "a"}) == {"id": "7", "echo": True}
    assert time.monotonic() - start >= 0.2  # its retry_after waited, then sent again by discord.py
    again = server.seen[-1]
    assert again.body == server.seen[-2].body and again.headers.get("accept-encoding")  # aiohttp's request
    assert wire.fell_back == 1 and wire.sent == 0
    # A global one holds the client's other requests meanwhile.

    class Watched(asyncio.Event):
        held = 0

        def clear(self) -> None:
            self.held += 1
            super().clear()

    taken._global_over = Watched()
    taken._global_over.set()
    server.script = [answer(429, {**limited, "global": True}, headers={"Via": "1.1 google"})]
    await taken.request(route, json={"content": "b"})
    assert taken._global_over.held == 1 and taken._global_over.is_set()
    # Without Cloudflare's Via (a ban), discord.py raises at once: so does the wire, sending nothing again.
    n = len(server.seen)
    server.script = [answer(429, limited, reason="Too Many Requests")]
    with pytest.raises(discord.HTTPException) as raised:
        await taken.request(route, json={"content": "c"})
    assert raised.value.status == 429 and len(server.seen) == n + 1
    # The interaction's road: a 429 there, then discord.py's adapter retries it.
    server.script = [answer(429, limited, headers={"Via": "1.1 google"})]
    params = params_of_callback()
    caplog.clear()
    got = await wire.adapter.create_interaction_response(1, "secret-token", session=session(taken), params=params)
    assert got == {"id": "7", "echo": True} and server.seen[-1].target == server.seen[-2].target
    assert "secret-token" in server.seen[-1].target  # sent, but never logged
    said = [r.getMessage() for r in caplog.records if "rate limited" in r.getMessage()]
    assert said and not any("secret-token" in line for line in said)


async def test_refusals_raise_discord_pys_exceptions_and_a_500_is_retried(server, clients):
    plain, taken, wire = clients
    route = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=3, message_id=4)
    for status, kind in ((404, discord.NotFound), (403, discord.Forbidden), (400, discord.HTTPException)):
        for http in (plain, taken):
            server.script = [answer(status, {"code": 10008, "message": "Unknown Message"}, reason="Nope")]
            with pytest.raises(kind) as raised:
                await http.request(route, json={"content": "a"})
            assert type(raised.value) is kind and raised.value.code == 10008 and raised.value.status == status
            if http is plain:
                theirs = str(raised.value)
        assert str(raised.value) == theirs
    n = len(server.seen)
    assert n == 1 + 1 + 6  # two logins, each refusal sent once
    server.script = [answer(500, {"message": "oops"}, reason="Internal Server Error")]
    start = time.monotonic()
    assert await taken.request(route, json={"content": "b"}) == {"id": "7", "echo": True}
    assert time.monotonic() - start >= 1.0 and len(server.seen) == n + 2  # discord.py's retry, a second later
    server.script = [answer(502, {"message": "bad gateway"})]
    params = params_of_callback()
    got = await wire.adapter.create_interaction_response(1, "t", session=session(taken), params=params)
    assert got == {"id": "7", "echo": True} and len(server.seen) == n + 4
    server.script = [answer(404, {"code": 10062, "message": "Unknown interaction"})]
    with pytest.raises(discord.NotFound):
        await wire.adapter.create_interaction_response(1, "t", session=session(taken), params=params)


async def test_a_connection_refused_goes_through_discord_py(server, clients, monkeypatch):
    plain, taken, wire = clients
    monkeypatch.setattr(wire, "limit", 0)  # the pool full: not a connection to spare
    route = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=3, message_id=4)
    assert await taken.request(route, json={"content": "a"}) == {"id": "7", "echo": True}
    assert wire.fell_back == 1 and server.seen[-1].headers.get("accept-encoding")


async def test_the_tls_road(monkeypatch):
    trustme = pytest.importorskip("trustme")
    ca = trustme.CA()
    cert = ca.issue_cert("localhost")
    served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    cert.configure_cert(served)
    s = Server()
    await s.start(served)
    monkeypatch.setattr(discord.http.Route, "BASE", f"https://localhost:{s.port}/api/v10")
    trusted = ssl.create_default_context()
    ca.configure_trust(trusted)
    http = discord.http.HTTPClient(asyncio.get_running_loop(), connector=aiohttp.TCPConnector(ssl=trusted))
    try:
        await http.static_login("wire-token")
        wire = Wire(http, ssl_context=trusted)
        await http.edit_message(5, 6, params=edit_params())
        await http.edit_message(5, 7, params=edit_params())
        assert wire.sent == 2 and s.tls and all(s.tls)
        assert s.seen[-1].headers["host"] == f"localhost:{s.port}"
        assert s.seen[-1].conn == s.seen[-2].conn != s.seen[0].conn  # kept alive, its own (not aiohttp's)
        await wire.close()
        # The default context (the system's authorities) refuses the throw-away certificate: the
        # wire does not connect, and discord.py's road (trusting it here) sends the request.
        wire = Wire(http)
        await http.edit_message(5, 8, params=edit_params())
        assert wire.sent == 0 and wire.fell_back == 1 and s.seen[-1].target.endswith("/messages/8")
        await wire.close()
    finally:
        await http.close()
        assert await s.connections_closed()
        await s.stop()


async def test_the_bot_sends_a_press_on_its_wire_and_closes_it(standin, make_bot):
    from tests.discord_helpers import auto_moves, guild_with, press_move, start_by_slash
    from bot.standin import logged_in

    async with logged_in(make_bot()) as bot:
        g, users = guild_with(standin, ["ana", "ben"])
        channel = await start_by_slash(standin, bot, g, users, "maginot_line")
        async for _, _, seat, move in auto_moves(bot, channel, 2):
            await press_move(standin, bot, channel, move, users[seat])
        wire = bot.wire
        assert wire.sent >= 2 and wire.connections >= 1
        conns = list(wire._all)
    assert wire.connections == 0 and all(c.lost.done() for c in conns)
    here = asyncio.current_task()
    assert not [t for t in asyncio.all_tasks() if t is not here and "wire" in repr(t.get_coro())]


def test_headers_are_read_in_any_case():
    h = http1.Headers({"x-ratelimit-remaining": "0"})
    assert h.get("X-RateLimit-Remaining") == "0" and "X-Ratelimit-Remaining" in h and h["X-RATELIMIT-REMAINING"] == "0"


async def test_no_answer_times_out_and_the_connection_is_dropped(server, clients, monkeypatch):
    plain, taken, wire = clients
    monkeypatch.setattr(http1, "ANSWER_TIMEOUT", 0.2)
    route = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=3, message_id=4)
    server.script = [[]]  # read, never answered
    with pytest.raises(TimeoutError):
        await taken.request(route, json={"content": "a"})
    for _ in range(500):  # the connection it waited on is closed (by the wire: the server keeps it)
        if wire.connections == 0:
            break
        await asyncio.sleep(0.01)
    assert wire.connections == 0
    assert await taken.request(route, json={"content": "b"}) == {"id": "7", "echo": True}  # a new connection
    assert server.seen[-1].conn != server.seen[-2].conn and wire.sent == 1


def test_a_json_body_is_the_bytes_discord_py_sends(monkeypatch):
    from bot.ui.wire import json_body

    payloads = [{"content": "é ✓ 😀 \u2028", "embeds": [{"title": "<@1>", "fields": []}], "flags": 64, "tts": False},
                {"n": [1, 2.5, None, True], "s": "\"quoted\" \\ back"}]
    for payload in payloads:
        assert json_body(payload) == discord.utils._to_json(payload).encode("utf-8")
    import json

    def as_json_module(obj: Any) -> str:  # discord.py without orjson
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=True)

    monkeypatch.setattr(discord.utils, "_to_json", as_json_module)
    for payload in payloads:
        assert json_body(payload) == as_json_module(payload).encode("utf-8")


async def test_an_answer_nobody_reads_is_not_parsed(server, clients, monkeypatch):
    from bot.ui import http1, wire as wire_module

    plain, taken, wire = clients
    parsed: list[bytes] = []
    data = http1.Answer.data

    def counted(self):
        parsed.append(self.body)
        return data(self)

    monkeypatch.setattr(http1.Answer, "data", counted)
    params = params_of_callback()
    with wire_module.unread():
        got = await wire.adapter.create_interaction_response(1234, "tok-en_2", session=session(taken), params=params)
        edited = await taken.edit_message(55, 66, params=edit_params())
    assert got is None and edited is None and parsed == []
    read = await wire.adapter.create_interaction_response(1234, "tok-en_3", session=session(taken), params=params)
    assert read == {"id": "7", "echo": True} and len(parsed) == 1  # read again once out of ``unread``
    await plain.edit_message(55, 66, params=edit_params())
    same_request(server.seen[-3], server.seen[-1])  # the request itself is the one discord.py sends
    assert wire.sent == 3 and wire.fell_back == 0
