"""/game forget-me and `gamemaster db forget` also revoke the user's personal web links (#26 point 3)."""
from __future__ import annotations

from bot.services import privacy
from bot.storage import web as web_repo
from bot.storage.db import Database


async def test_forgetting_a_user_revokes_their_private_web_links(db: Database) -> None:
    async with db.transaction() as conn:
        assert await web_repo.revoked_before(conn, "u1") == 0
    await privacy.forget(db, "u1")
    async with db.transaction() as conn:
        assert await web_repo.revoked_before(conn, "u1") > 0
        assert await web_repo.revoked_before(conn, "u2") == 0
