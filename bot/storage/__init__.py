"""SQLite storage: one write connection, migrations, repositories (DESIGN §3)."""
