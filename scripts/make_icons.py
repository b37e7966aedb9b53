"""Draws the installed app's icons (the web app manifest: webpush/views.py) from the card art:
the hare of static/cards/right.svg, the site's logo, on the site's green. Run from the project
root after changing the art: `python scripts/make_icons.py`; commit the pictures it writes.

- static/img/icon-192.png, icon-512.png: the card on a rounded square (purpose "any");
- static/img/icon-maskable-512.png: the square filled to its edges, the card within the middle
  80% a launcher may keep when it cuts the icon to its own shape (purpose "maskable").
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import resvg_py
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
CARD = ROOT / "static" / "cards" / "right.svg"
OUT = ROOT / "static" / "img"
GREEN = "#2f6b3a"  # static/css/site.css --accent
CARD_W, CARD_H = 72, 100


def card_markup() -> str:
    """The card's drawing without its outer <svg> and title."""
    svg = CARD.read_text()
    inner = svg[svg.index(">", svg.index("<svg")) + 1 : svg.rindex("</svg>")]
    return re.sub(r"<title>.*?</title>", "", inner, flags=re.S)


def icon_svg(size: int, *, maskable: bool) -> str:
    # The card's height as a share of the icon: within the maskable safe zone (a circle of 80%).
    share = 0.56 if maskable else 0.74
    h = size * share
    w = h * CARD_W / CARD_H
    x, y = (size - w) / 2, (size - h) / 2
    radius = 0 if maskable else size * 0.18
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}">'
        f'<rect width="{size}" height="{size}" rx="{radius}" fill="{GREEN}"/>'
        f'<svg x="{x}" y="{y}" width="{w}" height="{h}" viewBox="0 0 {CARD_W} {CARD_H}">{card_markup()}</svg>'
        "</svg>"
    )


def render(size: int, *, maskable: bool) -> Image.Image:
    png = bytes(resvg_py.svg_to_bytes(svg_string=icon_svg(size, maskable=maskable)))
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGBA")


def main() -> None:
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("icon-maskable-512.png", 512, True),
    ):
        image = render(size, maskable=maskable)
        assert image.size == (size, size), image.size
        image.save(OUT / name, optimize=True)
        print(f"{OUT / name}: {size}x{size}")


if __name__ == "__main__":
    main()
