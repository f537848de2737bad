"""Deckhand uses its libraries through their documented API only (a check that cannot drift).

The code of ``bot/`` and ``cogs/`` is parsed and fails on:

- an attribute with a leading underscore that the project does not define itself (a library's
  private name: ``interaction._state``, ``ImageDraw._image``, ``executor._max_workers``…), and a
  method of a class built on discord.py that overrides one of discord.py's private methods;
- an import from a discord.py module outside its documented surface (``discord.http``,
  ``discord.state``, ``discord.webhook.async_``…), or such a module reached as an attribute;
- a client's ``.http`` (discord.py's HTTP client, undocumented: its methods change in any release);
- an assignment to an attribute of something imported from discord (a monkeypatch).

The only exception is the one function that points discord.py at a proxy or a local stand-in:
``bot.app.point_at``, which sets ``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``.
"""

from __future__ import annotations

import ast
import functools
import inspect
from dataclasses import dataclass
from pathlib import Path

import discord
import discord.app_commands
import discord.ext.commands
import discord.ext.tasks
import discord.ui

ROOT = Path(__file__).resolve().parent.parent
# discord.py's documented modules: the package itself and these (everything they export is public).
DOCUMENTED = {"discord", "discord.ui", "discord.app_commands", "discord.ext", "discord.ext.commands",
              "discord.ext.tasks", "discord.abc", "discord.utils"}
# The documented names of discord.utils (https://discordpy.readthedocs.io/en/stable/api.html#utility-functions).
UTILS = {"find", "get", "setup_logging", "maybe_coroutine", "snowflake_time", "time_snowflake", "oauth_url",
         "remove_markdown", "escape_markdown", "escape_mentions", "as_chunks", "format_dt", "utcnow", "sleep_until",
         "resolve_invite", "resolve_template", "MISSING"}
ENDPOINTS = ("point_at", {("discord", "http", "Route", "BASE"), ("discord", "gateway", "DiscordWebSocket",
                                                                  "DEFAULT_GATEWAY")})


def _discord_private_methods() -> set[str]:
    """Every private (single-underscore) attribute of discord.py's classes that a subclass could override."""
    out: set[str] = set()
    for module in (discord, discord.ui, discord.app_commands, discord.ext.commands, discord.ext.tasks):
        for value in vars(module).values():
            if inspect.isclass(value) and value.__module__.startswith("discord"):
                for cls in value.__mro__:
                    if cls.__module__.startswith("discord"):
                        out.update(n for n in vars(cls) if n.startswith("_") and not n.startswith("__"))
    return out


def _chain(node: ast.AST) -> tuple[str, ...] | None:
    """``a.b.c`` as ("a", "b", "c"), or None for anything that does not start with a name."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return tuple(reversed(parts))


@dataclass
class Module:
    path: Path
    tree: ast.Module

    @property
    def name(self) -> str:
        return str(self.path.relative_to(ROOT))

    @functools.cached_property
    def nodes(self) -> list[ast.AST]:
        """Every node of the tree, in ``ast.walk``'s order (walked once: every check reads them all)."""
        return list(ast.walk(self.tree))


def _modules() -> list[Module]:
    files = sorted(p for part in ("bot", "cogs") for p in (ROOT / part).rglob("*.py"))
    return [Module(p, ast.parse(p.read_text(encoding="utf-8"), filename=str(p))) for p in files]


def _defined(modules: list[Module]) -> set[str]:
    """Every name the project binds itself: functions, classes, attributes it assigns, arguments,
    variables, slots and dataclass fields."""
    names: set[str] = set()
    for m in modules:
        for node in m.nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.alias):
                names.add((node.asname or node.name).split(".")[0])
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("_"):
                names.add(node.value)  # __slots__ entries and getattr() names of the project's own
            elif isinstance(node, ast.keyword) and node.arg:
                names.add(node.arg)
    return names


def _discord_names(nodes: list[ast.AST]) -> set[str]:
    """The names a module binds to discord.py (``import discord``, ``from discord.ext import commands``…)."""
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            out.update((a.asname or a.name).split(".")[0] for a in node.names if a.name.split(".")[0] == "discord")
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "discord":
            out.update(a.asname or a.name for a in node.names)
    return out


def problems(modules: list[Module]) -> list[str]:
    defined = _defined(modules)
    private_methods = _discord_private_methods()
    found: list[str] = []
    for m in modules:
        name = m.name  # (worked out once a module: a path's relative_to for every node was most of this check)
        discord_names = _discord_names(m.nodes)
        endpoint_lines: set[int] = set()
        for node in m.nodes:
            if isinstance(node, ast.FunctionDef) and node.name == ENDPOINTS[0]:
                endpoint_lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        for node in m.nodes:
            where = f"{name}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                if node.attr not in defined:
                    found.append(f"{where}: private attribute .{node.attr}")
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "discord":
                if node.module not in DOCUMENTED:
                    found.append(f"{where}: import from {node.module}")
                elif node.module == "discord.utils":
                    found.extend(f"{where}: discord.utils.{a.name}" for a in node.names if a.name not in UTILS)
            if isinstance(node, ast.Import):
                found.extend(f"{where}: import {a.name}" for a in node.names
                             if a.name.split(".")[0] == "discord" and a.name not in DOCUMENTED)
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                chain = _chain(node)
                if chain and chain[0] == "discord" and len(chain) >= 2 and getattr(node, "lineno", 0) not in endpoint_lines:
                    sub = getattr(discord, chain[1], None)
                    if inspect.ismodule(sub) and f"discord.{chain[1]}" not in DOCUMENTED and chain == chain[:2]:
                        found.append(f"{where}: discord.{chain[1]} (an undocumented module)")
                    elif chain[1:2] == ("utils",) and len(chain) == 3 and chain[2] not in UTILS:
                        found.append(f"{where}: discord.utils.{chain[2]}")
            if isinstance(node, ast.Attribute) and node.attr == "http" and (_chain(node) or ("discord",))[0] != "discord":
                found.append(f"{where}: a client's .http (discord.py's undocumented HTTP client)")
            targets: list[ast.AST] = []
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = list(node.targets) if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for t in (target.elts if isinstance(target, ast.Tuple) else [target]):
                    chain = _chain(t) if isinstance(t, ast.Attribute) else None
                    if chain and chain[0] in discord_names:
                        if name == "bot/app.py" and node.lineno in endpoint_lines and chain in ENDPOINTS[1]:
                            continue
                        found.append(f"{where}: assigns {'.'.join(chain)}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" and node.args:
                chain = _chain(node.args[0])
                if chain and chain[0] in discord_names:
                    found.append(f"{where}: setattr on {'.'.join(chain)}")
            if isinstance(node, ast.ClassDef) and any((_chain(b) or ("",))[0] in discord_names for b in node.bases):
                for item in node.body:
                    if (isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("_")
                            and not item.name.startswith("__") and item.name in private_methods):
                        found.append(f"{m.name}:{item.lineno}: {node.name}.{item.name} overrides a discord.py private")
    return found


def test_bot_and_cogs_use_documented_apis_only():
    found = problems(_modules())
    assert not found, "\n".join(found)


PLANTS = {
    "interaction._state.http": "private attribute ._state",
    "from discord.http import handle_message_parameters": "import from discord.http",
    "import discord\ndiscord.VoiceClient.warn_nacl = False": "assigns discord.VoiceClient.warn_nacl",
    "import discord\nx = discord.webhook.async_context": "discord.webhook (an undocumented module)",
    "import discord\nclass B(discord.Client):\n    async def _run_event(self): ...": "overrides a discord.py private",
    "from PIL import ImageDraw\nImageDraw.Draw(None)._image": "private attribute ._image",
    "import discord\nsetattr(discord.ui.View, 'x', 1)": "setattr on discord.ui.View",
    "await self.bot.http.start_thread_without_message(1, name='x')": "a client's .http",
}


def test_the_check_catches_planted_uses():
    for code, expected in PLANTS.items():
        planted = Module(ROOT / "bot" / "planted.py", ast.parse(code))
        found = problems([planted])
        assert any(expected in f for f in found), (code, found)
