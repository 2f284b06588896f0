"""A process killed (SIGKILL) in the middle of handling a mail, then restarted: no order
is applied twice or lost (issue 14, item 5). The mail is handled in a child process that
kills itself at a chosen point: inside the transaction of its first order (before the
commit) or just after that commit; a fresh process then handles the same mail."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap

import pytest

from bot.email.transport import open_mail
from tests.email.conftest import ALICE, BOB, letter, mail_config

CHILD = textwrap.dedent(
    """
    import asyncio, os, signal, sys
    from bot.email.config import MailConfig, Server
    from bot.email import store as mail_store
    from bot.email.transport import open_mail
    from bot.service import Service

    cfg = eval(sys.argv[1], {"MailConfig": MailConfig, "Server": Server})
    when, raw = sys.argv[2], open(sys.argv[3], "rb").read()

    def die():
        os.kill(os.getpid(), signal.SIGKILL)

    if when == "in-transaction":
        real = mail_store.in_same_write
        def dying(hook):
            async def then_die(tx):
                await hook(tx)
                die()  # the statements ran, COMMIT never does
            return real(then_die)
        import bot.email.desk as desk_module
        desk_module.in_same_write = dying
    else:
        real_submit = Service.submit
        async def submit(self, *args, **kwargs):
            result = await real_submit(self, *args, **kwargs)
            die()  # committed; the reply and the record of the mail are not
        Service.submit = submit

    async def main():
        service, desk, _ = await open_mail(cfg, maps=False)
        await desk.handle(raw)
    asyncio.run(main())
    """
)


@pytest.mark.parametrize("when", ["in-transaction", "after-commit"])
async def test_a_kill_mid_mail_neither_repeats_nor_loses_an_order(tmp_path, when) -> None:
    cfg = mail_config(tmp_path, 1, 1)  # no server is needed: the outbox keeps the mail
    service, desk, _ = await open_mail(cfg, maps=False)
    try:
        created = await service.create("pfv", created_by="mod")
        game = created.game
        await desk.seat(game, "allied", ALICE, "mod")
        await desk.seat(game, "axis", BOB, "mod")
        await service.start(game, "mod")
        seat = next(s for s in await service.email_seats(game) if s.role == "allied")
        raw = letter(ALICE, f"umpire+{desk.token(seat)}@example.org", "orders", "auto\ndone\n")
    finally:
        await service.close()
    path = tmp_path / "mail.eml"
    path.write_bytes(raw)

    child = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-c", CHILD, repr(cfg), when, str(path)],
        capture_output=True,
        timeout=60,
    )
    assert child.returncode == -9, child.stderr.decode()[-2000:]

    service, desk, _ = await open_mail(cfg, maps=False)
    try:
        before = [line.order for line in await service.game_log(game)]
        assert before == ([] if when == "in-transaction" else ["auto"])
        assert await desk.handle(raw) == "done"
        assert await desk.handle(raw) == "duplicate"
        orders = [line.order for line in await service.game_log(game)]
        assert orders == ["auto", "done"]
        record = await service.email_message(next(
            line.split(":", 1)[1].strip() for line in raw.decode().splitlines()
            if line.lower().startswith("message-id:")
        ))
        assert record is not None and record.status == "done" and record.lines_done == 2
    finally:
        await service.close()
