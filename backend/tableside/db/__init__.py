"""Database plumbing: connection URLs, migrations, the embedded PostgreSQL server."""
