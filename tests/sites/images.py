"""A local image host for the localize-stage tests, and the images it serves.

``ImageServer`` is one host (a stdlib ThreadingHTTPServer on ``<address>:0`` in a thread) that
answers each exact request path (query included, as sent) with the bytes a test put there, so
paths like ``/a/..%2f..%2fx`` or ``/img\\x.jpg`` reach it untouched. A resource can require a
Referer from the server's own origin (hotlink protection), lie about its type, or leave out its
Content-Length. The ``*_bytes`` helpers draw small real images with Pillow.
"""

from __future__ import annotations

import io
import struct
import threading
import zlib
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import urlsplit

from PIL import Image, ImageDraw

from tests.sites.serving import QuietServer, Served


@dataclass(frozen=True)
class Resource:
    body: bytes
    content_type: str = "application/octet-stream"
    status: int = 200
    protected: bool = False  # 403 unless the Referer is a page of this server
    announce_length: bool = True  # False: no Content-Length, the connection closes at the end


@dataclass(frozen=True)
class Hit:
    path: str
    headers: dict[str, str]


class ImageServer(Served):
    """Use as a context manager; ``put(path, body, …)`` returns the absolute URL."""

    def __init__(self, address: str = "127.0.0.1") -> None:
        self.resources: dict[str, Resource] = {}
        self.fallback: Resource | None = None  # what any other path gets (404 when None)
        self.hits: list[Hit] = []
        self._lock = threading.Lock()
        super().__init__(QuietServer((address, 0), _handler_for(self)))
        self.origin = f"http://{address}:{self.port}"

    def url(self, path: str) -> str:
        return self.origin + path

    def put(self, path: str, body: bytes, content_type: str = "application/octet-stream",
            **options: Any) -> str:
        self.resources[path] = Resource(body, content_type, **options)
        return self.url(path)

    def requests_for(self, path: str) -> list[Hit]:
        with self._lock:
            return [h for h in self.hits if h.path == path]

    def _record(self, hit: Hit) -> None:
        with self._lock:
            self.hits.append(hit)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state: ImageServer

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        """Quiet: tests assert on ``hits``."""

    def do_GET(self) -> None:
        self.state._record(Hit(self.path, dict(self.headers.items())))
        resource = self.state.resources.get(self.path, self.state.fallback)
        if resource is None:
            resource = Resource(b"<html><body>not found</body></html>", "text/html", 404)
        elif resource.protected and not _same_origin(self.headers.get("Referer"),
                                                     self.state.origin):
            resource = Resource(b"<html><body>hotlinking denied</body></html>", "text/html",
                                403)
        self.send_response(resource.status)
        self.send_header("Content-Type", resource.content_type)
        if resource.announce_length:
            self.send_header("Content-Length", str(len(resource.body)))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(resource.body)


def _handler_for(server: ImageServer) -> type[_Handler]:
    return type("Handler", (_Handler,), {"state": server})


def _same_origin(referer: str | None, origin: str) -> bool:
    parts = urlsplit(referer or "")
    return f"{parts.scheme}://{parts.netloc}" == origin


# --- images ----------------------------------------------------------------------------------


def picture(size: tuple[int, int], seed: int = 0) -> Image.Image:
    """A photo-like RGB image (a gradient with shapes: many colours, compresses like a photo)."""
    w, h = size
    img = Image.linear_gradient("L").resize((w, h)).convert("RGB")
    img = Image.merge("RGB", (img.getchannel(0), img.getchannel(1).transpose(
        Image.Transpose.FLIP_LEFT_RIGHT), Image.new("L", (w, h), (seed * 53) % 256)))
    d = ImageDraw.Draw(img)
    for i in range(6):
        x, y = (seed * 97 + i * w // 6) % w, (seed * 31 + i * h // 5) % h
        d.ellipse((x, y, x + w // 5, y + h // 5), fill=((i * 40) % 256, 200 - i * 20, 90))
    return img


def encoded(img: Image.Image, fmt: str, **options: Any) -> bytes:
    out = io.BytesIO()
    img.save(out, fmt, **options)
    return out.getvalue()


def jpeg_bytes(size: tuple[int, int] = (320, 200), seed: int = 0, **options: Any) -> bytes:
    return encoded(picture(size, seed), "JPEG", quality=90, **options)


def png_alpha_bytes(size: tuple[int, int] = (200, 120)) -> bytes:
    """A logo-like PNG: an opaque disc on a transparent background."""
    img = Image.new("RGBA", size, (0, 0, 0, 0))
    ImageDraw.Draw(img).ellipse((10, 10, size[0] - 10, size[1] - 10), fill=(200, 40, 40, 255))
    return encoded(img, "PNG")


def animated_gif_bytes(size: tuple[int, int] = (120, 80), frames: int = 3, seed: int = 0
                       ) -> bytes:
    images = [Image.new("P", size, i) for i in range(frames)]
    for i, img in enumerate(images):
        img.putpalette([v for c in range(256) for v in ((c * 70) % 256, seed % 256,
                                                         (i * 80) % 256)])
    return encoded(images[0], "GIF", save_all=True, append_images=images[1:], duration=100,
                   loop=0)


def png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width``×``height`` pixels with almost no data: a bomb as
    Pillow sees it on open, without building the bytes of a real one."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    idat = zlib.compress(b"\0" * 1024)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")
