"""Canary: fails loudly when a discord.py upgrade moves the internals tests/fakediscord/ uses."""

from __future__ import annotations

import inspect


def test_discord_py_internals_the_fake_relies_on() -> None:
    import discord
    import discord.gateway
    import discord.http
    import discord.ui.modal
    import discord.ui.view
    import discord.webhook.async_ as webhook_async
    import yarl
    from discord import app_commands

    problems: list[str] = []

    def check(ok: bool, what: str) -> None:
        if not ok:
            problems.append(what)

    check(discord.__version__ == "2.7.1",
          f"discord.py is {discord.__version__}, the harness was verified against 2.7.1 (pinned)")

    route_cls = discord.http.Route
    check(isinstance(getattr(route_cls, "BASE", None), str), "discord.http.Route.BASE is gone")
    saved = route_cls.BASE
    try:
        route_cls.BASE = "http://127.0.0.1:9/api/v10"
        url = route_cls("GET", "/users/@me").url
        check(url == "http://127.0.0.1:9/api/v10/users/@me",
              f"Route no longer builds its URL from Route.BASE at construction (got {url})")
    finally:
        route_cls.BASE = saved

    gw = getattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", None)
    check(isinstance(gw, yarl.URL), "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY is gone")

    client = discord.Client(intents=discord.Intents.default())
    parsers = getattr(getattr(client, "_connection", None), "parsers", {})
    for event in ("INTERACTION_CREATE", "MESSAGE_CREATE", "READY", "GUILD_CREATE", "RESUMED"):
        check(event in parsers, f"Client._connection.parsers has no {event!r}")

    adapter = getattr(webhook_async, "AsyncWebhookAdapter", None)
    check(adapter is not None and hasattr(adapter, "create_interaction_response"),
          "discord.webhook.async_.AsyncWebhookAdapter.create_interaction_response is gone "
          "(interaction responses may no longer go over the client's aiohttp session)")

    tree_src = inspect.getsource(app_commands.CommandTree._from_interaction)
    check("name='CommandTree-invoker'" in tree_src,
          "CommandTree._from_interaction no longer names its task 'CommandTree-invoker' (settle() waits on it)")
    view_src = inspect.getsource(discord.ui.view)
    check("name=f'discord-ui-view-dispatch-" in view_src and "name=f'discord-ui-dynamic-item-" in view_src,
          "discord.ui.view task names changed (settle() waits on 'discord-ui-*')")
    check("name=f'discord-ui-modal-dispatch-" in inspect.getsource(discord.ui.modal),
          "discord.ui.modal task name changed (settle() waits on 'discord-ui-*')")
    check("name=f'discord.py: {event_name}'" in inspect.getsource(discord.Client._schedule_event),
          "Client._schedule_event no longer names tasks 'discord.py: <event>'")
    check("attachment_size_limit" in inspect.getsource(discord.Interaction._from_data),
          "Interaction no longer reads attachment_size_limit (payload builder may be stale)")

    assert not problems, (
        "discord.py internals used by tests/fakediscord/ moved; fix the harness before trusting "
        "any Discord-layer test:\n  - " + "\n  - ".join(problems))


def test_discord_py_internals_the_lean_webhook_calls_rely_on() -> None:
    """cogs/hooks.py: the webhook adapter's routes call ``self.request``, its bucket locks live in
    the default adapter's ``_locks``, ``handle_message_parameters`` lays out the message."""
    import discord.http
    import discord.webhook.async_ as webhook_async

    problems: list[str] = []
    adapter = webhook_async.AsyncWebhookAdapter
    for name in ("execute_webhook", "edit_webhook_message", "edit_original_interaction_response"):
        source = inspect.getsource(getattr(adapter, name))
        if "self.request(" not in source:
            problems.append(f"AsyncWebhookAdapter.{name} no longer goes through self.request")
    if not hasattr(webhook_async.async_context.get(), "_locks"):
        problems.append("the default webhook adapter keeps no _locks")
    if not hasattr(webhook_async.AsyncDeferredLock, "delay_by"):
        problems.append("AsyncDeferredLock.delay_by is gone")
    parameters = inspect.signature(discord.http.handle_message_parameters).parameters
    for name in ("flags", "previous_allowed_mentions", "files", "attachments", "view", "embeds"):
        if name not in parameters:
            problems.append(f"handle_message_parameters takes no {name}")
    for name in ("_session", "_state", "token", "application_id"):
        if name not in discord.Interaction.__slots__:
            problems.append(f"Interaction has no {name}")
    for name in ("_parse_ratelimit_header", "_to_json"):
        if not hasattr(discord.utils, name):
            problems.append(f"discord.utils.{name} is gone")
    assert not problems, problems
