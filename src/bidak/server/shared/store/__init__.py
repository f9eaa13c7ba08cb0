"""Storage: the database handle and its transactions (``db``), SQLite's connection settings
(``sqlite``), the models, the migrations, keys, and the queries every capability shares
(``players``, ``rated``, ``repo``).

SQL lives here and in each capability's ``queries`` module only (``docs/architecture.md``,
"Storage").
"""
