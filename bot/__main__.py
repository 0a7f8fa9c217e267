"""``python -m bot`` is the ``gamemaster`` command."""
from bot.cli import main

raise SystemExit(main())
