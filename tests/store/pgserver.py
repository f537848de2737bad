"""A real PostgreSQL server for the tests: started once per test session (per xdist worker),
socket-only in a private folder, stopped at the end. ``initdb`` and ``pg_ctl`` refuse root, so
as root they run as the ``postgres`` user. No server is a failure, never a skip."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
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


class PostgresServer:
    def __init__(self) -> None:
        self.bin = _bin_dir()
        self.root = Path(tempfile.mkdtemp(prefix="deckhand-pg-"))
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
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise ServerError(f"{' '.join(args[:2])} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
        return done

    def start(self) -> "PostgresServer":
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
        opts = (f"-c listen_addresses='' -k {self.sock} -c fsync=off -c full_page_writes=off "
                "-c max_connections=200 -c shared_buffers=32MB")
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.root / "log"), "-w", "-t", "30", "start")
        return self

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@/postgres?host={self.sock}"

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except ServerError:
            pass
        shutil.rmtree(self.root, ignore_errors=True)

    def log_tail(self) -> str:
        try:
            return (self.root / "log").read_text()[-2000:]
        except OSError:
            return ""
