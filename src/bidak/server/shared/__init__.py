"""The shared machinery every capability stands on, importing none of them: settings, the
database (``store``: engine, models, migrations), the bus, limits, the injected clock, the site's
security middleware, static assets and the garbage collector's policy."""
