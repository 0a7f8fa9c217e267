"""The table in a browser: an aiohttp server inside the bot's process (DESIGN.md §10).

``server.WebServer`` runs it; ``app`` holds the routes and handlers, ``views`` what a page shows
(from observations only), ``html`` the pages, ``live`` the live updates woken by commits,
``links`` the unguessable addresses and signed private links, ``pictures`` the boards drawn once
per version, ``metrics`` /metrics. Nothing here imports discord.
"""
