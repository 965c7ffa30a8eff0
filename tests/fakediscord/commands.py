"""Application commands: the registry the bot syncs into, and the option payloads a user sends.

The registry keeps global commands and per-guild commands apart, as Discord does, and keeps a
command's id when a sync overwrites a command of the same name and type. Interaction payloads
are built from the synced schema, so they use the ids and option types the bot registered and
refuse what Discord's client would refuse (missing required option, value outside the choices,
wrong type, ...).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from .errors import ActionRefused, DiscordHTTPError
from .models import Snowflakes

__all__ = ["Command", "CommandRegistry", "OptionType", "build_options"]

_NAME = re.compile(r"^[-_\w]{1,32}$")
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_SAFE_INTEGER = 2**53


class OptionType(IntEnum):
    """Application command option types of API v10."""

    SUB_COMMAND = 1
    SUB_COMMAND_GROUP = 2
    STRING = 3
    INTEGER = 4
    BOOLEAN = 5
    USER = 6
    CHANNEL = 7
    ROLE = 8
    MENTIONABLE = 9
    NUMBER = 10
    ATTACHMENT = 11


_ENTITY_TYPES = {
    OptionType.USER,
    OptionType.CHANNEL,
    OptionType.ROLE,
    OptionType.MENTIONABLE,
    OptionType.ATTACHMENT,
}


@dataclass(frozen=True)
class Command:
    """A registered application command, as the bot synced it plus the ids Discord assigned."""

    id: int
    application_id: int
    guild_id: int | None
    name: str
    type: int
    description: str
    options: tuple[dict[str, Any], ...]
    default_member_permissions: int | None
    contexts: tuple[int, ...] | None
    version: int
    raw: dict[str, Any]

    def to_payload(self) -> dict[str, Any]:
        """The application command object the REST API returns."""
        payload = dict(self.raw)
        payload.update(
            {
                "id": str(self.id),
                "application_id": str(self.application_id),
                "version": str(self.version),
                "type": self.type,
                "name": self.name,
                "description": self.description,
                "options": list(self.options),
                "default_member_permissions": (
                    None
                    if self.default_member_permissions is None
                    else str(self.default_member_permissions)
                ),
                "nsfw": bool(self.raw.get("nsfw", False)),
            }
        )
        if self.guild_id is not None:
            payload["guild_id"] = str(self.guild_id)
        if self.contexts is not None:
            payload["contexts"] = list(self.contexts)
        return payload

    @property
    def paths(self) -> list[tuple[str, ...]]:
        """Every invocable path: ``[("move",)]`` or ``[("game", "info"), ("game", "rules")]``."""
        return [(self.name, *rest) for rest in _paths(self.options)]


def _paths(options: Sequence[Mapping[str, Any]]) -> list[tuple[str, ...]]:
    nested = [
        o
        for o in options
        if o.get("type") in (OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP)
    ]
    if not nested:
        return [()]
    result: list[tuple[str, ...]] = []
    for option in nested:
        if option["type"] == OptionType.SUB_COMMAND:
            result.append((option["name"],))
        else:
            result.extend((option["name"], *rest) for rest in _paths(option.get("options") or []))
    return result


class CommandRegistry:
    """Global and per-guild application commands of the one application the fake hosts."""

    def __init__(self, application_id: int, snowflakes: Snowflakes) -> None:
        self._application_id = application_id
        self._snowflakes = snowflakes
        self._scopes: dict[int | None, dict[tuple[str, int], Command]] = {}
        self.sync_counts: dict[int | None, int] = {}
        """How many bulk overwrites each scope (None = global) has received."""

    def in_scope(self, guild_id: int | None) -> list[Command]:
        """Commands registered in one scope (None = global), in registration order."""
        return list(self._scopes.get(guild_id, {}).values())

    def get(self, guild_id: int | None, command_id: int) -> Command | None:
        """The command with this id in this scope, or None."""
        return next((c for c in self.in_scope(guild_id) if c.id == command_id), None)

    def find(self, name: str, guild_id: int | None) -> Command | None:
        """The slash command ``name`` a user in ``guild_id`` sees: the guild's, else the global."""
        for scope in (guild_id, None) if guild_id is not None else (None,):
            command = self._scopes.get(scope, {}).get((name, 1))
            if command is not None:
                return command
        return None

    def overwrite(
        self, guild_id: int | None, payloads: Sequence[Mapping[str, Any]]
    ) -> list[Command]:
        """Replace a scope's commands (``PUT .../commands``); same name and type keep their id.

        Raises :class:`DiscordHTTPError` 400 for invalid or duplicate commands.
        """
        if not isinstance(payloads, list):
            raise DiscordHTTPError.invalid_form("body", "must be a list of commands")
        old = self._scopes.get(guild_id, {})
        new: dict[tuple[str, int], Command] = {}
        for index, payload in enumerate(payloads):
            key = (str(payload.get("name")), int(payload.get("type", 1)))
            if key in new:
                raise DiscordHTTPError.invalid_form(
                    f"{index}.name", f"application command name {key[0]!r} is already used"
                )
            previous = old.get(key)
            new[key] = self._make(guild_id, payload, previous.id if previous else None, str(index))
        self._scopes[guild_id] = new
        self.sync_counts[guild_id] = self.sync_counts.get(guild_id, 0) + 1
        return list(new.values())

    def upsert(self, guild_id: int | None, payload: Mapping[str, Any]) -> Command:
        """Create or replace one command (``POST .../commands``)."""
        key = (str(payload.get("name")), int(payload.get("type", 1)))
        scope = self._scopes.setdefault(guild_id, {})
        previous = scope.get(key)
        command = self._make(guild_id, payload, previous.id if previous else None, "body")
        scope[key] = command
        return command

    def edit(self, guild_id: int | None, command_id: int, changes: Mapping[str, Any]) -> Command:
        """Apply a partial edit (``PATCH .../commands/{id}``); 404 (10063) if unknown."""
        command = self.get(guild_id, command_id)
        if command is None:
            raise DiscordHTTPError.not_found("application command", 10063)
        payload = {**command.raw, **changes}
        scope = self._scopes[guild_id]
        del scope[(command.name, command.type)]
        edited = self._make(guild_id, payload, command.id, "body")
        scope[(edited.name, edited.type)] = edited
        return edited

    def delete(self, guild_id: int | None, command_id: int) -> None:
        """Remove one command; 404 (10063) if unknown."""
        command = self.get(guild_id, command_id)
        if command is None:
            raise DiscordHTTPError.not_found("application command", 10063)
        del self._scopes[guild_id][(command.name, command.type)]

    def _make(
        self, guild_id: int | None, payload: Mapping[str, Any], keep_id: int | None, where: str
    ) -> Command:
        command_type = int(payload.get("type", 1))
        name = payload.get("name")
        if not isinstance(name, str) or not name:
            raise DiscordHTTPError.invalid_form(f"{where}.name", "this field is required")
        description = str(payload.get("description") or "")
        if command_type == 1:
            _check_name(name, f"{where}.name")
            if not 1 <= len(description) <= 100:
                raise DiscordHTTPError.invalid_form(
                    f"{where}.description", "must be between 1 and 100 in length"
                )
        options = payload.get("options") or []
        _check_options(options, f"{where}.options", depth=0)
        permissions = payload.get("default_member_permissions")
        contexts = payload.get("contexts")
        return Command(
            id=keep_id if keep_id is not None else self._snowflakes.next(),
            application_id=self._application_id,
            guild_id=guild_id,
            name=name,
            type=command_type,
            description=description,
            options=tuple(dict(option) for option in options),
            default_member_permissions=None if permissions is None else int(permissions),
            contexts=None if contexts is None else tuple(int(c) for c in contexts),
            version=self._snowflakes.next(),
            raw=dict(payload),
        )


def _check_name(name: str, where: str) -> None:
    if not _NAME.match(name) or name != name.lower():
        raise DiscordHTTPError.invalid_form(
            where, f"{name!r} must be 1-32 lowercase letters, digits, '-' or '_'"
        )


def _check_options(options: Sequence[Mapping[str, Any]], where: str, *, depth: int) -> None:
    if len(options) > MAX_OPTIONS:
        raise DiscordHTTPError.invalid_form(where, f"must be {MAX_OPTIONS} or fewer in length")
    seen_optional = False
    names: set[str] = set()
    for index, option in enumerate(options):
        here = f"{where}.{index}"
        option_type = int(option.get("type", 0))
        name = str(option.get("name", ""))
        _check_name(name, f"{here}.name")
        if name in names:
            raise DiscordHTTPError.invalid_form(f"{here}.name", f"option name {name!r} repeated")
        names.add(name)
        if not 1 <= len(str(option.get("description") or "")) <= 100:
            raise DiscordHTTPError.invalid_form(
                f"{here}.description", "must be between 1 and 100 in length"
            )
        if option_type in (OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP):
            if depth >= 2 or (option_type == OptionType.SUB_COMMAND_GROUP and depth >= 1):
                raise DiscordHTTPError.invalid_form(f"{here}.type", "subcommands nested too deep")
            _check_options(option.get("options") or [], f"{here}.options", depth=depth + 1)
            continue
        if option.get("required"):
            if seen_optional:
                raise DiscordHTTPError.invalid_form(
                    f"{here}.required", "required options must be placed before non-required"
                )
        else:
            seen_optional = True
        choices = option.get("choices") or []
        if len(choices) > MAX_CHOICES:
            raise DiscordHTTPError.invalid_form(f"{here}.choices", "must be 25 or fewer")
        if choices and option.get("autocomplete"):
            raise DiscordHTTPError.invalid_form(
                f"{here}.autocomplete", "autocomplete may not be set with choices"
            )


EntityResolver = Callable[[OptionType, object], str]
"""Turns a user/channel/role/attachment value into its id string and records it as resolved."""


def build_options(
    command: Command,
    path: Sequence[str],
    values: Mapping[str, object],
    *,
    resolve_entity: EntityResolver,
    focused: str | None = None,
) -> list[dict[str, Any]]:
    """The ``data.options`` of an interaction invoking ``path`` with ``values``.

    ``path`` is the command name followed by the subcommand group and/or subcommand names.
    With ``focused`` (autocomplete) that option is sent as the typed text with ``focused:
    true`` and missing required options are allowed, as in Discord.

    Raises :class:`ActionRefused` when Discord's client would refuse the invocation.
    """
    label = "/" + " ".join(path)
    options: Sequence[Mapping[str, Any]] = command.options
    nesting: list[Mapping[str, Any]] = []  # the subcommand group and/or subcommand chosen
    for name in path[1:]:
        nested = next(
            (
                o
                for o in options
                if o.get("name") == name
                and o.get("type") in (OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP)
            ),
            None,
        )
        if nested is None:
            raise ActionRefused(
                f"{label}: {command.name!r} has no subcommand {name!r}; "
                f"it has {[' '.join(p) for p in command.paths]}"
            )
        nesting.append(nested)
        options = nested.get("options") or []
    if any(
        o.get("type") in (OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP) for o in options
    ):
        choices = [" ".join(p) for p in command.paths]
        raise ActionRefused(f"{label} is not invocable by itself; choose one of {choices}")

    declared = {str(o["name"]): o for o in options}
    unknown = sorted(set(values) - set(declared) - ({focused} if focused else set()))
    if unknown:
        raise ActionRefused(f"{label} has no option(s) {unknown}; it has {sorted(declared)}")
    if focused is not None:
        if focused not in declared:
            raise ActionRefused(f"{label} has no option {focused!r}; it has {sorted(declared)}")
        if not declared[focused].get("autocomplete"):
            raise ActionRefused(f"{label}: option {focused!r} does not use autocomplete")

    leaf: list[dict[str, Any]] = []
    for name, option in declared.items():
        if name == focused:
            typed = values.get(name, "")
            leaf.append(
                {"name": name, "type": int(option["type"]), "value": str(typed), "focused": True}
            )
            continue
        if name not in values:
            if option.get("required") and focused is None:
                raise ActionRefused(f"{label}: required option {name!r} is missing")
            continue
        value = _convert(label, option, values[name], resolve_entity)
        leaf.append({"name": name, "type": int(option["type"]), "value": value})

    for nested in reversed(nesting):
        leaf = [{"name": nested["name"], "type": int(nested["type"]), "options": leaf}]
    return leaf


def _convert(
    label: str, option: Mapping[str, Any], value: object, resolve_entity: EntityResolver
) -> object:
    name = option["name"]
    option_type = OptionType(int(option["type"]))
    where = f"{label}: option {name!r} ({option_type.name.lower()})"
    if option_type in _ENTITY_TYPES:
        try:
            return resolve_entity(option_type, value)
        except (TypeError, ValueError) as exc:
            raise ActionRefused(f"{where}: {exc}") from exc
    if option_type == OptionType.STRING:
        if not isinstance(value, str):
            raise ActionRefused(f"{where} needs a str, got {value!r}")
        low, high = option.get("min_length", 0), option.get("max_length", 6000)
        if not low <= len(value) <= high:
            raise ActionRefused(f"{where}: length must be within {low}..{high}, got {value!r}")
    elif option_type == OptionType.INTEGER:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ActionRefused(f"{where} needs an int, got {value!r}")
        _check_range(where, option, value, MAX_SAFE_INTEGER)
    elif option_type == OptionType.NUMBER:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ActionRefused(f"{where} needs a number, got {value!r}")
        _check_range(where, option, value, MAX_SAFE_INTEGER)
    elif option_type == OptionType.BOOLEAN and not isinstance(value, bool):
        raise ActionRefused(f"{where} needs a bool, got {value!r}")
    choices = option.get("choices")
    if choices and value not in [choice["value"] for choice in choices]:
        names = [(choice["name"], choice["value"]) for choice in choices]
        raise ActionRefused(f"{where}: {value!r} is not one of the choices {names}")
    return value


def _check_range(where: str, option: Mapping[str, Any], value: float, limit: int) -> None:
    low = option.get("min_value", -limit)
    high = option.get("max_value", limit)
    if not low <= value <= high:
        raise ActionRefused(f"{where}: {value!r} is outside {low}..{high}")
