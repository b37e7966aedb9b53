"""A push service for tests: an HTTP server on 127.0.0.1 that takes web push messages as a
browser's push service would, and a browser's side of a subscription (its P-256 key pair and
auth secret) that decrypts them as the browser would (RFC 8291, aes128gcm: RFC 8188) and checks
their VAPID header (RFC 8292: a JWT signed ES256 by the site's key, its audience the endpoint's
origin). Written from the RFCs with `cryptography` alone, apart from the library that sends.

Paths under /gone/ answer 410 and under /missing/ 404 (the push service no longer knows the
subscription); any other path 201.
"""

from __future__ import annotations

import base64
import json
import os
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def _point(public: ec.EllipticCurvePublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


@dataclass
class BrowserKeys:
    """What a browser makes when it subscribes: a P-256 key pair and a 16-byte auth secret."""

    private: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url(_point(self.private.public_key()))

    @property
    def auth_b64(self) -> str:
        return b64url(self.auth)

    def decrypt(self, body: bytes) -> bytes:
        """RFC 8291 section 3.4 and RFC 8188 section 2: one aes128gcm record, keyed by ECDH
        between the sender's key (the header's keyid) and this browser's, salted by the auth secret."""
        salt, rs, idlen = body[:16], struct.unpack("!I", body[16:20])[0], body[20]
        sender_point, ciphertext = body[21 : 21 + idlen], body[21 + idlen :]
        assert idlen == 65 and sender_point[0] == 4, "keyid is the sender's uncompressed P-256 point"
        assert len(ciphertext) <= rs, "one record"
        sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_point)
        ecdh_secret = self.private.exchange(ec.ECDH(), sender)
        key_info = b"WebPush: info\x00" + _point(self.private.public_key()) + sender_point
        ikm = _hkdf(self.auth, ecdh_secret, key_info, 32)
        cek = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
        nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
        padded = AESGCM(cek).decrypt(nonce, ciphertext, None)  # raises InvalidTag if not ours
        text = padded.rstrip(b"\x00")
        assert text.endswith(b"\x02"), "the last record's delimiter"
        return text[:-1]


def vapid_claims(authorization: str, public_key: str) -> dict[str, Any]:
    """The claims of a `vapid t=<JWT>, k=<key>` header, once its key is `public_key` and its
    signature checks (ES256: raw r||s over header.payload); raises AssertionError otherwise."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme == "vapid", authorization
    params = dict(part.strip().split("=", 1) for part in rest.split(","))
    assert params["k"] == public_key, "the site's VAPID public key"
    signing_input, _, signature = params["t"].rpartition(".")
    header = json.loads(unb64url(signing_input.split(".")[0]))
    assert header == {"typ": "JWT", "alg": "ES256"} or header.get("alg") == "ES256", header
    raw = unb64url(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    try:
        key.verify(der, signing_input.encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID JWT's signature does not check") from None
    return dict(json.loads(unb64url(signing_input.split(".")[1])))


@dataclass
class Received:
    path: str
    headers: dict[str, str]  # names in lower case
    body: bytes
    at: float


class PushService:
    def __init__(self, port: int) -> None:
        self.origin = f"http://127.0.0.1:{port}"
        self.received: list[Received] = []
        self.lock = threading.Lock()

    def endpoint(self, name: str) -> str:
        return f"{self.origin}/{name}"

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Received]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.received) >= count:
                    return list(self.received)
            time.sleep(0.02)
        raise AssertionError(f"{len(self.received)} pushes received, not {count}")


@contextmanager
def push_service() -> Iterator[PushService]:
    holder: list[PushService] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            service = holder[0]
            with service.lock:
                service.received.append(
                    Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body, time.time())
                )
            status = (
                410 if self.path.startswith("/gone/") else 404 if self.path.startswith("/missing/") else 201
            )
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    holder.append(PushService(server.server_address[1]))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield holder[0]
    finally:
        server.shutdown()
        server.server_close()
