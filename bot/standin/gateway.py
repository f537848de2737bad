"""The gateway half of the stand-in: a websocket speaking Discord's gateway to discord.py's own
client (HELLO, IDENTIFY, READY and GUILD_CREATE, heartbeats, RESUME after a RECONNECT, shards).

Every DISPATCH is sent through :meth:`Gateway.gateway_dispatch`, which returns once each bot it
went to has *read and parsed* it, known without a clock: right after the frame the stand-in asks
for a heartbeat (opcode 1, as Discord may). discord.py reads its frames in order and answers that
request at once with a heartbeat whose ``d`` is the last sequence number it received; a DISPATCH is
parsed without a pause (its handler tasks created) before the next frame is read, so an answer
with ``d >= seq`` means the event was handled as far as discord.py goes before it runs the tasks.

discord.py allows itself 110 gateway sends a minute per connection and holds the next one back
(blocking its reading) past that; each answer to a heartbeat request is one. So after about a
hundred the stand-in asks that bot to reconnect (opcode 7, as Discord does now and then) and the
bot RESUMEs on a new connection: the events it missed meanwhile are replayed, as Discord does.
A connection that closes otherwise ends its session (discord.py closes with 4000 even when the
bot closes for good): a resume of it is answered INVALID_SESSION, and the bot identifies anew.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from typing import Any

from aiohttp import WSMsgType, web

from bot.standin.fakes import FakeGuild
from bot.standin.records import SAFETY_TIMEOUT, StandInError

HEARTBEAT_INTERVAL_MS = 45000
# Frames a bot may send on one connection before it is asked to reconnect (discord.py's limit: 110 a minute).
ROTATE_AFTER = 100
REPLAY = 512  # the events a session keeps for a resume (Discord keeps them for a while too)


class GatewaySession:
    """One bot connection's session (one shard of one bot): its sequence, its current socket (a
    session outlives a socket when the bot resumes on a new one) and the events kept for a resume."""

    def __init__(self, id: str, shard: tuple[int, int] | None, token: str | None) -> None:
        self.id = id
        self.shard = shard
        self.token = token
        self.seq = 0  # the last sequence number sent
        self.acked = 0  # the last sequence number the bot said it had read (a heartbeat's d)
        self.ws: web.WebSocketResponse | None = None
        self.live = asyncio.Event()  # set while a socket is connected and past IDENTIFY/RESUME
        self.lock = asyncio.Lock()  # one frame at a time, READY and a resume's replay first
        self.sent: deque[tuple[int, str]] = deque(maxlen=REPLAY)
        self.probe: int | None = None  # the sequence a heartbeat request in flight covers
        self.frames = 0  # frames the bot sent on the current socket
        self.rotating = False  # asked to reconnect (op 7): it will resume
        self.ended = False  # its socket closed but not on the stand-in's request: a resume is refused
        self.closed = asyncio.Event()  # set when it ended
        self.waiters: list[asyncio.Future[None]] = []

    def __repr__(self) -> str:
        return f"<GatewaySession {self.id} shard={self.shard} seq={self.seq} acked={self.acked} live={self.live.is_set()}>"

    def wake(self) -> None:
        for fut in self.waiters:
            if not fut.done():
                fut.set_result(None)
        self.waiters.clear()


class Gateway:
    """The gateway of :class:`DiscordStandIn` (a part of it)."""

    application_id: int
    bot_user: dict
    guilds: dict[int, FakeGuild]
    gateway_received: list[dict]
    identified: asyncio.Event
    sessions: dict[str, GatewaySession]
    _sockets: set[web.WebSocketResponse]

    @property
    def shards(self) -> dict[str, tuple[int, int]]:
        """The shard (id, count) of every connected session that identified with one."""
        return {s.id: s.shard for s in self.sessions.values() if s.shard is not None and not s.ended}

    @staticmethod
    def shard_of(guild_id: int | str | None, shard_count: int) -> int:
        """Discord's rule: a guild's events go to shard (guild_id >> 22) % shard_count, DMs to shard 0."""
        return (int(guild_id) >> 22) % shard_count if guild_id else 0

    def _serves(self, session: GatewaySession, guild_id: int | str | None) -> bool:
        return session.shard is None or self.shard_of(guild_id, session.shard[1]) == session.shard[0]

    # --- frames ---------------------------------------------------------------------------------
    @staticmethod
    async def _send_text(ws: web.WebSocketResponse | None, text: str) -> None:
        if ws is None or ws.closed:
            return
        try:
            await ws.send_str(text)
        except (ConnectionError, RuntimeError):  # closing: a dispatch is kept for the resume
            pass

    async def _emit(self, session: GatewaySession, event: str, data: Any) -> int:
        """Send a DISPATCH on the session (the caller holds its lock); kept for a resume."""
        session.seq += 1
        frame = json.dumps({"op": 0, "d": data, "s": session.seq, "t": event})
        if event not in ("READY", "RESUMED"):
            session.sent.append((session.seq, frame))
        if session.live.is_set():
            await self._send_text(session.ws, frame)
        return session.seq

    async def _send_event(self, session: GatewaySession, event: str, data: Any) -> int:
        async with session.lock:
            return await self._emit(session, event, data)

    # --- the websocket --------------------------------------------------------------------------
    async def _ws_handler(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.add(ws)
        session: GatewaySession | None = None
        frames = 0
        try:
            await self._send_text(ws, json.dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS,
                                                                  "_trace": ["standin"]}, "s": None, "t": None}))
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                self.gateway_received.append(data)
                frames += 1
                op = data.get("op")
                if op == 1:
                    if session is not None:
                        self._heartbeat(session, data.get("d"))
                    await self._send_text(ws, '{"op": 11, "d": null, "s": null, "t": null}')
                elif op == 2:
                    session = await self._identify(ws, data.get("d") or {})
                elif op == 6:
                    session = await self._resume(ws, data.get("d") or {})
                elif op == 8 and session is not None:
                    d = data.get("d") or {}
                    g = self.guilds.get(int(d.get("guild_id", 0)))
                    await self._send_event(session, "GUILD_MEMBERS_CHUNK", {
                        "guild_id": d.get("guild_id"), "members": list(g.members.values()) if g else [],
                        "chunk_index": 0, "chunk_count": 1, "not_found": [], "nonce": d.get("nonce")})
                if session is not None:
                    session.frames = frames  # each is one of the sends discord.py allows itself a minute
        finally:
            self._sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
                session.live.clear()
                session.probe = None
                if not session.rotating:  # a bot closing (discord.py closes with 4000 too): no resume
                    session.ended = True
                    session.closed.set()
                    self.sessions.pop(session.id, None)
                session.wake()
        return ws

    def _heartbeat(self, session: GatewaySession, d: Any) -> None:
        if isinstance(d, int):
            session.acked = max(session.acked, d)
            if session.probe is not None and d >= session.probe:
                session.probe = None
            session.wake()

    async def _identify(self, ws: web.WebSocketResponse, identify: dict) -> GatewaySession | None:
        shard = identify.get("shard")
        if shard is not None:
            sid, count = int(shard[0]), int(shard[1])
            if not 0 <= sid < count:
                await ws.close(code=4010, message=b"Invalid shard.")
                return None
        session = GatewaySession(f"standin-session-{self.snowflake()}", (int(shard[0]), int(shard[1])) if shard else None,
                                 identify.get("token"))
        async with session.lock:
            self.sessions[session.id] = session
            session.ws = ws
            session.live.set()
            mine = [g for g in self.guilds.values() if self._serves(session, g.id)]
            ready = {
                "v": 10,
                "user": self.bot_user,
                "guilds": [{"id": str(g.id), "unavailable": True} for g in mine],
                "session_id": session.id,
                "resume_gateway_url": self.gateway_url,
                "session_type": "normal",
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "user_settings": {},
                "geo_ordered_rtc_regions": ["standin"],
                "_trace": ["standin"],
            }
            if session.shard is not None:
                ready["shard"] = list(session.shard)
            await self._emit(session, "READY", ready)
            for g in mine:
                await self._emit(session, "GUILD_CREATE", g.create_payload())
        self.identified.set()
        session.wake()
        return session

    async def _resume(self, ws: web.WebSocketResponse, resume: dict) -> GatewaySession | None:
        session = self.sessions.get(resume.get("session_id") or "")
        if session is None or session.ended:
            await self._send_text(ws, '{"op": 9, "d": false, "s": null, "t": null}')  # Invalid Session: identify anew
            return None
        after = int(resume.get("seq") or 0)
        async with session.lock:
            session.ws = ws
            session.rotating = False
            session.acked = max(session.acked, after)
            session.live.set()
            for seq, frame in list(session.sent):
                if seq > after:
                    await self._send_text(ws, frame)
            await self._emit(session, "RESUMED", {"_trace": ["standin"]})
        session.wake()
        return session

    async def _rotate(self, session: GatewaySession, deadline: float) -> None:
        """Ask the bot to reconnect (before discord.py's own gateway send limit holds it back) and
        wait until it has resumed on a new connection."""
        async with session.lock:
            if not session.live.is_set():
                return
            session.live.clear()
            session.rotating = True
            await self._send_text(session.ws, '{"op": 7, "d": null, "s": null, "t": null}')
        remaining = deadline - asyncio.get_running_loop().time()
        try:
            await asyncio.wait_for(session.live.wait(), max(remaining, 0.001))
        except asyncio.TimeoutError:
            raise StandInError(f"the bot of {session!r} was asked to reconnect and never resumed") from None

    # --- dispatching ----------------------------------------------------------------------------
    async def _wait_parsed(self, session: GatewaySession, seq: int, deadline: float) -> None:
        """Until the session's bot has read and parsed event ``seq`` (a heartbeat request answered)."""
        loop = asyncio.get_running_loop()
        while session.acked < seq:
            if session.ended:  # the bot closed its connection first: the event is lost, as on Discord
                return
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise StandInError(f"the bot of {session!r} never read gateway event {seq}")
            if session.frames >= ROTATE_AFTER and session.live.is_set() and session.probe is None:
                await self._rotate(session, deadline)  # before discord.py's own send limit holds it back
                continue
            fut: asyncio.Future[None] = loop.create_future()
            session.waiters.append(fut)
            async with session.lock:  # one heartbeat request in flight at a time (each answer is a send of
                if session.live.is_set() and session.probe is None:  # the bot's): the next covers what came since
                    session.probe = session.seq
                    await self._send_text(session.ws, '{"op": 1, "d": null, "s": null, "t": null}')
            try:
                await asyncio.wait_for(fut, remaining)
            except asyncio.TimeoutError:
                raise StandInError(f"the bot of {session!r} never read gateway event {seq}") from None
        if session.frames >= ROTATE_AFTER and session.live.is_set():
            await self._rotate(session, deadline)

    async def gateway_dispatch(self, event: str, data: dict, *, shard: int | None = None, parsed: bool = True,
                               timeout: float = SAFETY_TIMEOUT) -> list[tuple[GatewaySession, int]]:
        """Send a DISPATCH (op 0) event to the connected bots that would get it from Discord: an
        unsharded session gets everything, a shard its guilds' events (DMs: shard 0). ``shard`` sends
        it to that shard's sessions instead, whatever the guild (for tests of several bot processes).
        Returns once every bot it went to has parsed it (``parsed=False``: once sent); the sessions
        it went to, each with the event's sequence number there."""
        sessions = [s for s in self.sessions.values() if not s.ended]
        if not sessions:
            raise StandInError("no bot is connected to the stand-in gateway")
        if shard is None:
            targets = [s for s in sessions if self._serves(s, data.get("guild_id"))]
        else:
            targets = [s for s in sessions if s.shard is not None and s.shard[0] == shard]
        reachable = [s for s in targets if s.live.is_set() or s.rotating]
        if not reachable:
            raise StandInError(f"no connected shard serves {event} for guild {data.get('guild_id')} (shard={shard})")
        sent = [(s, await self._send_event(s, event, data)) for s in targets]
        if parsed:
            deadline = asyncio.get_running_loop().time() + timeout
            await asyncio.gather(*(self._wait_parsed(s, seq, deadline) for s, seq in sent if s in reachable))
        return [(s, seq) for s, seq in sent if s in reachable]
