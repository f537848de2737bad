"""The sweep's sender thread (bot.ui.courier) sends its JSON requests (a table's edit, a notice)
on a lean road of its own (bot.ui.wire): the very requests discord.py would send, discord.py's
rate limits and refusals, and a notice never posted twice. On the scripted server of
tests.test_wire, with discord.py's own client beside it for comparison."""

from __future__ import annotations

import time

import aiohttp
import discord
import pytest

from bot.ui.courier import Courier
from tests.test_wire import SILENT, answer, client, edit_params, limits, same_request, server  # noqa: F401

LIMITED = {"retry_after": 0.2, "global": False, "message": "You are being rate limited."}


def notice_params(text: str = "<@7> — time is up ✓") -> discord.http.MultipartParameters:
    return discord.http.handle_message_parameters(
        content=text, nonce=123, allowed_mentions=discord.AllowedMentions(users=[discord.Object(7)], everyone=False))


@pytest.fixture
async def courier(server):  # noqa: F811 — the scripted server of tests.test_wire
    source = await client()
    courier = Courier(source)
    await courier.start()
    yield courier
    await courier.close()
    await source.close()
    assert await server.connections_closed()


async def test_the_edit_and_the_notice_are_discord_pys_own_requests(server, courier):  # noqa: F811
    plain = await client()
    try:
        await plain.edit_message(55, 66, params=edit_params())
        await plain.send_message(55, params=notice_params())
    finally:
        await plain.close()
    mark = len(server.seen)
    assert await courier.send([("edit_message", (55, 66), edit_params()),
                               ("send_message", (55,), notice_params())]) == [None, None]
    edit, notice = server.seen[mark:]
    same_request(server.seen[mark - 2], edit)
    same_request(server.seen[mark - 1], notice)
    assert (edit.method, edit.target) == ("PATCH", "/api/v10/channels/55/messages/66")
    assert (notice.method, notice.target) == ("POST", "/api/v10/channels/55/messages")
    assert "accept-encoding" not in notice.headers  # the wire's, not aiohttp's
    assert courier._wire is not None and courier._wire.sent == 2 and courier._wire.fell_back == 0


async def test_a_rate_limited_notice_waits_and_is_posted_once(server, courier):  # noqa: F811
    server.script = [answer(429, LIMITED, headers={"Via": "1.1 google", **limits(0, 0.2)})]
    mark = len(server.seen)
    start = time.monotonic()
    assert await courier.send([("send_message", (55,), notice_params())]) == [None]
    assert time.monotonic() - start >= 0.2  # its retry_after waited, then sent again by discord.py
    first, again = server.seen[mark:]
    assert (first.method, first.body) == (again.method, again.body) and again.headers.get("accept-encoding")
    assert courier._wire.fell_back == 1


async def test_a_refused_notice_is_reported_and_not_sent_again(server, courier):  # noqa: F811
    server.script = [answer(403, {"message": "Missing Access", "code": 50001}, reason="Forbidden"),
                     answer(429, LIMITED, reason="Too Many Requests")]  # no Via: a ban, raised at once
    mark = len(server.seen)
    refused = await courier.send([("send_message", (55,), notice_params()), ("send_message", (56,), notice_params())])
    assert isinstance(refused[0], discord.Forbidden) and isinstance(refused[1], discord.HTTPException)
    assert refused[1].status == 429
    assert len(server.seen) == mark + 2


async def test_a_notice_whose_connection_closed_unanswered_is_not_posted_twice(server, courier):  # noqa: F811
    """A kept-alive connection closed with no answer: the notice may have been read, so it is not
    sent again (a table's edit would be: twice is one edit); the error stops that delivery."""
    assert await courier.send([("send_message", (55,), notice_params())]) == [None]  # a connection kept alive
    server.script = [SILENT]
    mark = len(server.seen)
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await courier.send([("send_message", (55,), notice_params())])
    assert len(server.seen) == mark + 1
    server.script = [SILENT]
    mark = len(server.seen)
    assert await courier.send([("edit_message", (55, 66), edit_params())]) == [None]
    assert [s.method for s in server.seen[mark:]] == ["PATCH", "PATCH"]
