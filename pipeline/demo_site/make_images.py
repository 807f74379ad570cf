"""Draw the demo site's images with Pillow; run once, the outputs are committed.

Committed files rather than images drawn at server start: the server stays stdlib-only and the
bytes (hence the asset stage's sha256 file names) stay the same across Pillow versions. The set
covers what the asset stage meets: JPEG, PNG with alpha, GIF, WebP, a 1×1 lazy-load placeholder,
a JPEG whose EXIF says "rotate me", and one picture wider than the 1600 px resize limit.
Run: ``python -m pipeline.demo_site.make_images`` (total output stays well under 300 KB).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageDraw

SITE = Path(__file__).resolve().parent / "site"
EXIF_ORIENTATION = 0x0112
ROTATE_90_CW = 6  # EXIF: the viewer must turn the stored pixels 90° clockwise

Scene = Callable[[ImageDraw.ImageDraw, int, int], None]


def _gradient(size: tuple[int, int], top: tuple[int, int, int], bottom: tuple[int, int, int]
              ) -> Image.Image:
    """A vertical two-colour gradient: smooth, so it compresses small."""
    w, h = size
    column = Image.new("RGB", (1, h))
    for y in range(h):
        t = y / max(h - 1, 1)
        shade = tuple(round(a + (b - a) * t) for a, b in zip(top, bottom, strict=True))
        column.putpixel((0, y), shade)
    return column.resize((w, h))


def _arch(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    d.rectangle((0, h * 0.72, w, h), fill=(90, 120, 150))
    d.pieslice((w * 0.2, h * 0.3, w * 0.8, h * 1.1), 180, 360, fill=(150, 140, 120))
    d.pieslice((w * 0.28, h * 0.42, w * 0.72, h * 1.02), 180, 360, fill=(200, 225, 240))
    d.rectangle((w * 0.1, h * 0.42, w * 0.9, h * 0.48), fill=(120, 110, 95))


def _thrust(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    d.arc((w * 0.15, h * 0.2, w * 0.85, h * 1.2), 180, 360, fill=(60, 60, 60), width=6)
    for x0, x1 in ((0.3, 0.15), (0.7, 0.85)):
        d.line((w * x0, h * 0.5, w * x1, h * 0.9), fill=(200, 40, 40), width=4)
    d.text((10, 10), "thrust lines", fill=(20, 20, 20))


def _bike(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    r = h * 0.2
    for cx in (w * 0.3, w * 0.7):
        d.ellipse((cx - r, h * 0.6 - r, cx + r, h * 0.6 + r), outline=(30, 30, 30), width=5)
    d.line((w * 0.3, h * 0.6, w * 0.45, h * 0.35, w * 0.62, h * 0.35, w * 0.7, h * 0.6),
           fill=(180, 30, 30), width=5)


def _cup(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    d.polygon([(w * 0.35, h * 0.3), (w * 0.65, h * 0.3), (w * 0.58, h * 0.8), (w * 0.42, h * 0.8)],
              fill=(240, 240, 235))
    d.ellipse((w * 0.37, h * 0.27, w * 0.63, h * 0.36), fill=(90, 55, 30))


def _stalls(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    colours = [(220, 80, 60), (240, 180, 60), (80, 160, 90), (70, 110, 200)]
    for i in range(8):
        x = w * (0.04 + i * 0.12)
        d.rectangle((x, h * 0.45, x + w * 0.1, h * 0.85), fill=colours[i % 4])
        d.ellipse((x + w * 0.03, h * 0.2, x + w * 0.07, h * 0.28), fill=(255, 210, 90))


def _canal(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    d.rectangle((0, h * 0.55, w, h), fill=(60, 100, 110))
    d.polygon([(0, h * 0.55), (w * 0.3, h * 0.4), (w * 0.3, h * 0.55)], fill=(110, 90, 80))
    d.polygon([(w, h * 0.55), (w * 0.7, h * 0.38), (w * 0.7, h * 0.55)], fill=(110, 90, 80))
    for i in range(5):
        x = w * (0.35 + i * 0.06)
        d.ellipse((x, h * 0.6, x + w * 0.02, h * 0.63), fill=(230, 230, 60))


def _sign(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    d.rectangle((w * 0.1, h * 0.2, w * 0.9, h * 0.55), fill=(30, 30, 30))
    for i in range(4):
        x = w * (0.18 + i * 0.18)
        d.rectangle((x, h * 0.28, x + w * 0.1, h * 0.47), fill=(230, 190, 80))


def _press(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    d.rectangle((w * 0.2, h * 0.3, w * 0.8, h * 0.9), fill=(50, 50, 55))
    d.ellipse((w * 0.6, h * 0.1, w * 0.95, h * 0.45), outline=(140, 140, 140), width=8)
    for i in range(6):
        d.rectangle((w * (0.25 + i * 0.09), h * 0.4, w * (0.31 + i * 0.09), h * 0.5),
                    fill=(200, 200, 190))


def _boxes(*labels: str) -> Scene:
    """Labelled boxes joined by arrows: a docs diagram."""

    def draw(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
        step = (w - 40) // len(labels)
        for i, label in enumerate(labels):
            x = 20 + i * step
            d.rectangle((x, h * 0.35, x + step * 0.8, h * 0.65), outline=(40, 80, 160), width=3)
            d.text((x + 8, h * 0.45), label, fill=(40, 80, 160))
            if i:
                d.line((x - step * 0.2, h * 0.5, x, h * 0.5), fill=(40, 40, 40), width=3)

    return draw


def _scene(size: tuple[int, int], sky: tuple[int, int, int], ground: tuple[int, int, int],
           draw: Scene, label: str) -> Image.Image:
    img = _gradient(size, sky, ground)
    d = ImageDraw.Draw(img)
    draw(d, *size)
    d.text((8, size[1] - 16), label, fill=(255, 255, 255))
    return img


def _indexed(img: Image.Image) -> Image.Image:
    """A 32-colour palette image without dithering (dither noise would triple the size)."""
    return img.quantize(32, dither=Image.Dither.NONE)


def _avatar(colour: tuple[int, int, int]) -> Image.Image:
    img = Image.new("RGBA", (48, 48), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((2, 2, 46, 46), fill=colour + (255,))
    d.ellipse((16, 10, 32, 26), fill=(255, 255, 255, 230))
    return img


def _diagram(size: tuple[int, int], draw: Scene) -> Image.Image:
    """A line drawing on a transparent background: the asset stage must flatten the alpha."""
    img = Image.new("RGBA", size, (255, 255, 255, 0))
    draw(ImageDraw.Draw(img), *size)
    return img


def build() -> dict[str, Image.Image]:
    """Every image, by its path under ``site/``."""
    warm, dusk = (250, 220, 170), (60, 50, 90)
    sky, earth = (170, 205, 235), (120, 150, 110)
    market = _scene((960, 640), dusk, (30, 25, 40), _stalls, "night market")
    canal = _scene((2400, 1600), sky, (70, 100, 100), _canal, "canal, full size")
    return {
        "img/blank.gif": Image.new("P", (1, 1), 0),
        "img/site/logo.png": _scene((160, 40), (40, 60, 90), (40, 60, 90), lambda *a: None, "KB"),
        "img/bridges/arch-thrust.png": _diagram((640, 360), _thrust),
        "img/bridges/covered-bridge.jpg": _scene((800, 450), sky, earth, _arch, "covered bridge"),
        "img/portal/brick-tea.jpg": _scene((400, 300), warm, (120, 80, 50), _sign, "brick tea"),
        "img/portal/winter-bike.jpg": _scene((400, 300), (225, 230, 240), (250, 250, 250),
                                             _bike, "winter"),
        "img/portal/banner.gif": _indexed(_scene((468, 60), (200, 30, 30), (250, 120, 30),
                                                 lambda *a: None, "AD")),
        "img/blog/tube-patch.jpg": _scene((720, 480), sky, earth, _bike, "roadside repair"),
        "img/blog/pour-over.jpg": _scene((720, 480), warm, (150, 110, 80), _cup, "pour-over"),
        "img/blog/avatar-1.png": _avatar((200, 90, 90)),
        "img/blog/avatar-2.png": _avatar((90, 150, 200)),
        "img/blog/avatar-3.png": _avatar((120, 180, 100)),
        "img/docs/borrow-graph.png": _diagram((640, 300), _boxes("owner", "&T", "&mut T")),
        "img/docs/generator-pipeline.png": _diagram((640, 240),
                                                    _boxes("source", "filter", "map", "sink")),
        "img/news/market-480.jpg": market.resize((480, 320)),
        "img/news/market-960.jpg": market,
        "img/news/market-960.webp": market,
        "img/news/lanterns.jpg": _scene((640, 427), dusk, (20, 20, 30), _stalls, "lanterns"),
        "img/news/stalls.png": _indexed(_scene((480, 320), warm, dusk, _stalls, "stalls")),
        "img/news/canal-480.jpg": canal.resize((480, 320)),
        "img/news/canal-1200.jpg": canal.resize((1200, 800)),
        "img/news/canal-2400.jpg": canal,
        "img/news/canal-1200.webp": canal.resize((1200, 800)),
        "img/news/volunteers.gif": _indexed(_scene((480, 320), sky, earth, _canal, "volunteers")),
        "protected/signboard.jpg": _scene((800, 533), (90, 80, 70), (40, 35, 30), _sign,
                                          "signboard"),
        "protected/signboard-detail.png": _scene((400, 300), (90, 80, 70), (40, 35, 30), _sign,
                                                 "detail"),
        "protected/press.jpg": _scene((800, 533), (230, 225, 210), (120, 110, 100), _press,
                                      "press"),
        "protected/type-case.jpg": _scene((600, 400), (200, 170, 130), (100, 80, 60), _press,
                                          "type case"),
    }


def save(rel: str, img: Image.Image) -> Path:
    path = SITE / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if rel == "img/blog/tube-patch.jpg":
        # Stored on its side with an EXIF note, as phone cameras do.
        exif = Image.Exif()
        exif[EXIF_ORIENTATION] = ROTATE_90_CW
        img.rotate(90, expand=True).save(path, quality=75, exif=exif)
    elif path.suffix == ".jpg":
        img.convert("RGB").save(path, quality=70, optimize=True)
    elif path.suffix == ".webp":
        img.save(path, quality=60)
    elif rel == "img/blank.gif":
        img.save(path, transparency=0)
    else:
        img.save(path, optimize=True)
    return path


def main() -> None:
    total = 0
    for rel, img in build().items():
        size = save(rel, img).stat().st_size
        total += size
        print(f"{size:>8}  {rel}")
    print(f"{total:>8}  total bytes")


if __name__ == "__main__":
    main()
