"""The email front end (ARCHITECTURE: Front ends, Email): play by mail over the service.

Umpire reads one mailbox over IMAP (IDLE, with polling and reconnects) and sends over
SMTP. A seat by email has a secret token carried in the Reply-To sub-address and the
subject of every mail Umpire sends it; a mail's body holds orders in the console grammar,
one per line. After each hand-over every email seat gets its own view's log and map.

Layout: ``config`` (settings from the environment or ``.env``), ``tokens``, ``parse``
(incoming mail to lines), ``compose`` (outgoing mail), ``store`` (the same-transaction
hook), ``desk`` (handling one mail, notices), ``transport`` (IMAP loop, SMTP), ``cli``.
"""
