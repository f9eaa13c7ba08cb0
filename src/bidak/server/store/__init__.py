"""Storage: SQLAlchemy models, the database handle with its migrations, and repositories."""
