"""Helpers for driving Deckhand's tables through the Discord stand-in."""

from __future__ import annotations

import copy
import random
from collections.abc import AsyncIterator
from typing import Any

from bot.i18n import LANGUAGES, words
from bot.engine.registry import spec
from bot.tables.games import load_game


def no_deferral_deadline(bot: Any) -> Any:
    """Make ``bot`` wait for a move however long it takes before answering, instead of deferring
    after DEFER_AFTER seconds of wall clock (Discord's 3 s for a first answer). On a loaded machine
    that deadline changed what a test saw (a deferred update and a follow-up instead of the panel
    edited to "Done."), so a test failed or passed by timing. The deferral itself is tested with the
    deadline at 0 (test_discord_slow). Each bot loads its own copy of the cog's module, so this is
    set after the bot's setup loaded it (the deadlines live in ``bot.ui.play`` and ``bot.ui.replay``)."""
    setup = bot.setup_hook

    async def setup_hook() -> None:
        await setup()
        import bot.ui.play as play
        import bot.ui.replay as replay

        for module in (play, replay):  # the play loop's and the replay viewer's
            assert hasattr(module, "DEFER_AFTER"), f"{module.__name__}'s deferral deadline moved: follow it here"
            module.DEFER_AFTER = 3600.0

    bot.setup_hook = setup_hook
    return bot


def no_pictures(monkeypatch: Any) -> None:
    """Tables and panels without their pictures (each is drawn in another process: a test that
    follows a press's requests in order would see the table's and the panel's race)."""
    from bot.render import pictures

    async def no_picture(game_id: str, view: Any, lang: str = "en") -> None:
        return None

    monkeypatch.setattr(pictures, "table_picture", no_picture)
    monkeypatch.setattr(pictures, "seat_picture", no_picture)


def guild_with(standin, names: Any) -> tuple[Any, list[dict]]:
    """A guild of the stand-in with one member per name (the test's people), and those users."""
    g = standin.guild()
    users = [standin.user(name=x) for x in names]
    for u in users:
        g.add_member(u)
    return g, users


def table_messages(standin, channel_id: int) -> list[dict]:
    """Public messages carrying a table (an embed and Deckhand buttons), oldest first."""
    out = []
    for m in standin.channel_messages(channel_id, include_ephemeral=False):
        if m.get("embeds") and any((cid or "").startswith("dh2:") for cid, _, _ in standin.buttons(int(m["id"]))):
            out.append(m)
    return out


def latest_table(standin, channel_id: int) -> dict:
    msgs = table_messages(standin, channel_id)
    assert msgs, "no table message in the channel"
    return msgs[-1]


def public_posts(standin, channel_id: int) -> list[dict]:
    """Every public message the bot posted in the channel, oldest first."""
    return standin.channel_messages(channel_id, include_ephemeral=False)


def seen(standin, message_id: int) -> dict:
    """A message as a player's client shows it now (to press its buttons after it changed)."""
    return copy.deepcopy(standin._message(message_id))


async def click_seen(standin, bot, shown: dict, custom_id: str, user: dict) -> Any:
    """Press a button of a message as it was ``seen`` earlier: two players pressing the same state at
    once (the second press arrives after the first has edited the message)."""
    comp = standin._component(shown, custom_id)
    assert comp.get("type") == 2 and not comp.get("disabled"), comp
    payload = standin._component_payload(shown, {"custom_id": custom_id, "component_type": 2}, user)
    return await standin.interact(bot, payload)


def parse_cid(custom_id: str) -> tuple[str, int, str, str]:
    """(table, revision, kind, arg) of a Deckhand custom_id."""
    prefix, tid, rev, kind, arg = custom_id.split(":", 4)
    assert prefix == "dh2", custom_id
    return tid, int(rev), kind, arg


def shown_revision(standin, message_id: int) -> int | None:
    """The table revision a table message shows (its table buttons carry it; footers do not)."""
    revs = {parse_cid(c)[1] for c, _, _ in standin.buttons(message_id)
            if (c or "").startswith("dh2:") and parse_cid(c)[2] in ("me", "cc", "sk", "rv", "rm", "ng", "sf")}
    assert len(revs) <= 1, revs
    return next(iter(revs), None)


def components(standin, message_id: int) -> list[dict]:
    msg = standin._message(message_id)
    out = []
    for row in msg.get("components") or []:
        out.extend(row.get("components") or [])
    return out


def step_tokens(bot, arg: str) -> tuple[str, ...]:
    if arg.startswith("~"):
        return bot.service.get_draft(arg[1:])
    return tuple(arg.split())


DONE = tuple(dict.fromkeys(words(lang).t("Done.").rstrip(".") for lang in ("en", *LANGUAGES)))  # "Done", "Hecho"…


def played(res: Any) -> bool:
    """The private panel says a move was made (it may show the seat's next step below that), in any language."""
    return bool(res is not None and res.ephemeral and (res.text or "").startswith(DONE))


async def press_move(standin, bot, channel_id: int, move: str, user: dict) -> Any:
    """Make ``move`` with buttons and pickers only, the way a player would: a button on the table
    when there is one, else the private panel (My hand), then each step's button or select."""
    tokens = tuple(move.split())
    msg = latest_table(standin, channel_id)
    panel_id = int(msg["id"])
    def leads_to_move(c: dict) -> bool:  # a step of the move (a table button may make it whole at once)
        got = step_tokens(bot, parse_cid(c["custom_id"])[3])
        return bool(got) and got == tokens[:len(got)]

    on_table = [c for c in components(standin, panel_id)
                if c.get("custom_id", "").split(":")[3:4] == ["s"] and leads_to_move(c)]
    if not on_table:
        me = next(c["custom_id"] for c in components(standin, panel_id) if parse_cid(c["custom_id"])[2] == "me")
        res = await standin.click(bot, panel_id, me, user=user)
        assert res.ephemeral, "the hand is private"
        panel_id = res.message_id
    res = None
    for _ in range(4 * len(tokens) + 20):
        comps = components(standin, panel_id)
        kinds = {}
        for c in comps:
            if c.get("custom_id", "").startswith("dh2:"):
                _, _, kind, arg = parse_cid(c["custom_id"])
                kinds.setdefault(kind, []).append((c, arg))
        # A whole move waiting for confirmation (Confirm, or the "Are you sure?" of giving up).
        for c, arg in kinds.get("ok", []) + kinds.get("ym", []):
            if step_tokens(bot, arg) == tokens:
                return await standin.click(bot, panel_id, c["custom_id"], user=user)
        # The next step as a button.
        best = None
        for c, arg in kinds.get("s", []):
            if (c.get("label") or "").startswith("↩"):  # Back never advances (it matches a prefix too)
                continue
            got = step_tokens(bot, arg)
            if len(got) >= 1 and got == tokens[:len(got)] and (best is None or len(got) > len(best[1])):
                best = (c, got)
        if best is not None and best[1] != tokens[:0]:
            res = await standin.click(bot, panel_id, best[0]["custom_id"], user=user)
            if played(res):
                return res  # made (the steps after the press that left no choice were taken for the player)
            if best[1] == tokens and not res.ephemeral or res.message_id is None:
                return res
            if res.ephemeral and res.message_id:
                panel_id = res.message_id
            else:
                return res
            if best[1] == tokens and (not components(standin, panel_id) or played(res)):
                return res  # played; the panel may go on to the same seat's next step
            continue
        for c, arg in kinds.get("k", []):
            done = step_tokens(bot, arg)
            nxt = tokens[len(done)]
            values = [o["value"] for o in c.get("options", [])]
            picked = [nxt] if nxt in values else nxt.split(",")  # a set of several is one token "a,b"
            if all(v in values for v in picked) and len(picked) <= c.get("max_values", 1):
                res = await standin.select(bot, panel_id, c["custom_id"], picked, user=user)
                if played(res) or done + (nxt,) == tokens and not (res.ephemeral and res.message_id
                                                                   and components(standin, res.message_id)):
                    return res  # the last token chosen from a select (or the steps after it left no choice) made the move
                panel_id = res.message_id or panel_id
                break
            pages = [p for p, a in kinds.get("p", []) if p["label"].startswith("Next") and not p.get("disabled")]
            if pages:
                res = await standin.click(bot, panel_id, pages[0]["custom_id"], user=user)
                panel_id = res.message_id or panel_id
                break
            raise AssertionError(f"no way to choose {nxt!r} in {values}")
        else:
            raise AssertionError(f"could not make {move!r}: {[c.get('custom_id') for c in comps]} ({res and res.text})")
    raise AssertionError(f"could not make {move!r} with buttons")


async def write_via_modal(standin, bot, channel_id: int, move: str, user: dict) -> Any:
    """A free-text move: press its ✍ button (on the table or the private panel), fill the modal."""
    verb, _, text = move.partition(" ")
    msg = latest_table(standin, channel_id)
    panel_id = int(msg["id"])

    def text_button(mid: int) -> str | None:
        for c in components(standin, mid):
            cid = c.get("custom_id", "")
            if cid.startswith("dh2:") and parse_cid(cid)[2] == "t" and step_tokens(bot, parse_cid(cid)[3]) == (verb,):
                return cid
        for c in components(standin, mid):
            cid = c.get("custom_id", "")
            if cid.startswith("dh2:") and parse_cid(cid)[2] == "s" and step_tokens(bot, parse_cid(cid)[3]) == (verb,):
                return cid
        return None

    wanted = text_button(panel_id)
    if wanted is None:
        me = next(c["custom_id"] for c in components(standin, panel_id) if parse_cid(c["custom_id"])[2] == "me")
        panel = await standin.click(bot, panel_id, me, user=user)
        assert panel.ephemeral
        panel_id = panel.message_id
        wanted = text_button(panel_id)
        assert wanted is not None, f"no text button for {verb!r}"
    res = await standin.click(bot, panel_id, wanted, user=user)
    if res.modal is None and res.ephemeral and res.message_id:  # a step first, then the text button
        wanted = text_button(res.message_id)
        assert wanted is not None, f"no text button for {verb!r}: {res.text}"
        res = await standin.click(bot, res.message_id, wanted, user=user)
    assert res.modal is not None, f"no modal for {move!r}: {res.text}"
    modal_id = res.modal["custom_id"]
    field = standin.modal_fields(modal_id)[0]
    field_id = field["custom_id"]
    return await standin.submit_modal(bot, modal_id, {field_id: text}, user=user)


async def make_move(standin, bot, channel_id: int, seat: int, move: str, users: list[dict]) -> Any:
    """Make a move as the seat's player the way a player would: text through a modal, else buttons."""
    table = await bot.service.get(channel_id)
    game = load_game(table)
    verb = move.split(" ", 1)[0]
    if game.choices(seat, (verb,)).kind == "text":
        return await write_via_modal(standin, bot, channel_id, move, users[seat])
    return await press_move(standin, bot, channel_id, move, users[seat])


async def auto_move_for(bot, channel_id: int, seed: int) -> tuple[int, str]:
    table = await bot.service.get(channel_id)
    game = load_game(table)
    seat = min(game.to_act())
    return seat, str(spec(table.game).player(game, seat, random.Random(seed)))


async def start_by_slash(standin, bot, g, users: list[dict], game: str, *, variants: str | None = None,
                         minutes: int | None = None, channel: dict | None = None) -> int:
    """``users[0]`` opens ``game`` with /game new (in ``channel``, else the guild's), the others
    /game join, ``users[0]`` sets the turn limit (when given) and starts it: the channel's id."""
    where = {"guild": g} if channel is None else {"guild": g, "channel": channel}
    options = {"game": game} if variants is None else {"game": game, "variants": variants}
    await standin.slash(bot, "game new", options, user=users[0], **where)
    for u in users[1:]:
        await standin.slash(bot, "game join", user=u, **where)
    if minutes is not None:
        await standin.slash(bot, "game turnlimit", {"minutes": minutes}, user=users[0], **where)
    await standin.slash(bot, "game start", user=users[0], **where)
    return int((channel or g.channel)["id"])


async def auto_moves(bot, channel_id: int, limit: int, first_seed: int = 0) -> AsyncIterator[tuple[int, Any, int, str]]:
    """Turn after turn while the table plays (at most ``limit`` turns): ``(i, table, seat, move)``,
    the built-in player's move for the seat to act, seeded ``first_seed + i``."""
    for i in range(limit):
        table = await bot.service.get(channel_id)
        if table.status != "playing":
            return
        seat, move = await auto_move_for(bot, channel_id, first_seed + i)
        yield i, table, seat, move


async def moves_with_text_boxes(standin, bot, channel_id: int, users: list[dict], boxes: int,
                                limit: int = 60) -> AsyncIterator[str]:
    """The built-in players' moves, made as players make them (a story's lines written in a text
    box), until ``boxes`` text boxes were submitted: each move once made and settled."""
    written = 0
    async for i, _, seat, move in auto_moves(bot, channel_id, limit):
        move = str(move)
        if move.startswith(("tell", "twist", "wrapup", "close")):
            move = move.split(" ", 1)[0] + f" Line {i}."
            written += 1
        await make_move(standin, bot, channel_id, seat, move, users)
        await standin.settle(bot)
        yield move
        if written >= boxes:
            break
    assert written >= boxes, f"only {written} text boxes in {limit} moves"


__all__ = ["auto_move_for", "auto_moves", "click_seen", "components", "guild_with", "latest_table", "make_move",
           "moves_with_text_boxes", "no_deferral_deadline", "parse_cid", "press_move", "public_posts", "seen", "shown_revision",
           "start_by_slash", "table_messages", "write_via_modal"]
