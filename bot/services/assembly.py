"""The services one bot process runs on, built once by the runner and handed to the Discord
application (or built for a test's bot): the table, players and their preferences, history,
ratings, the reminder scheduler, the per-channel pacer and the global one, all on one database."""
from __future__ import annotations

from dataclasses import dataclass

from bot.services.budget import GlobalPacer
from bot.services.history import History
from bot.services.instance import shard_scopes
from bot.services.pacing import ChannelPacer
from bot.services.players import Players
from bot.services.ratings_kept import Ratings
from bot.services.scheduler import Scheduler
from bot.services.shared_budget import SharedBudget
from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.backend import POSTGRES
from bot.storage.db import Database


@dataclass
class Services:
    db: Database
    table: GameService
    players: Players
    history: History
    ratings: Ratings
    scheduler: Scheduler
    pacer: ChannelPacer
    budget: GlobalPacer  # Discord's global limit: one pacer for every shard of this process

    @classmethod
    def build(cls, settings: Settings, db: Database, table: GameService | None = None) -> Services:
        table = table or GameService(db)
        players = Players(db)
        table.prefs_written = players.forget  # keeps the players' cache current
        # reminder claims are leased to this process's shard scope: a restart takes its own at once
        scheduler = Scheduler(db, owner=", ".join(shard_scopes(settings.shards, settings.shard_count)))
        return cls(db=db, table=table, players=players, history=History(db), ratings=Ratings(db),
                   scheduler=scheduler, pacer=ChannelPacer(settings.channel_posts, settings.channel_window,
                                                      cautious_start=True),
                   budget=global_pacer(settings, db))


def global_pacer(settings: Settings, db: Database) -> GlobalPacer:
    """The process's pacer of counted calls; on PostgreSQL, where several processes of one token may
    run (shards), it also takes each call's place in the token's budget in the database."""
    shared = SharedBudget(db, settings.token) if db.backend == POSTGRES and settings.token else None
    return GlobalPacer(shared=shared)
