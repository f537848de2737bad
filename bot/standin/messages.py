"""The bot's messages as the stand-in keeps them: built from a request body and checked against
Discord's limits, edited, deleted, and every version of everything shown kept in order."""

from __future__ import annotations

import copy
import re
from typing import Any

from aiohttp import web

from bot.standin.records import (
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    InteractionResult,
    Request,
    Shown,
    StandInError,
    UploadedFile,
    _error,
    _now_iso,
    _wire,
    walk_components,
)

_MENTION_RE = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION_RE = re.compile(r"<@&(\d+)>")


def _validate_components(components: list[dict], v2: bool) -> list[str]:
    errs: list[str] = []
    seen: set[str] = set()
    allc = list(walk_components(components))
    if not v2:
        if len(components) > 5:
            errs.append(f"{len(components)} action rows (max 5)")
        for row in components:
            if row.get("type") != 1:
                errs.append(f"top-level component type {row.get('type')} needs the components-v2 flag")
                continue
            kids = row.get("components", [])
            if not kids:
                errs.append("empty action row")
            if any(k.get("type") in (3, 5, 6, 7, 8) for k in kids) and len(kids) > 1:
                errs.append("a select must be alone in its action row")
            if len(kids) > 5:
                errs.append(f"{len(kids)} components in an action row (max 5)")
    elif len(allc) > 40:
        errs.append(f"{len(allc)} components (max 40)")
    for c in allc:
        cid = c.get("custom_id")
        if cid is not None:
            if not 1 <= len(cid) <= 100:
                errs.append(f"custom_id {cid!r} must be 1-100 characters")
            if cid in seen:
                errs.append(f"duplicate custom_id {cid!r}")
            seen.add(cid)
        if c.get("type") == 2:
            style = c.get("style")
            if style == 5:
                if not c.get("url") or cid:
                    errs.append("a link button needs url and no custom_id")
            elif style != 6 and not cid:
                errs.append(f"button {c.get('label')!r} has no custom_id")
            if not c.get("label") and not c.get("emoji"):
                errs.append("a button needs a label or an emoji")
            if len(c.get("label") or "") > 80:
                errs.append(f"button label {c.get('label')!r} longer than 80")
        if c.get("type") == 3:
            opts = c.get("options", [])
            if not 1 <= len(opts) <= 25:
                errs.append(f"select {cid!r} has {len(opts)} options (1-25)")
            values = [o.get("value") for o in opts]
            if len(set(values)) != len(values):
                errs.append(f"select {cid!r} has duplicate option values")
            for o in opts:
                if not 1 <= len(o.get("label") or "") <= 100 or not 1 <= len(o.get("value") or "") <= 100:
                    errs.append(f"select {cid!r} option {o!r}: label/value must be 1-100 characters")
                if len(o.get("description") or "") > 100:
                    errs.append(f"select {cid!r} option description longer than 100")
        if len(c.get("placeholder") or "") > 150:
            errs.append("placeholder longer than 150")
    return errs


def _validate_embeds(embeds: list[dict]) -> list[str]:
    errs: list[str] = []
    if len(embeds) > 10:
        errs.append(f"{len(embeds)} embeds (max 10)")
    total = 0
    for e in embeds:
        for k, lim in (("title", 256), ("description", 4096)):
            n = len(e.get(k) or "")
            total += n
            if n > lim:
                errs.append(f"embed {k} is {n} characters (max {lim})")
        fields = e.get("fields") or []
        if len(fields) > 25:
            errs.append(f"{len(fields)} embed fields (max 25)")
        for f in fields:
            if not f.get("name") or not f.get("value"):
                errs.append(f"embed field {f!r} needs a non-empty name and value")
            if len(f.get("name") or "") > 256 or len(f.get("value") or "") > 1024:
                errs.append(f"embed field {f.get('name')!r} too long (name 256, value 1024)")
            total += len(f.get("name") or "") + len(f.get("value") or "")
        ft = len((e.get("footer") or {}).get("text") or "")
        au = len((e.get("author") or {}).get("name") or "")
        if ft > 2048 or au > 256:
            errs.append("embed footer (2048) or author name (256) too long")
        total += ft + au
    if total > 6000:
        errs.append(f"embeds total {total} characters (max 6000)")
    return errs


def _validate_message(msg: dict) -> list[str]:
    """What Discord would refuse in this message (400), as sentences; empty when it is fine."""
    content = msg.get("content") or ""
    embeds = msg.get("embeds") or []
    flags = int(msg.get("flags") or 0)
    v2 = bool(flags & IS_COMPONENTS_V2)
    errs: list[str] = []
    if len(content) > 2000:
        errs.append(f"content is {len(content)} characters (max 2000)")
    errs += _validate_embeds(embeds)
    if v2 and (content or embeds):
        errs.append("a components-v2 message cannot have content or embeds")
    errs += _validate_components(msg.get("components") or [], v2)
    if not (flags & LOADING) and not (
        content or embeds or msg.get("components") or msg.get("attachments") or msg.get("poll") or msg.get("sticker_ids")
    ):
        errs.append("Cannot send an empty message")
    return errs


def _invalid(errs: list[str]) -> web.Response:
    code = 50006 if errs == ["Cannot send an empty message"] else 50035
    msg = "; ".join(errs)
    return _error(400, code, msg, {"_errors": [{"code": "STANDIN_INVALID", "message": e} for e in errs]})


class MessageStore:
    """The messages, attachments and history of :class:`DiscordStandIn` (a part of it)."""

    port: int | None
    application_id: int
    bot_user: dict
    users: dict[int, dict]
    channels: dict[int, dict]
    messages: dict[int, dict]
    deleted_messages: dict[int, dict]
    attachments: dict[int, UploadedFile]
    shown: list[Shown]
    versions: dict[int, list[Shown]]

    # --- reading what the bot posted ------------------------------------------------------------
    def channel_messages(self, channel_id: int | str, *, include_ephemeral: bool = True) -> list[dict]:
        """Messages the bot posted in a channel (oldest first), with content, embeds, allowed_mentions..."""
        cid = str(channel_id)
        out = [m for m in self.messages.values() if m["channel_id"] == cid]
        if not include_ephemeral:
            out = [m for m in out if not m["ephemeral"]]
        return sorted(out, key=lambda m: int(m["id"]))

    def files(self, message_id: int) -> list[UploadedFile]:
        msg = self.messages.get(message_id) or self.deleted_messages.get(message_id)
        if msg is None:
            raise StandInError(f"no message {message_id}")
        return [self.attachments[int(a["id"])] for a in msg["attachments"]]

    @staticmethod
    def message_text(msg: dict) -> str:
        parts = [msg.get("content") or ""]
        for e in msg.get("embeds") or []:
            parts += [e.get("title") or "", e.get("description") or ""]
            for f in e.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((e.get("footer") or {}).get("text") or "")
            parts.append((e.get("author") or {}).get("name") or "")
        for c in walk_components(msg.get("components")):
            if c.get("type") == 10:
                parts.append(c.get("content") or "")
        return "\n".join(p for p in parts if p)

    @staticmethod
    def pinged_user_ids(msg: dict) -> list[int]:
        """Users this message actually notifies (mentions in content, filtered by allowed_mentions)."""
        return [int(u["id"]) for u in msg.get("mentions", [])]

    def buttons(self, message_id: int) -> list[tuple[str | None, str | None, bool]]:
        """(custom_id, label, disabled) of every button on a stored message."""
        msg = self._message(message_id)
        return [
            (c.get("custom_id"), c.get("label"), bool(c.get("disabled")))
            for c in walk_components(msg["components"])
            if c.get("type") == 2
        ]

    def find_button(self, message_id: int, label_substring: str) -> str:
        """custom_id of the first button on the message whose label contains label_substring."""
        btns = self.buttons(message_id)
        for cid, label, _ in btns:
            if label and label_substring in label and cid:
                return cid
        raise StandInError(f"no button labelled ~{label_substring!r} on message {message_id}; buttons: {btns}")

    def select_options(self, message_id: int, custom_id: str) -> list[tuple[str, str]]:
        """(value, label) of the string select custom_id on a stored message."""
        comp = self._component(self._message(message_id), custom_id)
        return [(o["value"], o["label"]) for o in comp.get("options", [])]

    def _message(self, message_id: int | str) -> dict:
        msg = self.messages.get(int(message_id))
        if msg is None:
            gone = " (it was deleted)" if int(message_id) in self.deleted_messages else ""
            raise StandInError(f"the bot has no message {message_id}{gone}")
        return msg

    @staticmethod
    def _component(msg: dict, custom_id: str) -> dict:
        for c in walk_components(msg["components"]):
            if c.get("custom_id") == custom_id:
                return c
        ids = [c.get("custom_id") for c in walk_components(msg["components"]) if c.get("custom_id")]
        raise StandInError(f"message {msg['id']} has no component {custom_id!r}; it has {ids}")

    # --- history: every version of everything shown ----------------------------------------------
    def reader_of(self, msg: dict) -> int | None:
        """Who may read a message: the user of an ephemeral one, the recipient of a DM, else None (all)."""
        if msg.get("ephemeral") or int(msg.get("flags") or 0) & EPHEMERAL:
            owner = msg.get("_owner_id")
            return int(owner) if owner is not None else None
        ch = self.channels.get(int(msg["channel_id"]))
        if ch is not None and ch.get("type") == 1:
            return int(ch["recipients"][0]["id"])
        return None

    def _record(self, kind: str, how: str, payload: dict, *, reader: int | None, message_id: int | None = None,
                channel_id: int | None = None, interaction: InteractionResult | None = None,
                files: list[UploadedFile] | None = None) -> Shown:
        version = len(self.versions.get(message_id, ())) if message_id is not None else 0
        item = Shown(len(self.shown), kind, how, reader, copy.deepcopy(payload), message_id, channel_id, version,
                     interaction.user_id if interaction is not None else None, list(files or ()))
        self.shown.append(item)
        if message_id is not None:
            self.versions.setdefault(message_id, []).append(item)
        return item

    def _record_message(self, msg: dict, how: str, interaction: InteractionResult | None = None) -> None:
        files = [self.attachments[int(a["id"])] for a in msg.get("attachments") or [] if int(a["id"]) in self.attachments]
        self._record("message", how, _wire(msg), reader=self.reader_of(msg), message_id=int(msg["id"]),
                     channel_id=int(msg["channel_id"]), interaction=interaction, files=files)

    def message_versions(self, message_id: int | str) -> list[Shown]:
        """Every version of a message (its creation, then one per edit), oldest first; deleted ones too."""
        return list(self.versions.get(int(message_id), ()))

    def shown_since(self, mark: int) -> list[Shown]:
        """What the bot showed after ``mark`` (a length of ``self.shown`` taken earlier)."""
        return self.shown[mark:]

    # --- attachments (the CDN) -----------------------------------------------------------------
    def _attachment_url(self, snow: int, filename: str) -> str:
        return f"http://127.0.0.1:{self.port}/attachments/{snow}/{filename}"  # served by the REST routes, as a CDN

    def upload(self, filename: str, data: bytes, content_type: str = "application/json") -> dict:
        """A file a user attaches to a slash command's attachment option (pass the dict as its value)."""
        snow = self.snowflake()
        self.attachments[snow] = UploadedFile(filename, data, content_type, None)
        url = self._attachment_url(snow, filename)
        return {"id": str(snow), "filename": filename, "size": len(data), "url": url, "proxy_url": url,
                "content_type": content_type}

    # --- building and editing -------------------------------------------------------------------
    def _mentions(self, content: str, allowed: dict | None) -> tuple[list[dict], list[str], bool]:
        ids = [int(x) for x in _MENTION_RE.findall(content or "")]
        role_ids = _ROLE_MENTION_RE.findall(content or "")
        everyone = "@everyone" in (content or "") or "@here" in (content or "")
        if allowed is not None:
            parse = allowed.get("parse", [])
            if "users" not in parse:
                ok = {int(u) for u in allowed.get("users", [])}
                ids = [i for i in ids if i in ok]
            if "roles" not in parse:
                okr = {str(r) for r in allowed.get("roles", [])}
                role_ids = [r for r in role_ids if r in okr]
            if "everyone" not in parse:
                everyone = False
        users = []
        for i in dict.fromkeys(ids):
            users.append(self.users.get(i) or {"id": str(i), "username": f"user{i}", "discriminator": "0",
                                                "avatar": None, "global_name": None, "public_flags": 0})
        return users, role_ids, everyone

    def _attachments_from(self, rec: Request, body: dict, existing: list[dict]) -> list[dict] | str:
        by_field = {f.field: f for f in rec.files}
        new: list[dict] = []
        wanted = body.get("attachments")
        if wanted is None:
            new = list(existing)
            wanted = [{"id": i} for i in range(len(rec.files))] if rec.files else []
        old = {a["id"]: a for a in existing}
        for a in wanted:
            aid = str(a.get("id"))
            if aid in old:
                if old[aid] not in new:
                    new.append(old[aid])
                continue
            f = by_field.get(f"files[{aid}]")
            if f is None:
                return f"attachment {a!r} refers to no uploaded file"
            snow = self.snowflake()
            filename = a.get("filename") or f.filename
            self.attachments[snow] = UploadedFile(filename, f.data, f.content_type, f.field)
            url = self._attachment_url(snow, filename)
            new.append({"id": str(snow), "filename": filename, "size": len(f.data), "url": url, "proxy_url": url,
                        "content_type": f.content_type, "description": a.get("description")})
        return new

    def _build_message(
        self,
        rec: Request,
        body: dict,
        channel_id: int,
        *,
        type_: int = 0,
        interaction: InteractionResult | None = None,
        extra_flags: int = 0,
        how: str = "send",
    ) -> dict | web.Response:
        body = body or {}
        ch = self.channels.get(channel_id)
        atts = self._attachments_from(rec, body, [])
        if isinstance(atts, str):
            return _invalid([atts])
        flags = int(body.get("flags") or 0) | extra_flags
        content = body.get("content") or ""
        allowed = body.get("allowed_mentions")
        mentions, roles, everyone = self._mentions(content, allowed)
        mid = self.snowflake()
        msg: dict[str, Any] = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "author": self.bot_user,
            "content": content,
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "attachments": atts,
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "type": type_,
            "flags": flags,
            "mentions": mentions,
            "mention_roles": roles,
            "mention_everyone": everyone,
            "pinned": False,
            "tts": bool(body.get("tts")),
            "allowed_mentions": allowed,
            "ephemeral": bool(flags & EPHEMERAL),
        }
        if body.get("poll"):
            msg["poll"] = body["poll"]
        if ch is not None and ch.get("guild_id"):
            msg["guild_id"] = ch["guild_id"]
        if body.get("message_reference"):
            ref = dict(body["message_reference"])
            ref.setdefault("channel_id", str(channel_id))
            msg["message_reference"] = ref
            msg["type"] = 19
        if interaction is not None:
            msg["webhook_id"] = str(self.application_id)
            msg["application_id"] = str(self.application_id)
            meta: dict[str, Any] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": (interaction.payload.get("member") or {}).get("user") or interaction.payload.get("user"),
                "authorizing_integration_owners": interaction.payload.get("authorizing_integration_owners", {}),
            }
            if interaction.type == 2:
                meta["name"] = interaction.payload["data"]["name"]
                meta["command_type"] = 1
            if interaction.source_message_id is not None:
                meta["interacted_message_id"] = str(interaction.source_message_id)
            msg["interaction_metadata"] = meta
            msg["_token"] = interaction.token
            if msg["ephemeral"]:
                msg["_owner_id"] = interaction.user_id
        errs = _validate_message(msg)
        if errs:
            return _invalid(errs)
        self.messages[mid] = msg
        if ch is not None:
            ch["last_message_id"] = str(mid)
        self._record_message(msg, how, interaction)
        return msg

    def _apply_edit(self, rec: Request, msg: dict, body: dict, *, how: str = "edit",
                    interaction: InteractionResult | None = None) -> dict | web.Response:
        body = body or {}
        new = dict(msg)
        for key, empty in (("content", ""), ("embeds", []), ("components", []), ("poll", None)):
            if key in body:
                new[key] = body[key] if body[key] is not None else empty
        if "allowed_mentions" in body:
            new["allowed_mentions"] = body["allowed_mentions"]
        if "flags" in body and body["flags"] is not None:
            keep = msg["flags"] & (EPHEMERAL | IS_COMPONENTS_V2)
            new["flags"] = (int(body["flags"]) | keep) & ~LOADING
        else:
            new["flags"] = msg["flags"] & ~LOADING
        if "attachments" in body or rec.files:
            atts = self._attachments_from(rec, body, msg["attachments"])
            if isinstance(atts, str):
                return _invalid([atts])
            new["attachments"] = atts
        new["mentions"], new["mention_roles"], new["mention_everyone"] = self._mentions(
            new["content"], new.get("allowed_mentions")
        )
        new["edited_timestamp"] = _now_iso()
        errs = _validate_message(new)
        if errs:
            return _invalid(errs)
        msg.clear()
        msg.update(new)
        self._record_message(msg, how, interaction)
        return msg

    def _delete(self, mid: int) -> None:
        self.deleted_messages[mid] = self.messages.pop(mid)
