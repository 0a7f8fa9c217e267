"""Repository for the web pages (bot/web): the signing key, the tables' addresses, revoked links,
the servers whose pages are off (migration 0020). Both backends, the same SQL."""
from __future__ import annotations

from typing import Any

SIGNING_KEY = "links"  # the web_secrets row that signs private links and derives table addresses


async def secret(conn: Any, name: str, fresh: str) -> str:
    """The stored secret ``name``; ``fresh`` is stored and returned when there is none yet (the
    first start; two processes starting together agree on whichever was stored first)."""
    await conn.execute("INSERT INTO web_secrets (name, secret) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                       (name, fresh))
    async with conn.execute("SELECT secret FROM web_secrets WHERE name = ?", (name,)) as cur:
        row = await cur.fetchone()
    return str(row[0])


async def publish(conn: Any, web_id: str, game_id: int, public: bool | None, default: bool) -> None:
    """The table's address (kept once made) and whether it is public (``public`` None: as stored,
    ``default`` for a new address)."""
    first = default if public is None else public
    await conn.execute("INSERT INTO web_tables (web_id, game_id, public) VALUES (?, ?, ?) "
                       "ON CONFLICT (game_id) DO NOTHING", (web_id, game_id, int(first)))
    if public is not None:
        await conn.execute("UPDATE web_tables SET public = ? WHERE game_id = ? AND public <> ?",
                           (int(public), game_id, int(public)))


async def unpublished(conn: Any) -> list[tuple[int, str | None]]:
    """(game id, guild id) of the started games that have no address yet."""
    async with conn.execute("SELECT id, guild_id FROM games WHERE state IS NOT NULL AND id NOT IN "
                            "(SELECT game_id FROM web_tables) ORDER BY id") as cur:
        return [(int(r[0]), None if r[1] is None else str(r[1])) for r in await cur.fetchall()]


async def table(conn: Any, web_id: str) -> tuple[int, bool] | None:
    """(game id, public) of a table address, None for an address nobody was given."""
    async with conn.execute("SELECT game_id, public FROM web_tables WHERE web_id = ?", (web_id,)) as cur:
        row = await cur.fetchone()
    return (int(row[0]), bool(row[1])) if row else None


async def revoke(conn: Any, user_id: str, before: int) -> None:
    """Every link given to ``user_id`` before ``before`` (Unix time in milliseconds) stops working."""
    await conn.execute("INSERT INTO web_revoked (user_id, before) VALUES (?, ?) "
                       "ON CONFLICT (user_id) DO UPDATE SET before = excluded.before", (str(user_id), before))


async def revoked_before(conn: Any, user_id: str) -> int:
    async with conn.execute("SELECT before FROM web_revoked WHERE user_id = ?", (str(user_id),)) as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def publish_guild(conn: Any, guild_id: str, web_id: str) -> None:
    await conn.execute("INSERT INTO web_guilds (guild_id, web_id) VALUES (?, ?) ON CONFLICT (guild_id) DO NOTHING",
                       (str(guild_id), web_id))


async def guild(conn: Any, web_id: str) -> tuple[str, bool] | None:
    """(guild id, pages on) of a server's address."""
    async with conn.execute("SELECT guild_id, pages FROM web_guilds WHERE web_id = ?", (web_id,)) as cur:
        row = await cur.fetchone()
    return (str(row[0]), bool(row[1])) if row else None


async def set_pages(conn: Any, guild_id: str, web_id: str, on: bool) -> None:
    await conn.execute("INSERT INTO web_guilds (guild_id, web_id, pages) VALUES (?, ?, ?) "
                       "ON CONFLICT (guild_id) DO UPDATE SET pages = excluded.pages", (str(guild_id), web_id, int(on)))


async def pages_off(conn: Any) -> set[str]:
    """The servers that turned their pages off."""
    async with conn.execute("SELECT guild_id FROM web_guilds WHERE pages = 0") as cur:
        return {str(r[0]) for r in await cur.fetchall()}


async def public_games(conn: Any, game_ids: list[int]) -> set[int]:
    """Those of ``game_ids`` whose tables are public."""
    if not game_ids:
        return set()
    marks = ", ".join("?" * len(game_ids))
    async with conn.execute(f"SELECT game_id FROM web_tables WHERE public = 1 AND game_id IN ({marks})",
                            tuple(game_ids)) as cur:
        return {int(r[0]) for r in await cur.fetchall()}


async def pending_announcements(conn: Any) -> int:
    """The outbox's depth: committed changes not yet announced (for /metrics)."""
    async with conn.execute("SELECT COUNT(*) FROM announcements WHERE done_at IS NULL") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0
