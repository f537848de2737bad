"""A throw-away PostgreSQL server in a temporary folder, reached by its Unix socket only: for
the tests, never for a deployment. ``initdb`` and ``pg_ctl`` refuse root, so as root they
run as the ``postgres`` user."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

PG_BIN = Path(os.environ.get("DECKHAND_PG_BIN", "/usr/lib/postgresql/15/bin"))


class ServerError(RuntimeError):
    pass


def _bin_dir() -> Path:
    if (PG_BIN / "initdb").exists():
        return PG_BIN
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    raise ServerError(f"PostgreSQL's server binaries are not in {PG_BIN} nor on PATH (set DECKHAND_PG_BIN).")


class PrivatePostgres:
    """One server: ``settings`` are its ``-c`` options beside the socket-only ones; ``timeout``
    bounds each ``initdb``/``pg_ctl`` run (seconds)."""

    def __init__(self, prefix: str = "deckhand-pg-", settings: str = "", timeout: int = 60) -> None:
        self.bin = _bin_dir()
        self.settings, self.timeout = settings, timeout
        self.root = Path(tempfile.mkdtemp(prefix=prefix))
        self.data = self.root / "data"
        self.sock = self.root / "sock"
        self.sock.mkdir()
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = "postgres"
            shutil.chown(self.root, self.user)
            shutil.chown(self.sock, self.user)
            self.root.chmod(0o755)

    def _run(self, *args: str) -> subprocess.CompletedProcess:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=self.timeout)
        if done.returncode != 0:
            raise ServerError(f"{' '.join(args[:2])} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
        return done

    def start(self) -> "PrivatePostgres":
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
        opts = f"-c listen_addresses='' -k {self.sock} {self.settings}".strip()
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.root / "log"), "-w", "-t",
                  str(self.timeout), "start")
        return self

    @property
    def dsn(self) -> str:
        return self.url("postgres")

    def url(self, database: str) -> str:
        """The URL of one database of this server."""
        return f"postgresql://postgres@/{database}?host={self.sock}"

    async def create_database(self, prefix: str) -> str:
        """A new, empty database named ``prefix`` and a random suffix: its URL."""
        import asyncpg

        name = f"{prefix}{uuid.uuid4().hex[:12]}"
        conn = await asyncpg.connect(self.dsn)
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except (ServerError, OSError, subprocess.SubprocessError):
            pass
        shutil.rmtree(self.root, ignore_errors=True)

    def log_tail(self) -> str:
        try:
            return (self.root / "log").read_text()[-2000:]
        except OSError:
            return ""
