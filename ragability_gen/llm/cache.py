"""The on-disk response cache: a re-run with the same requests costs nothing.

Replies are keyed by endpoint, model, messages and parameters, never by or with an API key.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragability_gen.errors import LLMError

if TYPE_CHECKING:
    from ragability_gen.llm.client import LLMSpec, Message


def default_cache_path() -> Path:
    """``$RAGABILITY_GEN_CACHE``, else ``$XDG_CACHE_HOME/ragability-gen/llm-cache.sqlite``."""
    if os.environ.get("RAGABILITY_GEN_CACHE"):
        return Path(os.environ["RAGABILITY_GEN_CACHE"])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "ragability-gen" / "llm-cache.sqlite"


class ResponseCache:
    """Replies on disk, keyed by endpoint, model, messages and parameters (never by or with a key).

    SQLite gives atomic, durable writes, so a run killed at any point leaves a usable cache.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        except (OSError, sqlite3.Error) as e:
            raise LLMError(f"{self.path}: cannot open the response cache: {e}") from None

    @staticmethod
    def key(spec: LLMSpec, messages: Sequence[Message], extra: dict[str, Any]) -> str:
        material = {"base_url": spec.base_url.rstrip("/"), "model": spec.model, "messages": list(messages),
                    "params": {**spec.params(), **extra}}
        return hashlib.sha256(json.dumps(material, sort_keys=True, ensure_ascii=False).encode()).hexdigest()

    def get(self, key: str) -> dict[str, Any] | None:
        row = self._db.execute("SELECT value FROM replies WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        self._db.execute("INSERT OR REPLACE INTO replies VALUES (?, ?)", (key, json.dumps(value)))

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM replies").fetchone()[0])

    def close(self) -> None:
        self._db.close()
