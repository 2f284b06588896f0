"""Drive the real bot through discord.py's own machinery, with only the HTTP layer replaced.

A :class:`Harness` logs a real :class:`UmpireBot` in against a fake Discord: every REST
call leaves through ``HTTPClient.request`` and every interaction response or follow-up
through ``AsyncWebhookAdapter.request``, and both are answered here and recorded as
:class:`Sent`. Interactions arrive as raw gateway payloads handed to
``ConnectionState.parse_interaction_create``, so discord.py parses them, builds the
``Interaction``, routes it through the ``CommandTree``, converts the options and runs the
cog, exactly as for a live ``INTERACTION_CREATE``.

The fake is as strict as Discord where the bot can get it wrong: a follow-up (or an edit
or deletion of the original response) on an interaction that was never answered is
refused with Discord's 404, as is a second answer to one interaction; either is recorded
as a violation, and :meth:`Harness.command` fails the test on it, so a missing deferral
cannot pass unseen. The bot's own permissions are per channel
(:attr:`FakeDiscord.permissions`): Discord hands them to every interaction as
``app_permissions``, and a channel post that needs one it lacks (Send Messages, Attach
Files for a map) is refused with Discord's 403 "Missing Permissions".
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
from discord import app_commands
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.discord.client import UmpireBot
from bot.discord.config import Settings
from bot.service import Service

APP_ID = 900_000_000_000_000_001
BOT_ID = 900_000_000_000_000_002
GUILD_ID = 800_000_000_000_000_001
CHANNEL_ID = 700_000_000_000_000_001
OTHER_CHANNEL_ID = 700_000_000_000_000_002
MOD_ROLE_ID = 600_000_000_000_000_001
MOD_ROLE = "Umpire Moderator"
TIMESTAMP = "2024-01-01T00:00:00+00:00"

EPHEMERAL = 64
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

_ids = itertools.count(1_000_000_000_000_000_000)


def snowflake() -> int:
    return next(_ids)


@dataclass(frozen=True)
class User:
    id: int
    name: str
    roles: tuple[int, ...] = ()
    permissions: int = 0

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
        }

    def member(self) -> dict[str, Any]:
        return {
            "user": self.payload(),
            "roles": [str(r) for r in self.roles],
            "joined_at": TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "communication_disabled_until": None,
            "permissions": str(self.permissions),
        }


@dataclass
class Sent:
    """One request the bot made: where to, and what it would have sent."""

    via: str  # "webhook" (interaction responses, follow-ups) or "http" (everything else)
    method: str
    path: str  # the route's template, e.g. /channels/{channel_id}/messages
    url: str
    payload: dict[str, Any] | None
    files: list[tuple[str, bytes]] = field(default_factory=list)
    #: the id Discord gave the message, for a message the bot posted or followed up
    message_id: str | None = None

    @property
    def kind(self) -> str:
        if self.path.endswith("/callback"):
            return {4: "message", 5: "defer", 8: "autocomplete"}.get(
                (self.payload or {}).get("type"), "callback"
            )
        if self.via == "webhook" and self.method == "POST":
            return "followup"
        if self.via == "webhook" and self.method == "DELETE":
            return "delete-original"
        if self.path == "/channels/{channel_id}/messages":
            return "channel-message"
        return f"{self.method} {self.path}"

    @property
    def body(self) -> dict[str, Any]:
        payload = self.payload or {}
        return (payload.get("data") or {}) if self.path.endswith("/callback") else payload

    @property
    def content(self) -> str:
        return self.body.get("content") or ""

    @property
    def ephemeral(self) -> bool:
        return bool(self.body.get("flags", 0) & EPHEMERAL)

    @property
    def pinged(self) -> list[str]:
        """The users this message may ping (from its allowed mentions)."""
        allowed = self.body.get("allowed_mentions")
        if allowed is None:
            return ["<anyone>"]
        if "everyone" in allowed.get("parse", []) or "users" in allowed.get("parse", []):
            return ["<anyone>"]
        return [str(u) for u in allowed.get("users", [])]

    @property
    def channel(self) -> str | None:
        parts = self.url.split("/channels/")
        return parts[1].split("/")[0] if len(parts) > 1 else None

    @property
    def png(self) -> bytes | None:
        return next((data for name, data in self.files if data.startswith(PNG_MAGIC)), None)

    @property
    def choices(self) -> list[dict[str, Any]]:
        return self.body.get("choices", [])

    @property
    def controls(self) -> list[dict[str, Any]]:
        """The buttons and select menus on this message, as Discord would show them."""
        found = []
        for row in self.body.get("components") or []:
            found += row.get("components", []) if row.get("type") == 1 else [row]
        return found

    def control(self, custom_id_start: str) -> dict[str, Any]:
        """The one control whose custom id begins with ``custom_id_start``."""
        found = [c for c in self.controls if c.get("custom_id", "").startswith(custom_id_start)]
        assert len(found) == 1, (custom_id_start, [c.get("custom_id") for c in self.controls])
        return found[0]


def _form_payload(form: Any) -> dict[str, Any] | None:
    for part in form or []:
        if part.get("name") == "payload_json":
            return json.loads(part["value"])
    return None


def _file_bytes(files: Any) -> list[tuple[str, bytes]]:
    out = []
    for f in files or []:
        f.fp.seek(0)
        out.append((f.filename, f.fp.read()))
    return out


def _error(status: int, code: int, message: str) -> discord.HTTPException:
    """The exception discord.py raises for such an answer from Discord."""
    response = SimpleNamespace(status=status, reason=message)
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    return kind(response, {"code": code, "message": message})  # type: ignore[arg-type]


class FakeDiscord:
    """Answers the bot's requests as Discord would, and remembers each one."""

    def __init__(self) -> None:
        self.sent: list[Sent] = []
        #: interaction tokens that have had their one answer (a message or a deferral)
        self.answered: set[str] = set()
        #: what the bot did that Discord refuses and a test must not let pass
        self.violations: list[str] = []
        #: the bot's permissions by channel id; a channel not listed grants everything
        self.permissions: dict[str, discord.Permissions] = {}
        #: requests refused with Discord's error, as (kind, channel) for the tests to read
        self.refused: list[tuple[str, str | None]] = []
        #: interactions deferred with "thinking...", by token: whether privately. Their
        #: first follow-up replaces that placeholder and so keeps its visibility, whatever
        #: the follow-up's own flag says
        self.thinking: dict[str, bool] = {}

    def permissions_in(self, channel_id: Any) -> discord.Permissions:
        return self.permissions.get(str(channel_id), discord.Permissions.all())

    def _check_post(self, channel_id: Any, blobs: list[tuple[str, bytes]]) -> None:
        """Refuse a channel post the bot's permissions there do not allow, as Discord does."""
        allowed = self.permissions_in(channel_id)
        missing = not (allowed.view_channel and allowed.send_messages) or (
            blobs and not allowed.attach_files
        )
        if missing:
            self.refused.append(("channel-message", str(channel_id)))
            raise _error(403, 50013, "Missing Permissions")

    def message(
        self, channel_id: Any, payload: dict[str, Any] | None, files: list
    ) -> dict[str, Any]:
        payload = payload or {}
        return {
            "id": str(snowflake()),
            "channel_id": str(channel_id),
            "content": payload.get("content") or "",
            "author": {
                "id": str(BOT_ID),
                "username": "Umpire",
                "discriminator": "0",
                "avatar": None,
                "bot": True,
            },
            "attachments": [
                {
                    "id": str(snowflake()),
                    "filename": name,
                    "size": len(data),
                    "url": "https://cdn.invalid/x",
                    "proxy_url": "https://cdn.invalid/x",
                }
                for name, data in files
            ],
            "embeds": [],
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
            "timestamp": TIMESTAMP,
            "edited_timestamp": None,
            "type": 0,
            "flags": payload.get("flags", 0),
            "components": [],
        }

    async def http(self, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        payload = kwargs.get("json") if "json" in kwargs else _form_payload(form)
        blobs = _file_bytes(files)
        key = (route.method, route.path)
        if key == ("POST", "/channels/{channel_id}/messages"):
            self._check_post(route.channel_id, blobs)  # a refused post is not sent
        self.sent.append(Sent("http", route.method, route.path, route.url, payload, blobs))
        if key == ("GET", "/users/@me"):
            return {
                "id": str(BOT_ID),
                "username": "Umpire",
                "discriminator": "0",
                "avatar": None,
                "bot": True,
                "flags": 0,
                "mfa_enabled": False,
                "verified": True,
            }
        if key == ("GET", "/oauth2/applications/@me"):
            return {
                "id": str(APP_ID), "name": "Umpire", "description": "", "icon": None,
                "bot_public": False, "bot_require_code_grant": False, "verify_key": "0" * 64,
                "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None},
                "flags": 0,
            }  # fmt: skip
        if key == ("POST", "/channels/{channel_id}/messages"):
            made = self.message(route.channel_id, payload, blobs)
            self.sent[-1].message_id = made["id"]
            return made
        if key == ("POST", "/channels/{channel_id}/threads"):
            return {
                "id": str(snowflake()), "guild_id": str(GUILD_ID), "parent_id": str(route.channel_id),
                "owner_id": str(BOT_ID), "name": (payload or {}).get("name", "thread"), "type": 11,
                "last_message_id": None, "rate_limit_per_user": 0, "message_count": 0, "member_count": 1,
                "thread_metadata": {"archived": False, "auto_archive_duration": 1440, "archive_timestamp": TIMESTAMP, "locked": False},
                "flags": 0,
            }  # fmt: skip
        if key == ("POST", "/users/@me/channels"):
            recipient = (payload or {}).get("recipient_id")
            return {
                "id": str(snowflake()),
                "type": 1,
                "recipients": [
                    {
                        "id": str(recipient),
                        "username": "player",
                        "discriminator": "0",
                        "avatar": None,
                    }
                ],
            }
        if route.method == "PUT" and route.path.startswith("/applications/"):
            return [
                dict(c, id=str(snowflake()), application_id=str(APP_ID), version="1")
                for c in payload or []
            ]
        if route.method == "DELETE":
            return None
        raise AssertionError(f"the fake Discord does not know {route.method} {route.path}")

    def _first_follow_up(self, body: dict[str, Any], private: bool) -> dict[str, Any]:
        """The first follow-up after a deferral, as Discord shows it: with the deferral's
        visibility. One meant to be private after a public deferral would be shown to
        the whole channel: a violation."""
        flags = body.get("flags", 0) or 0
        if flags & EPHEMERAL and not private:
            self.violations.append(
                "a private follow-up after a public deferral: it replaces the public "
                "placeholder, so the whole channel would see it"
            )
        shown = flags | EPHEMERAL if private else flags & ~EPHEMERAL
        return dict(body, flags=shown)

    async def webhook(
        self,
        route: Any,
        session: Any,
        *,
        payload: Any = None,
        multipart: Any = None,
        files: Any = None,
        **kwargs: Any,
    ) -> Any:
        body = payload if payload is not None else _form_payload(multipart)
        blobs = _file_bytes(files)
        token = str(getattr(route, "webhook_token", None))
        if route.path.endswith("/callback"):
            if token in self.answered:
                self.violations.append(f"a second answer to one interaction ({route.path})")
                raise _error(400, 40060, "Interaction has already been acknowledged.")
            self.answered.add(token)
        elif token not in self.answered:
            what = {"POST": "a follow-up", "PATCH": "an edit", "DELETE": "a deletion"}.get(
                route.method, route.method
            )
            self.violations.append(
                f"{what} on an interaction that was never answered (deferred or responded)"
            )
            raise _error(404, 10015, "Unknown Webhook")
        if route.path.endswith("/callback") and (body or {}).get("type") == 5:
            flags = ((body or {}).get("data") or {}).get("flags", 0)
            self.thinking[token] = bool(flags & EPHEMERAL)
        elif route.method in ("PATCH", "DELETE") and token in self.thinking:
            del self.thinking[token]  # the placeholder was edited or deleted
        elif route.method == "POST" and token in self.thinking:
            body = self._first_follow_up(body or {}, self.thinking.pop(token))
        self.sent.append(Sent("webhook", route.method, route.path, route.url, body, blobs))
        if route.path.endswith("/callback"):
            kind = (body or {}).get("type")
            data = (body or {}).get("data") or {}
            return {
                "interaction": {
                    "id": str(route.webhook_id), "type": 2,
                    "response_message_loading": kind == 5,
                    "response_message_ephemeral": bool(data.get("flags", 0) & EPHEMERAL),
                },
            }  # fmt: skip
        if route.method == "DELETE":
            return None
        made = self.message(CHANNEL_ID, body, blobs)
        self.sent[-1].message_id = made["id"]
        return made


def _option_type(param: app_commands.Parameter) -> int:
    return param.type.value


class Harness:
    """A bot logged in to the fake Discord, in one guild with one text channel."""

    def __init__(
        self,
        db_path: str,
        clock: Callable[[], float],
        settings: Settings | None = None,
        draw: Any = None,
        synchronous: str = "NORMAL",
    ) -> None:
        self.db_path = db_path
        self.synchronous = synchronous
        self.clock = clock
        # moderators' acts go in one step unless a test turns the confirmation on
        # (tests/discord/test_buttons.py), so the tests of the acts themselves stay short
        self.settings = settings or Settings(
            token="test-token", db_path=db_path, moderator_role=MOD_ROLE, confirm_moderation=False
        )
        self.draw = draw
        self.fake = FakeDiscord()
        self.bot: UmpireBot | None = None
        self.service: Service | None = None
        self.upload_limit = 10 * 1024 * 1024
        self._original_webhook = AsyncWebhookAdapter.request

    # -- life -------------------------------------------------------------------------

    async def start(self) -> Harness:
        self.service = await Service.open(
            self.db_path, clock=self.clock, synchronous=self.synchronous
        )
        self.bot = UmpireBot(self.service, self.settings, draw=self.draw, run_scheduler=False)
        self.bot.http.request = self.fake.http  # type: ignore[method-assign]
        fake = self.fake

        async def webhook_request(adapter: Any, route: Any, session: Any, **kwargs: Any) -> Any:
            return await fake.webhook(route, session, **kwargs)

        AsyncWebhookAdapter.request = webhook_request  # type: ignore[method-assign]
        await self.bot.login("test-token")
        self.bot._connection.parse_guild_create(self.guild_payload())
        return self

    async def stop(self) -> None:
        if self.bot is not None:
            await self.bot.close()
        if self.service is not None:
            await self.service.close()
        AsyncWebhookAdapter.request = self._original_webhook  # type: ignore[method-assign]
        self.bot = self.service = None

    async def restart(self) -> None:
        """A new bot object (and service) over the same database, as after a crash."""
        await self.stop()
        await self.start()

    def guild_payload(self) -> dict[str, Any]:
        def role(rid: int, name: str, position: int) -> dict[str, Any]:
            return {
                "id": str(rid),
                "name": name,
                "permissions": "0",
                "position": position,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }

        return {
            "id": str(GUILD_ID), "name": "Wargames", "owner_id": "1", "unavailable": False, "large": False,
            "member_count": 4, "features": [], "emojis": [], "stickers": [], "premium_tier": 0,
            "roles": [role(GUILD_ID, "@everyone", 0), role(MOD_ROLE_ID, MOD_ROLE, 1)],
            "channels": [
                {"id": str(cid), "type": 0, "name": name, "position": i, "permission_overwrites": [], "nsfw": False, "parent_id": None, "rate_limit_per_user": 0}
                for i, (cid, name) in enumerate([(CHANNEL_ID, "wargames"), (OTHER_CHANNEL_ID, "tunisia")])
            ],
            "threads": [], "members": [], "voice_states": [], "presences": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [],
        }  # fmt: skip

    # -- interactions -----------------------------------------------------------------------

    def _find(self, path: str) -> tuple[list[str], app_commands.Command]:
        assert self.bot is not None
        names = path.split()
        node: Any = self.bot.tree.get_command(names[0])
        assert node is not None, f"no command /{names[0]}"
        for name in names[1:]:
            node = node.get_command(name)
            assert node is not None, f"no command /{path}"
        return names, node

    def payload(
        self,
        kind: int,
        user: User,
        path: str,
        options: dict[str, Any],
        /,
        *,
        channel: int = CHANNEL_ID,
        channel_type: int = 0,
        focused: str | None = None,
    ) -> dict[str, Any]:
        names, command = self._find(path)
        params = {p.display_name: p for p in command.parameters}
        resolved: dict[str, Any] = {}
        leaf = []
        for name, value in options.items():
            if value is None:
                continue
            assert name in params, f"/{path} has no option {name!r}"
            param = params[name]
            if isinstance(value, User):
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                member = value.member()
                del member["user"]
                resolved.setdefault("members", {})[str(value.id)] = member
                value = str(value.id)
            option = {"name": name, "type": _option_type(param), "value": value}
            if name == focused:
                option["focused"] = True
            leaf.append(option)
        data: dict[str, Any] = {"id": str(snowflake()), "name": names[0], "type": 1}
        if len(names) > 1:
            data["options"] = [{"name": names[1], "type": 1, "options": leaf}]
        else:
            data["options"] = leaf
        if resolved:
            data["resolved"] = resolved
        channel_payload: dict[str, Any] = {
            "id": str(channel),
            "type": channel_type,
            "guild_id": str(GUILD_ID),
            "name": "game",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
        }
        if channel_type == 11:
            channel_payload.update(
                parent_id=str(CHANNEL_ID),
                owner_id=str(BOT_ID),
                message_count=0,
                member_count=2,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": TIMESTAMP,
                    "locked": False,
                },
            )
        return {
            "id": str(snowflake()), "application_id": str(APP_ID), "type": kind, "token": f"token-{snowflake()}",
            "version": 1, "guild_id": str(GUILD_ID), "channel_id": str(channel), "channel": channel_payload,
            "member": user.member(), "data": data, "locale": "en-US", "guild_locale": "en-US",
            "app_permissions": str(self.fake.permissions_in(channel).value), "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)}, "context": 0,
            "attachment_size_limit": self.upload_limit,
        }  # fmt: skip

    async def _dispatch(self, payload: dict[str, Any]) -> list[Sent]:
        assert self.bot is not None
        mark = len(self.fake.sent)
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await self.settle()
        if self.fake.violations:
            found, self.fake.violations = self.fake.violations, []
            raise AssertionError(f"the bot broke Discord's rules for interactions: {found}")
        return self.fake.sent[mark:]

    async def settle(self) -> None:
        """Wait until every command the tree started has finished."""
        for _ in range(1000):
            pending = [
                t
                for t in asyncio.all_tasks()
                if (t.get_name() == "CommandTree-invoker" or t.get_name().startswith("discord-ui-"))
                and not t.done()
            ]
            if not pending:
                return
            await asyncio.gather(*pending, return_exceptions=True)
        raise AssertionError("commands never finished")

    async def command(
        self,
        caller: User,
        path: str,
        /,
        *,
        channel: int = CHANNEL_ID,
        channel_type: int = 0,
        **options: Any,
    ) -> list[Sent]:
        """Run ``/path option:value ...`` as ``caller``; what the bot sent meanwhile."""
        return await self._dispatch(
            self.payload(2, caller, path, options, channel=channel, channel_type=channel_type)
        )

    async def autocomplete(
        self, caller: User, path: str, focused: str, /, *, channel: int = CHANNEL_ID, **options: Any
    ) -> list[dict[str, Any]]:
        """The choices Discord would show ``caller`` while typing into option ``focused``."""
        options.setdefault(focused, "")
        sent = await self._dispatch(
            self.payload(4, caller, path, options, channel=channel, focused=focused)
        )
        answers = [s for s in sent if s.kind == "autocomplete"]
        assert len(answers) == 1, f"expected one autocomplete answer, got {[s.kind for s in sent]}"
        return answers[0].choices


async def click(
    harness: Harness,
    caller: User,
    message: Sent,
    custom_id: str,
    *,
    values: list[str] | None = None,
) -> list[Sent]:
    """``caller`` clicks the control ``custom_id`` on ``message`` (a post or a reply of
    the bot), choosing ``values`` in a select menu; what the bot sent meanwhile. Only a
    control the message carries can be clicked, and only offered values chosen, as on
    Discord. The interaction arrives as a raw gateway payload, as a live click does."""
    [control] = [c for c in message.controls if c.get("custom_id") == custom_id] or [None]
    assert control is not None, (custom_id, [c.get("custom_id") for c in message.controls])
    assert not control.get("disabled"), f"{custom_id} is disabled"
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": control["type"]}
    if control["type"] == 3:
        offered = [o["value"] for o in control.get("options", [])]
        assert values and all(v in offered for v in values), (values, offered)
        data["values"] = values
    channel = int(message.channel) if message.channel else CHANNEL_ID
    shown = harness.fake.message(channel, message.body, message.files)
    shown["id"] = message.message_id or shown["id"]
    shown["components"] = message.body.get("components") or []
    payload = harness.payload(2, caller, "game status", {}, channel=channel)
    payload.update(type=3, data=data, message=shown)
    return await harness._dispatch(payload)


def replies(sent: list[Sent]) -> list[Sent]:
    """The answers to the user: the interaction's own messages and follow-ups."""
    return [s for s in sent if s.kind in ("message", "followup")]


def posts(sent: list[Sent], channel: int | str | None = None) -> list[Sent]:
    """Messages posted to channels (not interaction replies)."""
    return [
        s
        for s in sent
        if s.kind == "channel-message" and (channel is None or s.channel == str(channel))
    ]


def text(sent: list[Sent]) -> str:
    return "\n".join(s.content for s in sent)
