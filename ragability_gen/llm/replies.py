"""What a chat-completion reply must carry to count as an answer, and what may never leave the process.

A 200 reply is not always an answer: real endpoints send no choices, ``content: null``, an empty reply
cut off, a reply withheld by a content filter, or a body that is not JSON at all. :func:`reply_problem`
names each; the client retries them like a failed request and then reports an error, so an empty string
is never mistaken for a model's answer. :func:`scrub` keeps the API key, and any piece of it, out of
every message, result and cache entry.
"""

from __future__ import annotations

from typing import Any


class NoAnswer(Exception):
    """A reply that arrived but carries no usable answer; retried like a failed request."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def reply_problem(resp: Any) -> str | None:
    """Why a chat-completion reply (its JSON, as parsed) carries no usable answer, or None when it does.

    An empty string is an answer only when the model really returned it and said it had finished
    (``finish_reason: stop``); every other empty reply is a failure to be retried, never an answer.
    """
    choices = resp.get("choices") if isinstance(resp, dict) else None
    if not choices or not isinstance(choices, list):
        return "the reply has no choices"
    choice = choices[0] if isinstance(choices[0], dict) else {}
    reason = choice.get("finish_reason")
    if reason == "content_filter":
        return "the endpoint's content filter withheld the answer (finish_reason: content_filter)"
    message = choice.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, str):
        return f"the reply has no content (content: null, finish_reason: {reason})"
    if content == "" and reason != "stop":
        return f"the reply is empty (finish_reason: {reason})"
    return None


def scrub(text: str, secret: str | None) -> str:
    """``text`` with the secret, and any piece of 4 or more of its first characters, replaced by ``***``.

    The piece matters when something upstream cut the text inside the key (an endpoint that echoes
    the Authorization header into a truncated message).
    """
    if not secret or len(secret) < 4:
        return text
    text = text.replace(secret, "***")
    start = text.find(secret[:4])
    while start >= 0:
        end = start + 4
        while end < len(text) and end - start < len(secret) and text[end] == secret[end - start]:
            end += 1
        text = text[:start] + "***" + text[end:]
        start = text.find(secret[:4], start + 3)
    return text


def brief(e: Exception, secret: str | None = None) -> str:
    """The endpoint's own error message, on one line and short; the secret is scrubbed before the cut,
    so the cut cannot leave a piece of it."""
    body = getattr(e, "body", None)
    text = None
    if isinstance(body, dict):
        inner = body.get("error")
        text = body.get("message") or (inner.get("message") if isinstance(inner, dict) else inner)
    text = scrub(" ".join(str(text or getattr(e, "message", None) or e).split()), secret)
    return text[:300]
