"""The REST half of the stand-in (``/api/v10``): the routes discord.py's documented road uses, each
answered with the JSON Discord sends — and refused where Discord refuses: 400 for what it would
not accept, 401 for a reset token, 403 Missing Access on a private channel the bot is not in, 429
with ``retry_after`` for a route told to be rate limited, 40060 for a second answer to one
interaction. Every request is recorded; a route the stand-in lacks is a 404 the test fails on."""

from __future__ import annotations

import asyncio
import json
import re
import time
from typing import Any, Callable

from aiohttp import web

from bot.standin.fakes import FakeGuild
from bot.standin.messages import _invalid
from bot.standin.records import (
    EPHEMERAL,
    LOADING,
    InteractionResult,
    Request,
    UploadedFile,
    _error,
    _json_response,
    _now_iso,
    _wire,
    walk_components,
)

_S = r"(\d+)"
_T = r"([^/]+)"


class RestRoutes:
    """The REST API of :class:`DiscordStandIn` (a part of it)."""

    application_id: int
    bot_user: dict
    owner: dict
    users: dict[int, dict]
    guilds: dict[int, FakeGuild]
    channels: dict[int, dict]
    private_channels: set[int]
    messages: dict[int, dict]
    attachments: dict[int, UploadedFile]
    commands: dict[int | None, list[dict]]
    command_puts: list[tuple[int | None, list[dict]]]
    modals: list[dict]
    interactions: dict[str, InteractionResult]
    requests: list[Request]
    request_count: int
    unhandled: list[Request]
    rejected: list[tuple[Request, str]]
    rate_limited: list[Request]
    refused_tokens: set[str]
    latency: float
    _rate_limits: list[dict]
    _drops: list[dict]
    _routes: list[tuple[str, re.Pattern[str], Callable[..., Any]]]

    def _setup_routes(self) -> None:
        S, T = _S, _T
        r = self._routes
        add = lambda m, p, h: r.append((m, re.compile("^" + p + "$"), h))  # noqa: E731
        add("GET", "/users/@me", self._get_me)
        add("GET", f"/users/{S}", self._get_user)
        add("GET", "/oauth2/applications/@me", self._get_application)
        add("GET", "/applications/@me", self._get_application)
        add("GET", "/gateway", self._get_gateway)
        add("GET", "/gateway/bot", self._get_gateway_bot)
        add("POST", f"/interactions/{S}/{T}/callback", self._interaction_callback)
        add("GET", f"/webhooks/{S}/{T}/messages/@original", self._webhook_get)
        add("PATCH", f"/webhooks/{S}/{T}/messages/@original", self._webhook_edit)
        add("DELETE", f"/webhooks/{S}/{T}/messages/@original", self._webhook_delete)
        add("GET", f"/webhooks/{S}/{T}/messages/{S}", self._webhook_get)
        add("PATCH", f"/webhooks/{S}/{T}/messages/{S}", self._webhook_edit)
        add("DELETE", f"/webhooks/{S}/{T}/messages/{S}", self._webhook_delete)
        add("POST", f"/webhooks/{S}/{T}", self._webhook_followup)
        add("POST", f"/channels/{S}/messages", self._channel_send)
        add("GET", f"/channels/{S}/messages/{S}", self._channel_get_message)
        add("PATCH", f"/channels/{S}/messages/{S}", self._channel_edit_message)
        add("DELETE", f"/channels/{S}/messages/{S}", self._channel_delete_message)
        add("POST", f"/channels/{S}/typing", self._typing)
        add("GET", f"/channels/{S}", self._get_channel)
        add("POST", "/users/@me/channels", self._create_dm)
        add("POST", f"/channels/{S}/threads", self._create_thread)
        add("POST", f"/channels/{S}/messages/{S}/threads", self._create_thread_from_message)
        add("PUT", f"/applications/{S}/commands", self._put_commands)
        add("GET", f"/applications/{S}/commands", self._get_commands)
        add("PUT", f"/applications/{S}/guilds/{S}/commands", self._put_commands)
        add("GET", f"/applications/{S}/guilds/{S}/commands", self._get_commands)
        add("GET", f"/attachments/{S}/{T}", self._get_attachment)

    def rate_limit(self, path: str, *, method: str | None = None, times: int = 1, retry_after: float = 0.05,
                   is_global: bool = False) -> None:
        """The next ``times`` requests whose path (under /api/v10) fully matches the regular
        expression ``path`` (and ``method``, if given) are answered 429 as Discord answers: a
        ``retry_after`` in the body and ``X-RateLimit-*`` headers (discord.py waits and sends again)."""
        self._rate_limits.append({"path": re.compile(path), "method": method, "left": times,
                                  "retry_after": retry_after, "global": is_global})

    def drop_connection(self, path: str, *, method: str | None = None, times: int = 1) -> None:
        """The next ``times`` requests whose path fully matches ``path`` (and ``method``) get no answer:
        the connection is closed under them, as a network fault or a proxy restarting does."""
        self._drops.append({"path": re.compile(path), "method": method, "left": times})

    def _dropped(self, rec: Request) -> bool:
        for rule in self._drops:
            if rule["left"] > 0 and rule["method"] in (None, rec.method) and rule["path"].fullmatch(rec.path):
                rule["left"] -= 1
                return True
        return False

    def _limited(self, rec: Request) -> web.Response | None:
        for rule in self._rate_limits:
            if rule["left"] > 0 and rule["method"] in (None, rec.method) and rule["path"].fullmatch(rec.path):
                rule["left"] -= 1
                self.rate_limited.append(rec)
                after = rule["retry_after"]
                headers = {"Via": "1.1 google", "Retry-After": str(max(1, round(after))),
                           "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                           "X-RateLimit-Reset": f"{time.time() + after:.3f}", "X-RateLimit-Reset-After": f"{after:.3f}",
                           "X-RateLimit-Bucket": f"standin-{abs(hash(rule['path'].pattern)) % 10**8}",
                           "X-RateLimit-Scope": "global" if rule["global"] else "user"}
                if rule["global"]:
                    headers["X-RateLimit-Global"] = "true"
                body = {"message": "You are being rate limited.", "retry_after": after, "global": rule["global"],
                        "code": 0}
                return _json_response(body, 429, headers)
        return None

    async def _rest_handler(self, request: web.Request) -> web.StreamResponse:
        arrived = time.monotonic()
        path = request.path
        if path.startswith("/api/v10"):
            path = path[len("/api/v10") :]
        body: Any = None
        files: list[UploadedFile] = []
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/form-data"):
            reader = await request.multipart()
            async for part in reader:
                data = await part.read()  # type: ignore[union-attr]
                if part.name == "payload_json":
                    body = json.loads(data)
                else:
                    files.append(UploadedFile(part.filename or "", bytes(data), part.headers.get("Content-Type"),  # type: ignore[union-attr]
                                              part.name))
        elif request.can_read_body:
            raw = await request.read()
            if raw:
                body = json.loads(raw)
        rec = Request(request.method, path, dict(request.query), body, files, auth=request.headers.get("Authorization"),
                      arrived=arrived)
        self.requests.append(rec)
        self.request_count += 1
        if self.latency and request.method != "GET":
            await asyncio.sleep(self.latency)  # Discord answers from across the network
        if rec.auth and rec.auth.removeprefix("Bot ").strip() in self.refused_tokens:
            rec.status = 401
            return _error(401, 0, "401: Unauthorized")
        if self._dropped(rec):
            rec.status = 0  # no answer: the connection closed under the request
            if request.transport is not None:
                request.transport.close()
            return web.Response(status=500)  # never sent: the connection is gone
        limited = self._limited(rec)
        if limited is not None:
            rec.status = 429
            return limited
        for method, pattern, handler in self._routes:
            if method == request.method and (m := pattern.match(path)):
                resp = await handler(rec, *m.groups())
                rec.status = resp.status
                if resp.status == 400:
                    try:
                        why = json.loads(resp.body)["message"]  # type: ignore[arg-type]
                    except Exception:  # pragma: no cover
                        why = "?"
                    self.rejected.append((rec, why))
                return resp
        self.unhandled.append(rec)
        rec.status = 404
        return _error(404, 0, f"Discord stand-in: unhandled route {request.method} {path}")

    async def _get_attachment(self, rec: Request, aid: str, filename: str) -> web.Response:
        f = self.attachments.get(int(aid))
        if f is None or f.filename != filename:
            return _error(404, 0, "404: Unknown attachment")
        return web.Response(body=f.data, content_type=f.content_type or "application/octet-stream")

    # --- identity -------------------------------------------------------------------------------
    async def _get_me(self, rec: Request) -> web.Response:
        return _json_response(self.bot_user)

    async def _get_user(self, rec: Request, uid: str) -> web.Response:
        u = self.users.get(int(uid))
        return _json_response(u) if u else _error(404, 10013, "Unknown User")

    async def _get_application(self, rec: Request) -> web.Response:
        return _json_response({
            "id": str(self.application_id), "name": self.bot_user["username"], "icon": None, "description": "",
            "summary": "", "type": None, "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False,
            "verify_key": "0" * 64, "flags": 0, "owner": self.owner, "team": None, "bot": self.bot_user, "tags": [],
            "redirect_uris": [], "interactions_endpoint_url": None, "integration_types_config": {"0": {}, "1": {}},
            "approximate_guild_count": len(self.guilds),
        })

    async def _get_gateway(self, rec: Request) -> web.Response:
        return _json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, rec: Request) -> web.Response:
        return _json_response({
            "url": self.gateway_url, "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        })

    # --- interactions ---------------------------------------------------------------------------
    async def _interaction_callback(self, rec: Request, iid: str, token: str) -> web.Response:
        ix = self.interactions.get(token)
        if ix is None or ix.id != int(iid):
            return _error(404, 10062, "Unknown interaction")
        if ix.callbacks:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        body = rec.json or {}
        ctype = body.get("type")
        data = body.get("data")
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}.get(ix.type, set())
        if ctype in (6, 7) and ix.source_message_id is None:
            allowed = allowed - {6, 7}
        if ctype not in allowed:
            return _invalid([f"callback type {ctype} is not valid for interaction type {ix.type}"])
        message: dict | None = None
        if ctype in (4, 5):
            body_ = (data or {}) if ctype == 4 else {"flags": int((data or {}).get("flags") or 0) & EPHEMERAL}
            built = self._build_message(rec, body_, ix.channel_id, type_=20 if ix.type == 2 else 0, interaction=ix,
                                        extra_flags=LOADING if ctype == 5 else 0,
                                        how="response" if ctype == 4 else "deferred")
            if isinstance(built, web.Response):
                return built
            message = built
            ix.original_message_id = int(message["id"])
        elif ctype in (6, 7):
            ix.original_message_id = ix.source_message_id
            if ctype == 7:
                src = self.messages.get(ix.source_message_id)  # type: ignore[arg-type]
                if src is None:
                    return _error(404, 10008, "Unknown Message")
                edited = self._apply_edit(rec, src, data or {}, how="update", interaction=ix)
                if isinstance(edited, web.Response):
                    return edited
                message = edited
        elif ctype == 8:
            refused = self._autocomplete_answer(ix, data or {})
            if refused is not None:
                return refused
        elif ctype == 9:
            refused = self._modal_shown(ix, token, data or {})
            if refused is not None:
                return refused
        ix.callbacks.append({"type": ctype, "data": data, "files": list(rec.files)})
        ix.answered_event.set()
        if rec.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)
        resp: dict[str, Any] = {
            "interaction": {
                "id": str(ix.id),
                "type": ix.type,
                "response_message_loading": ctype == 5,
                "response_message_ephemeral": bool(message and message["flags"] & EPHEMERAL),
            }
        }
        if message is not None:
            resp["interaction"]["response_message_id"] = message["id"]
            resp["resource"] = {"type": ctype, "message": _wire(message)}
        return _json_response(resp)

    def _autocomplete_answer(self, ix: InteractionResult, data: dict) -> web.Response | None:
        choices = data.get("choices", [])
        errs = []
        if len(choices) > 25:
            errs.append(f"{len(choices)} autocomplete choices (max 25)")
        for c in choices:
            if not 1 <= len(c.get("name") or "") <= 100:
                errs.append(f"choice name {c.get('name')!r} must be 1-100 characters")
            if isinstance(c.get("value"), str) and len(c["value"]) > 100:
                errs.append(f"choice value {c['value']!r} longer than 100")
        if errs:
            return _invalid(errs)
        self._record("autocomplete", "autocomplete", {"choices": choices}, reader=ix.user_id,
                     channel_id=ix.channel_id, interaction=ix)
        return None

    def _modal_shown(self, ix: InteractionResult, token: str, data: dict) -> web.Response | None:
        errs = []
        if not 1 <= len(data.get("title") or "") <= 45:
            errs.append("modal title must be 1-45 characters")
        comps = data.get("components") or []
        if not 1 <= len(comps) <= 5:
            errs.append(f"modal has {len(comps)} top-level components (1-5)")
        for c in walk_components(comps):
            if c.get("type") in (4, 18) and len(c.get("label") or "") > 45:
                errs.append(f"{'text input label' if c['type'] == 4 else 'label'} {c.get('label')!r} longer than 45")
        if errs:
            return _invalid(errs)
        self.modals.append({"token": token, "data": data, "user_id": ix.user_id, "payload": ix.payload,
                            "source_message_id": ix.source_message_id, "submitted": False})
        self._record("modal", "modal", data, reader=ix.user_id, channel_id=ix.channel_id, interaction=ix)
        return None

    # --- the interaction's webhook: @original and follow-ups ----------------------------------------
    def _webhook_ix(self, app_id: str, token: str) -> InteractionResult | web.Response:
        ix = self.interactions.get(token)
        if int(app_id) != self.application_id or ix is None:
            return _error(404, 10015, "Unknown Webhook")
        return ix

    def _webhook_target(self, ix: InteractionResult, mid: str | None) -> dict | web.Response:
        if mid is None:
            if ix.original_message_id is None or ix.original_message_id not in self.messages:
                return _error(404, 10008, "Unknown Message")
            return self.messages[ix.original_message_id]
        msg = self.messages.get(int(mid))
        ok = msg is not None and (int(mid) == ix.original_message_id or int(mid) in ix.followup_ids)
        if not ok:
            return _error(404, 10008, "Unknown Message")
        return msg  # type: ignore[return-value]

    async def _webhook_get(self, rec: Request, app_id: str, token: str, mid: str | None = None) -> web.Response:
        ix = self._webhook_ix(app_id, token)
        if isinstance(ix, web.Response):
            return ix
        msg = self._webhook_target(ix, mid)
        return msg if isinstance(msg, web.Response) else _json_response(_wire(msg))

    async def _webhook_edit(self, rec: Request, app_id: str, token: str, mid: str | None = None) -> web.Response:
        ix = self._webhook_ix(app_id, token)
        if isinstance(ix, web.Response):
            return ix
        msg = self._webhook_target(ix, mid)
        if isinstance(msg, web.Response):
            return msg
        edited = self._apply_edit(rec, msg, rec.json or {}, how="webhook-edit", interaction=ix)
        if isinstance(edited, web.Response):
            return edited
        ix.edits.append(rec.json or {})
        return _json_response(_wire(edited))

    async def _webhook_delete(self, rec: Request, app_id: str, token: str, mid: str | None = None) -> web.Response:
        ix = self._webhook_ix(app_id, token)
        if isinstance(ix, web.Response):
            return ix
        msg = self._webhook_target(ix, mid)
        if isinstance(msg, web.Response):
            return msg
        self._delete(int(msg["id"]))
        return web.Response(status=204)

    async def _webhook_followup(self, rec: Request, app_id: str, token: str) -> web.Response:
        ix = self._webhook_ix(app_id, token)
        if isinstance(ix, web.Response):
            return ix
        if not ix.callbacks:
            return _error(404, 10015, "Unknown Webhook")  # no follow-up before the initial response
        body = rec.json or {}
        wait = rec.query.get("wait", "").lower() in ("1", "true")  # else Discord answers 204, no message
        orig = self.messages.get(ix.original_message_id) if ix.original_message_id else None
        if ix.callback_type == 5 and orig is not None and orig["flags"] & LOADING:
            # The first follow-up after a "thinking" defer replaces the loading message.
            body = {k: v for k, v in body.items() if k != "flags"}
            edited = self._apply_edit(rec, orig, body, how="followup", interaction=ix)
            if isinstance(edited, web.Response):
                return edited
            ix.edits.append(body)
            return _json_response(_wire(edited)) if wait else web.Response(status=204)
        built = self._build_message(rec, body, ix.channel_id, interaction=ix, how="followup")
        if isinstance(built, web.Response):
            return built
        ix.followup_ids.append(int(built["id"]))
        return _json_response(_wire(built)) if wait else web.Response(status=204)

    # --- channels -------------------------------------------------------------------------------
    def _channel(self, cid: str) -> dict | web.Response:
        if int(cid) in self.private_channels:
            return _error(403, 50001, "Missing Access")  # a private channel the bot is not in
        ch = self.channels.get(int(cid))
        return ch if ch is not None else _error(404, 10003, "Unknown Channel")

    async def _channel_send(self, rec: Request, cid: str) -> web.Response:
        ch = self._channel(cid)
        if isinstance(ch, web.Response):
            return ch
        body = rec.json or {}
        if int(body.get("flags") or 0) & EPHEMERAL:
            return _invalid(["ephemeral messages can only be sent as interaction responses"])
        built = self._build_message(rec, body, int(cid))
        if isinstance(built, web.Response):
            return built
        return _json_response(_wire(built))

    def _channel_message(self, cid: str, mid: str) -> dict | web.Response:
        if int(cid) in self.private_channels:
            return _error(403, 50001, "Missing Access")
        msg = self.messages.get(int(mid))
        if msg is None or msg["channel_id"] != cid:
            return _error(404, 10008, "Unknown Message")
        return msg

    async def _channel_get_message(self, rec: Request, cid: str, mid: str) -> web.Response:
        msg = self._channel_message(cid, mid)
        return msg if isinstance(msg, web.Response) else _json_response(_wire(msg))

    async def _channel_edit_message(self, rec: Request, cid: str, mid: str) -> web.Response:
        msg = self._channel_message(cid, mid)
        if isinstance(msg, web.Response):
            return msg
        if msg["ephemeral"]:
            return _error(404, 10008, "Unknown Message")  # ephemeral messages only via the interaction webhook
        edited = self._apply_edit(rec, msg, rec.json or {})
        return edited if isinstance(edited, web.Response) else _json_response(_wire(edited))

    async def _channel_delete_message(self, rec: Request, cid: str, mid: str) -> web.Response:
        msg = self._channel_message(cid, mid)
        if isinstance(msg, web.Response):
            return msg
        self._delete(int(mid))
        return web.Response(status=204)

    async def _typing(self, rec: Request, cid: str) -> web.Response:
        ch = self._channel(cid)
        return ch if isinstance(ch, web.Response) else web.Response(status=204)

    async def _get_channel(self, rec: Request, cid: str) -> web.Response:
        ch = self._channel(cid)
        return ch if isinstance(ch, web.Response) else _json_response(ch)

    async def _create_dm(self, rec: Request) -> web.Response:
        rid = int((rec.json or {}).get("recipient_id", 0))
        user = self.users.get(rid)
        if user is None:
            return _error(404, 10013, "Unknown User")
        return _json_response(self.dm_channel(user))

    def _thread(self, parent: dict, name: str, type_: int, tid: int, body: dict) -> dict:
        th = {
            "id": str(tid), "type": type_, "guild_id": parent["guild_id"], "parent_id": parent["id"],
            "owner_id": str(self.application_id), "name": name, "last_message_id": None,
            "rate_limit_per_user": body.get("rate_limit_per_user") or 0, "message_count": 0, "member_count": 1,
            "total_message_sent": 0, "flags": 0,
            "thread_metadata": {
                "archived": False, "auto_archive_duration": body.get("auto_archive_duration") or 1440,
                "archive_timestamp": _now_iso(), "locked": False, "invitable": body.get("invitable", True),
                "create_timestamp": _now_iso(),
            },
            "member": {"id": str(tid), "user_id": str(self.application_id), "join_timestamp": _now_iso(), "flags": 0},
        }
        self.channels[tid] = th
        g = self.guilds.get(int(parent["guild_id"]))
        if g is not None:
            g.channels.append(th)
        return th

    async def _create_thread(self, rec: Request, cid: str) -> web.Response:
        parent = self._channel(cid)
        if isinstance(parent, web.Response):
            return parent
        if not parent.get("guild_id"):
            return _invalid(["threads can only be created in guild channels"])
        body = rec.json or {}
        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            return _invalid(["thread name must be 1-100 characters"])
        return _json_response(self._thread(parent, name, int(body.get("type") or 11), self.snowflake(), body))

    async def _create_thread_from_message(self, rec: Request, cid: str, mid: str) -> web.Response:
        parent = self._channel(cid)
        if isinstance(parent, web.Response):
            return parent
        msg = self._channel_message(cid, mid)
        if isinstance(msg, web.Response):
            return msg
        body = rec.json or {}
        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            return _invalid(["thread name must be 1-100 characters"])
        th = self._thread(parent, name, 11, int(mid), body)
        msg["thread"] = th
        return _json_response(th)

    # --- application commands -------------------------------------------------------------------
    async def _put_commands(self, rec: Request, app_id: str, guild_id: str | None = None) -> web.Response:
        if int(app_id) != self.application_id:
            return _error(403, 50001, "Missing Access")
        gid = int(guild_id) if guild_id else None
        body = rec.json or []
        names = [(c.get("type", 1), c.get("name")) for c in body]
        if len(set(names)) != len(names):
            return _invalid(["duplicate command names"])
        self.command_puts.append((gid, json.loads(json.dumps(body))))
        old = {(c.get("type", 1), c["name"]): c for c in self.commands.get(gid, [])}
        stored = []
        for c in body:
            cmd = json.loads(json.dumps(c))
            prev = old.get((cmd.get("type", 1), cmd["name"]))
            cmd["id"] = prev["id"] if prev else str(self.snowflake())
            cmd["application_id"] = str(self.application_id)
            cmd["version"] = str(self.snowflake())
            cmd.setdefault("type", 1)
            cmd.setdefault("description", "")
            cmd.setdefault("default_member_permissions", None)
            if gid is not None:
                cmd["guild_id"] = str(gid)
            stored.append(cmd)
        self.commands[gid] = stored
        return _json_response(stored)

    async def _get_commands(self, rec: Request, app_id: str, guild_id: str | None = None) -> web.Response:
        gid = int(guild_id) if guild_id else None
        return _json_response(self.commands.get(gid, []))
