"""PostgreSQL for tests: one server per session (``server.py``), fixtures (``fixtures.py``)."""
