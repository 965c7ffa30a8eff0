# Gameroom bot image: build wheels in one stage, run as a non-root user in a slim second stage.
# SQLite lives on the /data volume; set GAMEROOM_DB_URL to a postgresql+asyncpg:// URL instead
# to share one database between several bot processes.

FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY engines ./engines
COPY render ./render
COPY db ./db
COPY ai ./ai
RUN pip wheel --no-cache-dir --wheel-dir /wheels ".[postgres]"

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 gameroom \
    && mkdir /data \
    && chown gameroom:gameroom /data
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index --find-links /wheels "gameroom[postgres]" \
    && rm -rf /wheels
USER gameroom
WORKDIR /home/gameroom
ENV GAMEROOM_DB_URL=sqlite+aiosqlite:////data/gameroom.db \
    PYTHONUNBUFFERED=1
VOLUME ["/data"]
ENTRYPOINT ["gameroom"]
CMD ["run"]
