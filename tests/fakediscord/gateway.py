"""The fake gateway: the WebSocket a bot connects to for events.

Protocol (Discord gateway v10, JSON encoding): the server sends HELLO; the bot sends IDENTIFY
(token, intents, optional shard) and gets READY then one GUILD_CREATE per guild, or RESUME
(session id, last sequence) and gets the missed events then RESUMED. Heartbeats are answered
with HEARTBEAT_ACK. With ``compress=zlib-stream`` in the URL (discord.py asks for it) every
frame is one zlib-compressed chunk of a single stream ending in ``00 00 ff ff``; otherwise frames
are JSON text.

Sessions outlive their connection: a bot process that drops its connection can RESUME, and a new
process IDENTIFYs afresh. Events go to every session that wants them (intents, shard), as on
Discord, so two bot processes on one token both see every interaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .state import DiscordState

__all__ = ["Gateway", "GatewaySession", "Intents", "Opcode"]

_log = logging.getLogger("fakediscord.gateway")


class Opcode(IntEnum):
    """Gateway opcodes of API v10."""

    DISPATCH = 0
    HEARTBEAT = 1
    IDENTIFY = 2
    PRESENCE_UPDATE = 3
    VOICE_STATE_UPDATE = 4
    RESUME = 6
    RECONNECT = 7
    REQUEST_GUILD_MEMBERS = 8
    INVALID_SESSION = 9
    HELLO = 10
    HEARTBEAT_ACK = 11


class Intents:
    """Gateway intent bits the fake looks at."""

    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_PRESENCES = 1 << 8
    GUILD_MESSAGES = 1 << 9
    DIRECT_MESSAGES = 1 << 12
    MESSAGE_CONTENT = 1 << 15
    PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT


class CloseCode:
    """Gateway close codes the fake uses."""

    UNKNOWN_OPCODE = 4001
    DECODE_ERROR = 4002
    NOT_AUTHENTICATED = 4003
    AUTHENTICATION_FAILED = 4004
    ALREADY_AUTHENTICATED = 4005
    INVALID_SHARD = 4010
    INVALID_INTENTS = 4013
    DISALLOWED_INTENTS = 4014
    RESUMABLE = 4000
    """Used by the fake to drop a connection the bot may resume (discord.py reconnects)."""


BACKLOG = 2000
"""Dispatched events kept per session for RESUME."""


@dataclass(eq=False)
class GatewaySession:
    """One IDENTIFYed gateway session: its intents, shard, sequence and event backlog."""

    session_id: str
    intents: int
    shard: tuple[int, int]
    seq: int = 0
    resumable: bool = True
    connection: GatewayConnection | None = None
    backlog: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=BACKLOG))

    def covers(self, guild_id: int | None) -> bool:
        """Whether this session's shard receives events of ``guild_id`` (DMs go to shard 0)."""
        shard_id, shard_count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % shard_count == shard_id

    def push(self, event: str, data: dict[str, Any]) -> None:
        """Sequence an event, keep it for RESUME and send it if connected."""
        self.seq += 1
        frame = {"op": Opcode.DISPATCH, "t": event, "s": self.seq, "d": data}
        self.backlog.append(frame)
        if self.connection is not None:
            self.connection.send(frame)


class GatewayConnection:
    """One WebSocket connection; frames are written in order by a single writer task."""

    def __init__(self, ws: web.WebSocketResponse, *, zlib_stream: bool) -> None:
        self.ws = ws
        self.session: GatewaySession | None = None
        self.closed_by_server = False
        """Whether the fake closed this connection (then the bot's own close code is moot)."""
        self._compressor = zlib.compressobj() if zlib_stream else None
        self._queue: asyncio.Queue[dict[str, Any] | tuple[int, str]] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write(), name="fakediscord-gateway-writer")

    def send(self, frame: dict[str, Any]) -> None:
        """Queue a frame (a JSON object) for sending."""
        self._queue.put_nowait(frame)

    def close_after_pending(self, code: int, reason: str) -> None:
        """Close the socket with ``code`` once the frames already queued are sent."""
        self._queue.put_nowait((code, reason))

    async def stop(self) -> None:
        """Stop writing and close the socket (going away)."""
        self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer
        if not self.ws.closed:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2.0):
                    await self.ws.close(code=1001)

    async def _write(self) -> None:
        while True:
            item = await self._queue.get()
            try:
                if isinstance(item, tuple):
                    code, reason = item
                    self.closed_by_server = True
                    await self.ws.close(code=code, message=reason.encode())
                    return
                text = json.dumps(item, separators=(",", ":"))
                if self._compressor is not None:
                    chunk = self._compressor.compress(text.encode())
                    chunk += self._compressor.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(chunk)
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError) as exc:
                _log.debug("gateway writer stopped: %s", exc)
                return


class Gateway:
    """All gateway sessions and connections of one fake Discord."""

    def __init__(self, state: DiscordState, *, heartbeat_interval: float) -> None:
        self._state = state
        self._heartbeat_ms = int(heartbeat_interval * 1000)
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: set[GatewayConnection] = set()
        self.identify_count = 0
        """How many IDENTIFYs succeeded (a restarted bot process adds one)."""
        self.resume_count = 0
        self.presence_updates: list[dict[str, Any]] = []

    @property
    def live_sessions(self) -> list[GatewaySession]:
        """Sessions with an open connection."""
        return [s for s in self.sessions.values() if s.connection is not None]

    def broadcast(
        self,
        event: str,
        data: dict[str, Any],
        *,
        guild_id: int | None,
        intent: int | None,
        redact: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    ) -> int:
        """Dispatch an event to every session that wants it; returns how many got it.

        ``intent`` is the intent bit the event needs (None: always sent, like
        INTERACTION_CREATE). ``redact`` makes the copy sent to sessions without the
        MESSAGE_CONTENT intent.
        """
        count = 0
        for session in self.sessions.values():
            if not session.resumable and session.connection is None:
                continue
            if not session.covers(guild_id):
                continue
            if intent is not None and not session.intents & intent:
                continue
            payload = data
            if redact is not None and not session.intents & Intents.MESSAGE_CONTENT:
                payload = redact(data)
            session.push(event, payload)
            count += 1
        return count

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """The WebSocket endpoint (``GET /gateway?v=10&encoding=json[&compress=zlib-stream]``)."""
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        connection = GatewayConnection(
            ws, zlib_stream=request.query.get("compress") == "zlib-stream"
        )
        self.connections.add(connection)
        _log.info("gateway: bot connected (%s)", request.query_string)
        try:
            if request.query.get("encoding", "json") != "json":
                connection.close_after_pending(CloseCode.DECODE_ERROR, "only encoding=json")
            else:
                connection.send(
                    {
                        "op": Opcode.HELLO,
                        "d": {"heartbeat_interval": self._heartbeat_ms, "_trace": ["fakediscord"]},
                        "s": None,
                        "t": None,
                    }
                )
                async for message in ws:
                    if message.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                        self._receive(connection, message.data)
                    elif message.type is WSMsgType.ERROR:
                        break
        finally:
            self._detach(connection, None if connection.closed_by_server else ws.close_code)
            await connection.stop()
            self.connections.discard(connection)
            self._state.notify()
        return ws

    def _detach(self, connection: GatewayConnection, close_code: int | None) -> None:
        session = connection.session
        _log.info("gateway: connection closed (bot's close code: %s)", close_code)
        if session is None or session.connection is not connection:
            return
        session.connection = None
        if close_code in (1000, 1001):
            # A clean close ends the session on Discord: the next connection must IDENTIFY.
            session.resumable = False

    def _receive(self, connection: GatewayConnection, raw: str | bytes) -> None:
        try:
            frame = json.loads(raw)
            op = Opcode(int(frame["op"]))
        except (ValueError, KeyError, TypeError):
            _log.warning("gateway: undecodable frame %r", raw[:200])
            connection.close_after_pending(CloseCode.DECODE_ERROR, "Decode error")
            return
        data = frame.get("d")
        if op is Opcode.HEARTBEAT:
            connection.send({"op": Opcode.HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op is Opcode.IDENTIFY:
            self._identify(connection, data or {})
        elif op is Opcode.RESUME:
            self._resume(connection, data or {})
        elif connection.session is None:
            connection.close_after_pending(CloseCode.NOT_AUTHENTICATED, "Not authenticated.")
        elif op is Opcode.PRESENCE_UPDATE:
            self.presence_updates.append(data or {})
        elif op is Opcode.REQUEST_GUILD_MEMBERS:
            self._request_members(connection.session, data or {})
        elif op is Opcode.VOICE_STATE_UPDATE:
            _log.info("gateway: ignoring voice state update %s", data)
        else:
            _log.warning("gateway: unexpected opcode %s from the bot", op.name)
            connection.close_after_pending(CloseCode.UNKNOWN_OPCODE, "Unknown opcode.")

    def _identify(self, connection: GatewayConnection, data: dict[str, Any]) -> None:
        state = self._state
        if connection.session is not None:
            connection.close_after_pending(
                CloseCode.ALREADY_AUTHENTICATED, "Already authenticated."
            )
            return
        if data.get("token") != state.bot_token:
            _log.warning("gateway: IDENTIFY with a wrong token")
            connection.close_after_pending(
                CloseCode.AUTHENTICATION_FAILED, "Authentication failed."
            )
            return
        if "intents" not in data:
            connection.close_after_pending(CloseCode.INVALID_INTENTS, "Invalid intent(s).")
            return
        intents = int(data["intents"])
        disallowed = intents & Intents.PRIVILEGED & ~state.privileged_intents
        if disallowed:
            _log.warning(
                "gateway: IDENTIFY asks for privileged intents %#x not enabled", disallowed
            )
            connection.close_after_pending(CloseCode.DISALLOWED_INTENTS, "Disallowed intent(s).")
            return
        shard_id, shard_count = data.get("shard") or (0, 1)
        if not 0 <= shard_id < shard_count:
            connection.close_after_pending(CloseCode.INVALID_SHARD, "Invalid shard.")
            return
        session = GatewaySession(
            session_id=secrets.token_hex(16), intents=intents, shard=(shard_id, shard_count)
        )
        self.sessions[session.session_id] = session
        session.connection = connection
        connection.session = session
        self.identify_count += 1
        _log.info(
            "gateway: IDENTIFY ok (session %s, intents %#x, shard %s)",
            session.session_id,
            intents,
            session.shard,
        )
        session.push("READY", state.ready_payload(session))
        if intents & Intents.GUILDS:
            for guild in state.guilds.values():
                if session.covers(guild.id):
                    session.push("GUILD_CREATE", state.guild_create_payload(guild, session))
        state.notify()

    def _resume(self, connection: GatewayConnection, data: dict[str, Any]) -> None:
        state = self._state
        if data.get("token") != state.bot_token:
            connection.close_after_pending(
                CloseCode.AUTHENTICATION_FAILED, "Authentication failed."
            )
            return
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or not session.resumable:
            _log.info("gateway: RESUME of an unknown or ended session; sending INVALID_SESSION")
            connection.send({"op": Opcode.INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        if session.connection is not None and session.connection is not connection:
            session.connection.close_after_pending(
                CloseCode.RESUMABLE, "Session resumed elsewhere."
            )
        session.connection = connection
        connection.session = session
        last_seen = int(data.get("seq") or 0)
        missed = [frame for frame in session.backlog if frame["s"] > last_seen]
        for frame in missed:
            connection.send(frame)
        self.resume_count += 1
        _log.info(
            "gateway: RESUME ok (session %s, %d events replayed)", session.session_id, len(missed)
        )
        session.push("RESUMED", {"_trace": ["fakediscord"]})
        state.notify()

    def _request_members(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild = self._state.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        wanted_ids = {int(x) for x in data.get("user_ids") or []}
        query = data.get("query")
        limit = int(data.get("limit") or 0)
        members = list(guild.members.values())
        if wanted_ids:
            members = [m for m in members if m.user.id in wanted_ids]
        elif query is not None:
            if query == "" and not session.intents & Intents.GUILD_MEMBERS:
                members = []
            members = [m for m in members if m.user.name.lower().startswith(query.lower())]
            if limit:
                members = members[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.to_payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        if wanted_ids:
            found = {m.user.id for m in members}
            chunk["not_found"] = [str(i) for i in sorted(wanted_ids - found)]
        session.push("GUILD_MEMBERS_CHUNK", chunk)

    async def drop(self, *, resumable: bool) -> None:
        """Close every live connection as a network failure would (code 4000).

        With ``resumable=False`` the sessions are ended first, so the bot's RESUME gets
        INVALID_SESSION and it IDENTIFYs again.
        """
        for session in self.live_sessions:
            if not resumable:
                session.resumable = False
            assert session.connection is not None
            session.connection.close_after_pending(CloseCode.RESUMABLE, "Dropped by the test.")

    def request_reconnect(self) -> None:
        """Send RECONNECT (op 7) to every live connection; discord.py then resumes."""
        for session in self.live_sessions:
            assert session.connection is not None
            session.connection.send({"op": Opcode.RECONNECT, "d": None, "s": None, "t": None})

    async def close_all(self) -> None:
        """Close every connection (the fake is stopping)."""
        for connection in list(self.connections):
            await connection.stop()
