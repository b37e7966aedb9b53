"""The lines the site writes in a table's chat for a person: a holiday begun or ended
(games/services/holidays.py sends `holiday_changed`; this app subscribes in apps.py).

Written in the person's name, to both channels (players and spectators: a holiday is no secret,
and it explains a slow game's deadline moving), each reader's page says it in their language
from `notice` and `notice_at`; `text` holds it in English for the moderators' admin and API
readers. Rows of the append-only chat log like any message, published after commit."""

from __future__ import annotations

from datetime import datetime

from .models import Channel, ChatMessage
from .publish import publish_chat_message
from .selectors import message_dict


def chat_holiday_notices(user_id: int, table_ids: list[int], change: str, ends_at: datetime) -> None:
    """One line per channel in the chat of each table of `table_ids`: `user_id` went on holiday
    until `ends_at` ("started") or is back ("ended")."""
    from django.contrib.auth import get_user_model

    if not table_ids:
        return
    name = get_user_model().objects.values_list("username", flat=True).get(pk=user_id)
    when = f"{ends_at:%Y-%m-%d %H:%M} UTC"
    text = (
        f"On holiday until {when}: decisions awaited from me here wait until then."
        if change == "started"
        else "Back from holiday: my clock runs again."
    )
    notice = f"holiday_{change}"
    rows = ChatMessage.objects.bulk_create(
        [
            ChatMessage(table_id=t, channel=c, user_id=user_id, text=text, notice=notice, notice_at=ends_at)
            for t in table_ids
            for c in Channel.values
        ]
    )
    for m in rows:
        publish_chat_message(m.table_id, m.channel, message_dict(m, name))
