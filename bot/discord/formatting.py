"""Text for Discord: timestamps, prompts, status, log lines, and splitting long messages.

Pure functions over the service's results; nothing here sends anything. Users appear as
mentions (``<@id>``), which Discord shows as names; whether a mention pings anybody is
decided where the message is sent (``AllowedMentions``), not here.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.service import DeadlineInfo, GameStatus, LogLine, OrderResult, PromptInfo, RollInfo

#: Discord's limit on a message's text
MESSAGE_LIMIT = 2000


def when(ts: float) -> str:
    """A moment as Discord timestamps: the full date in the reader's own time zone, and
    how far away it is (``<t:1700000000:F> (<t:1700000000:R>)``)."""
    t = int(ts)
    return f"<t:{t}:F> (<t:{t}:R>)"


def user(user_id: str | None) -> str:
    """A seat holder as a mention, or ``nobody`` for a free seat."""
    if user_id is None:
        return "nobody"
    return f"<@{user_id}>" if user_id.isdigit() else user_id


def prompt_line(
    prompt: PromptInfo, deadline: DeadlineInfo | None = None, audience: str | None = None
) -> str:
    """``**axis** (<@2>) to decide: ... Due <t:..:F> (<t:..:R>).`` The prompt as
    ``audience`` reads it: the public (a channel post) unless a role is given."""
    text = prompt.text_for(audience)
    if prompt.role is None:
        return text
    line = f"**{prompt.role}** ({user(prompt.user)}) to decide: {text}"
    if prompt.verbs:
        line += "\nOrders: " + ", ".join(commands_for(prompt.verbs)) + "."
    if deadline is not None:
        line += f"\nDue {when(deadline.due_at)}."
    return line


def commands_for(verbs: Iterable[str]) -> list[str]:
    """The slash commands that give these order verbs: ``/move``, or ``/order text:auto``
    for a verb with no command of its own."""
    from bot.discord.choices import VERBS

    return [f"`/{v}`" if v in VERBS else f"`/order text:{v}`" for v in verbs]


def deadline_for(deadlines: Iterable[DeadlineInfo], role: str | None) -> DeadlineInfo | None:
    """The open deadline of ``role`` (or the one set for whoever decides), if any."""
    found = [d for d in deadlines if d.role == role] or [d for d in deadlines if d.role is None]
    return min(found, key=lambda d: d.due_at) if found else None


def dice_text(rolls: Iterable[RollInfo]) -> str:
    """``Dice: 5 (d6, attack), 2 (d6, defence)``."""
    parts = [f"{r.value} (d{r.sides}{', ' + r.purpose if r.purpose else ''})" for r in rolls]
    return "Dice: " + ", ".join(parts) if parts else ""


def order_report(result: OrderResult, audience: str | None = None) -> str:
    """What one order did, as ``audience`` reads it: the channel (the public) unless the
    reply goes to the player who gave it (their role)."""
    lines = [f"Action {result.seq}, {result.role}: `{result.order_for(audience)}`"]
    lines += [f"> {e}" for e in result.events_for(audience)]
    dice = dice_text(result.rolls_for(audience))
    if dice:
        lines.append(dice)
    return "\n".join(lines)


def log_lines(lines: Iterable[LogLine]) -> list[str]:
    """One line per action: number, role, the order, and what it did; undone ones struck."""
    out = []
    for line in lines:
        text = f"`{line.seq}` {line.role}: `{line.order}`"
        if line.events:
            text += " - " + " ".join(line.events)
        out.append(f"~~{text}~~ (undone)" if line.undone else text)
    return out


def status_text(
    status: GameStatus, deadlines: Iterable[DeadlineInfo], *, game_link: str = ""
) -> str:
    deadlines = list(deadlines)
    p = status.progress
    head = f"**{status.title}**, game `{status.game}`{game_link} ({status.status})"
    lines = [head, f"Turn {p.turn}, {p.player} player: {p.phase}; action {status.seq}."]
    if status.result is not None:
        winner = f" Winner: **{status.result.winner}**." if status.result.winner else ""
        lines.append(f"Result: {status.result.text}{winner}")
    elif status.status == "open":
        free = [s.role for s in status.seats if s.user is None]
        lines.append(
            f"Waiting for players: {', '.join(free)} (`/game join`)."
            if free
            else "Every seat is taken: `/game start` begins play."
        )
    else:
        lines.append(
            "Now: " + prompt_line(status.prompt, deadline_for(deadlines, status.prompt.role))
        )
        if status.status == "paused":
            lines.append("The game is paused by a moderator; deadlines wait until it resumes.")
    seats = ", ".join(f"{s.role} {user(s.user)}" for s in status.seats)
    lines.append(f"Seats: {seats}.")
    lines.append(f"Dice commitment (sha256 of the secret): `{status.commitment}`")
    if status.secret:
        lines.append(f"Dice secret, revealed: `{status.secret}`")
    return "\n".join(lines)


def split_message(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Cut ``text`` into messages of at most ``limit`` characters: between paragraphs
    where it can, else between lines, so a prompt and its orders stay in one message and
    no line of a log is broken unless it alone is too long.

    >>> [len(p) for p in split_message("a" * 1500 + "\\n" + "b" * 1500)]
    [1500, 1500]
    >>> split_message("log 1\\nlog 2\\n\\nNow: you\\nOrders: /done", limit=25)
    ['log 1\\nlog 2', 'Now: you\\nOrders: /done']
    """
    if len(text) <= limit:
        return [text] if text else []
    pieces: list[tuple[str, str]] = []  # (separator before it, piece)
    for p_index, paragraph in enumerate(text.split("\n\n")):
        sep = "\n\n" if p_index else ""
        if len(paragraph) <= limit:
            pieces.append((sep, paragraph))
            continue
        for l_index, line in enumerate(paragraph.split("\n")):
            line_sep = sep if l_index == 0 else "\n"
            while len(line) > limit:
                pieces.append((line_sep, line[:limit]))
                line, line_sep = line[limit:], ""
            pieces.append((line_sep, line))
    parts: list[str] = []
    current = ""
    for sep, piece in pieces:
        candidate = current + sep + piece if current else piece
        if len(candidate) <= limit:
            current = candidate
        else:
            if current:
                parts.append(current)
            current = piece
    if current:
        parts.append(current)
    return parts


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis if it was longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def sentence(text: str) -> str:
    """``text`` with its first letter in capitals (unlike ``str.capitalize``, the rest is kept)."""
    return text[:1].upper() + text[1:]
