"""A moment of a game as a picture (1200 × 630, the size link previews show): the table drawn like
the pages draw it (static/js/table/tableview.js, static/css/table.css), from the same card art
(static/cards/*.svg).

One drawing (`_draw`) and two canvases: `preview_svg` writes it as SVG markup (what tests read,
and a reference renderable by resvg), `preview_png` composes it with Pillow from pieces rendered
once per process by resvg (the felt, each card at each size, the tiles, pips and badges, all
anti-aliased as SVG) and its words in the same fonts: a new picture costs the composing and the
PNG encoding, not a full SVG render (bench_preview measures both).

`preview_svg` draws one frame (games/frames.py) and nothing else: the frame was built for one
perspective, so what it does not hold (another seat's cards, the draw order) cannot be drawn. A
seat's cards are drawn face up only where the frame shows them (`state.hands` of "all", or
`state.hand` of a seat's own perspective); every other hand is card backs and a count.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.card_text import card_name

WIDTH, HEIGHT = 1200, 630
RENDERER_VERSION = "3"  # part of every ETag: bump it when the picture's drawing changes

CARD_IDS = ("back", "cumi", "house", "left", "mini", "right", "strom", "taptap", "zada")

# Seat tiles' centres, by where a seat sits (tableview.js's POSITIONS, for a 1200 × 630 table;
# tests/test_page_copies.py checks the two agree).
TILE_W, TILE_H = 236, 128
CENTRES = {
    "top": (600, 92),
    "top-left": (360, 92),
    "top-right": (840, 92),
    "left": (140, 270),
    "right": (1060, 270),
    "bottom": (600, 448),
}
POSITIONS = {
    1: ["top"],
    2: ["top-left", "top-right"],
    3: ["left", "top", "right"],
    4: ["left", "top-left", "top-right", "right"],
    5: ["left", "top-left", "top", "top-right", "right"],
}
MAX_NAME = 16  # characters of a seat's name drawn (the rest is an ellipsis)
SENTENCE_LINE = 64  # characters of the step's sentence per line, two lines at most
DISCARD_Y = 176  # the discard pile's top: room below it for its words on two lines
DISCARD_LABEL_W = 250  # pixels of the discard pile's words per line

# Fonts: the first family found is the default sans-serif; the card art asks for sans-serif and serif.
FONT_DIRS = [
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/truetype/liberation"),
    Path("/usr/share/fonts/opentype/dejavu"),
]
FONT_FILES = {
    "DejaVu Sans": ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"],
    "DejaVu Serif": ["DejaVuSerif-Bold.ttf"],
    "Liberation Sans": ["LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf"],
    "Liberation Serif": ["LiberationSerif-Bold.ttf"],
}


def _x(text: Any) -> str:
    """Text or an attribute value, escaped for XML (names are whatever their owners typed)."""
    return escape(str(text), {'"': "&quot;"})


def _clip(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def _lines(text: str, width: int, most: int) -> list[str]:
    """`text` broken at spaces into at most `most` lines of `width` characters (an ellipsis if cut)."""
    words, lines, line = " ".join(text.split()).split(" "), [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    lines.append(line)
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = _clip(lines[-1] + " …", width)
    return [_clip(s, width) for s in lines]


@functools.cache
def _card_symbols() -> dict[str, str]:
    """Each card's art as a <symbol> (its ids made unique to it), read once from static/cards/."""
    out = {}
    root = Path(settings.BASE_DIR) / "static" / "cards"
    for card in CARD_IDS:
        text = (root / f"{card}.svg").read_text()
        view_box = re.search(r'viewBox="([^"]+)"', text)
        inner = text[text.index(">") + 1 : text.rindex("</svg>")]
        inner = re.sub(r"<title>.*?</title>", "", inner)
        inner = re.sub(r'id="([^"]+)"', rf'id="{card}-\1"', inner)
        inner = re.sub(r"url\(#([^)]+)\)", rf"url(#{card}-\1)", inner)
        out[card] = (
            f'<symbol id="card-{card}" viewBox="{view_box.group(1) if view_box else "0 0 72 100"}">'
            f"{inner}</symbol>"
        )
    return out


class SvgCanvas:
    """Writes the drawing as SVG markup; the card symbols it used go into <defs>."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.cards: set[str] = set()

    def shape(
        self, markup: str, x: float, y: float, box: Box, cards: Sequence[str] = (), attrs: str = ""
    ) -> None:
        """`markup` drawn in its own coordinates (origin at x, y; within `box`: its left, top,
        width, height), using the card symbols `cards`."""
        self.cards.update(cards)
        self.parts.append(
            f'<g transform="translate({x:g} {y:g})"{attrs}>{markup}</g>' if (x or y or attrs) else markup
        )

    def background(self, markup: str) -> None:
        """`markup` covering the whole picture, opaque: what everything else is drawn on."""
        self.parts.append(markup)

    def text(
        self, x: float, y: float, words: str, size: int, fill: str, bold: bool = False, anchor: str = "start"
    ) -> None:
        """`words` with its baseline at y, starting, centred or ending at x."""
        a = f' text-anchor="{anchor}"' if anchor != "start" else ""
        w = ' font-weight="700"' if bold else ""
        self.parts.append(
            f'<text x="{x:g}" y="{y:g}"{a} font-size="{size}"{w} fill="{fill}">{_x(words)}</text>'
        )

    @contextlib.contextmanager
    def group(self, attrs: str, box: Box, opacity: float = 1.0) -> Iterator[None]:
        """Everything drawn inside as one group (faded to `opacity` as a whole; within `box`)."""
        self.parts.append(f"<g {attrs}" + (f' opacity="{opacity:g}"' if opacity < 1 else "") + ">")
        yield
        self.parts.append("</g>")

    def markup(self) -> str:
        symbols = _card_symbols()
        return "".join(
            [
                f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                f'width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif">',
                "<defs>",
                *(symbols[c] for c in sorted(self.cards) if c in symbols),
                "</defs>",
                *self.parts,
                "</svg>",
            ]
        )


Box = tuple[int, int, int, int]  # left, top, width, height, in a shape's own coordinates


def _svg_of(markup: str, box: Box, cards: Sequence[str]) -> str:
    left, top, w, h = box
    symbols = _card_symbols()
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{w}" '
        f'height="{h}" viewBox="{left} {top} {w} {h}" font-family="sans-serif"><defs>'
        + "".join(symbols[c] for c in sorted(set(cards)) if c in symbols)
        + f"</defs>{markup}</svg>"
    )


@functools.lru_cache(maxsize=512)
def _sprite(markup: str, box: Box, cards: tuple[str, ...]) -> Any:
    """A shape rendered once by resvg, as a Pillow RGBA image of its box."""
    from PIL import Image

    png = render_png(_svg_of(markup, box, cards))
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGBA")


def _fit(text: str, size: int, bold: bool, width: float, most: int = 2) -> list[str]:
    """`text` in at most `most` lines each at most `width` pixels wide in the pictures' font:
    whole if it fits, else broken after its colon first ("Discard pile:" / "Hare Taptap on top"),
    then at spaces; only what still does not fit is cut, with an ellipsis."""
    font = _font(size, bold)

    def fits(line: str) -> bool:
        return bool(font.getlength(line) <= width)

    text = " ".join(text.split())
    head, colon, tail = text.partition(": ")
    parts = [head + ":", tail] if colon and not fits(text) else [text]
    lines: list[str] = []
    for part in parts:
        line = ""
        for word in part.split(" "):
            if line and not fits(f"{line} {word}"):
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    if len(lines) > most:
        lines = [*lines[: most - 1], " ".join(lines[most - 1 :])]
    out = []
    for line in lines:
        while not fits(line) and len(line) > 1:
            line = line[:-2].rstrip() + "…"
        out.append(line)
    return out


@functools.cache
def _font(size: int, bold: bool) -> Any:
    from PIL import ImageFont

    regular, heavy = _pillow_fonts()
    path = heavy if bold else regular
    return ImageFont.truetype(path, size) if path else ImageFont.load_default(size)


def _hex(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


class PillowCanvas:
    """Composes the drawing with Pillow: shapes are sprites rendered once by resvg, words are
    drawn in the same font as resvg's (DejaVu Sans)."""

    ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}

    def __init__(self, size: tuple[int, int] = (WIDTH, HEIGHT)) -> None:
        from PIL import Image, ImageDraw

        self.image = Image.new("RGB", size, _hex(PAPER))
        self.draw = ImageDraw.Draw(self.image)

    def background(self, markup: str) -> None:
        from PIL import ImageDraw

        self.image = _background(markup).copy()  # a copy, not a paste through its alpha: 10× cheaper
        self.draw = ImageDraw.Draw(self.image)

    def shape(
        self, markup: str, x: float, y: float, box: Box, cards: Sequence[str] = (), attrs: str = ""
    ) -> None:
        sprite = _sprite(markup, box, tuple(sorted(set(cards))))
        self.image.paste(sprite, (round(x + box[0]), round(y + box[1])), sprite)

    def text(
        self, x: float, y: float, words: str, size: int, fill: str, bold: bool = False, anchor: str = "start"
    ) -> None:
        self.draw.text((x, y), words, fill=_hex(fill), font=_font(size, bold), anchor=self.ANCHORS[anchor])

    @contextlib.contextmanager
    def group(self, attrs: str, box: Box, opacity: float = 1.0) -> Iterator[None]:
        if opacity >= 1:
            yield
            return
        from PIL import Image

        left, top, w, h = box
        area = (left, top, left + w, top + h)
        under = self.image.crop(area)
        yield
        self.image.paste(Image.blend(under, self.image.crop(area), opacity), area[:2])

    def png(self) -> bytes:
        """The picture as a PNG of 255 colours, the palette's (`_palette`): the table has few, and
        mapping to a known palette costs a third of choosing one per picture."""
        from PIL import Image

        out = io.BytesIO()
        self.image.quantize(palette=_palette(), dither=Image.Dither.NONE).save(
            out, "PNG", compress_level=PNG_LEVEL
        )
        return out.getvalue()


@functools.cache
def _background(markup: str) -> Any:
    return _sprite(markup, (0, 0, WIDTH, HEIGHT), ()).convert("RGB")


@functools.cache
def _palette() -> Any:
    """The pictures' 255 colours, chosen once per process from a sheet of every piece they are
    made of: the felt, each card's art at each size, the tiles in each state, the badges, the words
    in each colour. The 256th index is left free: a clip's pictures mark their unchanged pixels
    with it (transparent), which shrinks a clip to a third."""
    from PIL import Image

    sheet = PillowCanvas((WIDTH, HEIGHT * 2))
    sheet.image.paste(_background(FELT), (0, 0))
    for i, card in enumerate(CARD_IDS):
        _card(sheet, card, 10 + i * 120, HEIGHT + 10, 110)
        _card(sheet, card, 10 + i * 40, HEIGHT + 180, 30)
    tiles = [("#d8d2c4", 2, False, None), ("#c2410c", 4, False, "#fdba74"), ("#b7791f", 4, True, "#fcd34d")]
    for i, (stroke, width, dashed, halo) in enumerate(tiles):
        box = (-6, -6, TILE_W + 12, TILE_H + 12)
        sheet.shape(_tile(stroke, width, dashed, halo), 10 + i * 260, HEIGHT + 240, box)
    for i, colour in enumerate(("#c2410c", "#b7791f", "#b42318", "#1f4f7a")):
        pill = f'<rect x="0" y="0" width="90" height="24" rx="12" fill="{colour}"/>'
        sheet.shape(pill, 800 + i * 95, HEIGHT + 240, (0, 0, 90, 24))
        sheet.text(845 + i * 95, HEIGHT + 257, "Harehra", 14, "#ffffff", True, "middle")
    sheet.shape(SHIELD, 800, HEIGHT + 280, (0, 0, 20, 22))
    sheet.shape(SMALL_BACK, 830, HEIGHT + 280, (-1, -1, 21, 28))
    for i, fill in enumerate(("#2f6b3a", "#fff")):
        sheet.shape(PIP.format(fill), 870 + i * 17, HEIGHT + 290, (-8, -8, 16, 16))
    for i, colour in enumerate(("#1d1b16", "#3b362c", "#4a463c", "#5f5a50", "#2f6b3a")):
        sheet.text(10, HEIGHT + 420 + i * 28, "Harehra Online · Turn 12 · step 345", 20, colour, i % 2 == 0)
        sheet.text(500, HEIGHT + 420 + i * 28, "Harehra Online", 16, "#ffffff", True)
    return sheet.image.quantize(255, method=Image.Quantize.FASTOCTREE)


Canvas = SvgCanvas | PillowCanvas
PAPER = "#fbf8f1"
PNG_LEVEL = 1  # zlib's fastest: a few KB more than its best, in a third of the time


def _card(canvas: Canvas, card: str | None, x: float, y: float, w: int, attrs: str = "") -> None:
    card = card if card in CARD_IDS else "back"
    h = round(w * 100 / 72)
    canvas.shape(
        f'<use href="#card-{card}" x="0" y="0" width="{w}" height="{h}"/>', x, y, (0, 0, w, h), [card], attrs
    )


def seats_in_play_order(count: int, bottom: int | None) -> list[int]:
    start = bottom or 0
    return [(start + i) % count for i in range(count)]


def _deciding_words(kind: str) -> str:
    return {
        "turn": _("taking a turn"),
        "volley": _("answering Hare Cumi"),
        "skip": _("answering a skip"),
        "discard": _("discarding"),
    }.get(kind, "")


PIP = '<circle cx="0" cy="0" r="6" fill="{}" stroke="#2f6b3a" stroke-width="2"/>'
SHIELD = (  # static/img/shield.svg
    '<path d="M10 1l8 3v6c0 5.2-3.4 9.3-8 11-4.6-1.7-8-5.8-8-11V4z" fill="#1f4f7a" stroke="#0b2740" '
    'stroke-width="1.2"/><path d="M10 4.5l5 1.9v3.8c0 3.4-2.1 6.1-5 7.4z" fill="#7fb3e0"/>'
)
SMALL_BACK = (
    '<rect x="1" y="1" width="17" height="24" rx="3" fill="#2f6b3a" stroke="#fbf8f1" stroke-width="2"/>'
    '<rect x="0" y="0" width="19" height="26" rx="4" fill="none" stroke="#1d1b16" stroke-width="1"/>'
)


def _tile(stroke: str, width: int, dashed: bool, halo: str | None) -> str:
    """A seat's tile (its shadow, border and halo) in the tile's own coordinates."""
    dash = ' stroke-dasharray="8 5"' if dashed else ""
    out = ""
    if halo:
        out += f'<rect x="-5" y="-5" width="{TILE_W + 10}" height="{TILE_H + 10}" rx="18" fill="{halo}"/>'
    return out + (
        f'<rect x="2" y="4" width="{TILE_W}" height="{TILE_H}" rx="14" fill="#000" opacity=".25"/>'
        f'<rect x="0" y="0" width="{TILE_W}" height="{TILE_H}" rx="14" fill="#fffdf7" '
        f'stroke="{stroke}" stroke-width="{width}"{dash}/>'
        '<circle cx="28" cy="28" r="19" fill="#e8e1cf"/>'
    )


TILE_BOX: Box = (-8, -8, TILE_W + 16, TILE_H + 28)  # the tile with its halo, shadow and label


def _seat(
    canvas: Canvas,
    p: Mapping[str, Any],
    name: str,
    pos: str,
    state: Mapping[str, Any],
    hand: Sequence[str] | None,
) -> None:
    cx, cy = CENTRES[pos]
    x, y = cx - TILE_W // 2, cy - TILE_H // 2
    awaiting = state.get("awaiting") or None
    over = bool(state.get("over"))
    deciding = not over and awaiting is not None and awaiting.get("seat") == p["seat"]
    winner = over and state.get("winner") == p["seat"]
    out = bool(p.get("eliminated"))
    stroke, width = "#d8d2c4", 2
    if deciding:
        stroke, width = "#c2410c", 4
    elif winner:
        stroke, width = "#b7791f", 4
    halo = "#fdba74" if deciding else "#fcd34d" if winner else None
    left, top, w, h = TILE_BOX
    with canvas.group(f'class="seat" data-seat="{p["seat"]}"', (x + left, y + top, w, h), 0.62 if out else 1):
        canvas.shape(_tile(stroke, width, out, halo), x, y, (-6, -6, TILE_W + 12, TILE_H + 12))
        # avatar, name, shuffler mark
        initial = (name.strip()[:1] or "?").upper()
        canvas.text(x + 28, y + 35, initial, 19, "#3b362c", bold=True, anchor="middle")
        canvas.text(x + 55, y + 34, _clip(name, MAX_NAME), 18, "#1d1b16", bold=True)
        if deciding:
            canvas.shape(
                '<circle cx="0" cy="0" r="23" fill="none" stroke="#c2410c" stroke-width="4"/>',
                x + 28,
                y + 28,
                (-26, -26, 52, 52),
            )
        if state.get("shuffler") == p["seat"]:
            canvas.shape(
                '<circle cx="0" cy="0" r="11" fill="#1f4f7a"/>', x + TILE_W - 18, y + 18, (-12, -12, 24, 24)
            )
            canvas.text(x + TILE_W - 18, y + 23, "S", 13, "#ffffff", bold=True, anchor="middle")
        _hand(canvas, p, x, y, out, hand)
        if not out:
            _limit(canvas, p, x, y)
        # what the seat is doing
        label = _deciding_words(awaiting["kind"]) if deciding and awaiting else _("Winner") if winner else ""
        if label:
            colour = "#c2410c" if deciding else "#b7791f"
            lw = 16 + 9 * len(label)
            canvas.shape(
                f'<rect x="0" y="0" width="{lw}" height="24" rx="12" fill="{colour}"/>',
                x + TILE_W - lw - 12,
                y + TILE_H - 12,
                (0, 0, lw, 24),
            )
            canvas.text(
                x + TILE_W - 12 - lw / 2, y + TILE_H + 5, label, 14, "#ffffff", bold=True, anchor="middle"
            )


def _hand(
    canvas: Canvas, p: Mapping[str, Any], x: float, y: float, out: bool, hand: Sequence[str] | None
) -> None:
    """A seat's hand: faces where the frame shows them, else backs and a count."""
    hy = y + 56
    if out:
        canvas.text(x + 16, hy + 26, _("Out of the game"), 17, "#1d1b16", bold=True)
    elif hand is not None:
        shown = list(hand)[:8]
        step = min(33.0, (TILE_W - 28 - 30 - 22) / max(1, len(shown) - 1)) if len(shown) > 1 else 0
        for i, c in enumerate(shown):
            _card(canvas, c, x + 14 + i * step, hy - 8, 30, f' class="hand-card" data-card="{c}"')
        if len(hand) > len(shown):
            canvas.text(x + TILE_W - 12, hy + 22, f"+{len(hand) - len(shown)}", 14, "#4a463c", True, "end")
    else:
        n = int(p.get("hand_size") or 0)
        for i in range(min(n, 8)):
            canvas.shape(SMALL_BACK, x + 15 + i * 9, hy + 1, (-1, -1, 21, 28))
        tx = x + 16 + min(n, 8) * 9 + (18 if n else 0)
        canvas.text(tx, hy + 20, ngettext("%(n)s card", "%(n)s cards", n) % {"n": n}, 16, "#4a463c")


def _limit(canvas: Canvas, p: Mapping[str, Any], x: float, y: float) -> None:
    """Hand limit pips (the capacity of the full limit) and the shield."""
    capacity = int(p.get("max_hand") or 0)
    full = capacity + int(p.get("damage") or 0)
    py = y + TILE_H - 20
    for i in range(full):
        canvas.shape(PIP.format("#2f6b3a" if i < capacity else "#fff"), x + 22 + i * 17, py, (-8, -8, 16, 16))
    if p.get("protected"):
        canvas.shape(SHIELD, x + 22 + full * 17, py - 11, (0, 0, 20, 22))


FELT = (  # flat colours: a gradient costs resvg more than the rest of the picture
    f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{PAPER}"/>'
    '<rect x="8" y="8" width="1184" height="532" rx="42" fill="#2a6235" stroke="#6b4526" stroke-width="10"/>'
    '<ellipse cx="600" cy="285" rx="430" ry="150" fill="#3d8a4b" fill-opacity=".45"/>'
)
DASHED_SPOT = (
    '<rect x="0" y="0" width="{w}" height="{h}" rx="{r}" fill="none" stroke="#fff" stroke-opacity=".5" '
    'stroke-width="2" stroke-dasharray="6 5"/>'
)


def _felt(canvas: Canvas, state: Mapping[str, Any]) -> None:
    canvas.background(FELT)
    cw = state.get("direction") != "ccw"
    # (words outside f-strings: makemessages finds no call inside one)
    direction = "↻ " + _("Clockwise") if cw else "↺ " + _("Counterclockwise")
    canvas.text(
        272,
        372,
        direction,
        16,
        "#ffffff",
        True,
    )
    n = int(state.get("draw_pile_size") or 0)
    if n:
        canvas.shape(
            '<rect x="6" y="6" width="80" height="111" rx="8" fill="#0f2e17"/>'
            '<rect x="4" y="4" width="80" height="111" rx="8" fill="#174021"/>'
            '<use href="#card-back" x="0" y="0" width="80" height="111"/>',
            458,
            204,
            (0, 0, 88, 120),
            ["back"],
        )
    else:
        canvas.shape(DASHED_SPOT.format(w=80, h=111, r=8), 458, 204, (-2, -2, 84, 115))
    draw_pile = ngettext("Draw pile: %(n)s card", "Draw pile: %(n)s cards", n) % {"n": n}
    canvas.text(490, 346, draw_pile, 15, "#ffffff", True, "middle")
    top = state.get("discard_top")
    if top:
        card = top if top in CARD_IDS else "back"
        canvas.shape(
            '<g transform="rotate(-3 55 74)"><rect x="4" y="8" width="110" height="153" rx="10" fill="#000" '
            f'opacity=".3"/><use href="#card-{card}" x="0" y="0" width="110" height="153" '
            f'class="discard-top"/></g>',
            640,
            DISCARD_Y,
            (-12, -12, 140, 180),
            [card],
        )
        label = _("Discard pile: %(card)s on top") % {"card": card_name(top)}
    else:
        canvas.shape(DASHED_SPOT.format(w=110, h=153, r=10), 640, DISCARD_Y, (-2, -2, 114, 157))
        label = _("Discard pile: empty")
    # Up to two lines between the draw pile's words and the right-hand seat, above the bottom
    # seat's tile (its top at y 384): "Discard pile:" over "Hare Taptap on top", in any language.
    lines = _fit(label, 15, True, DISCARD_LABEL_W)
    for i, line in enumerate(lines):
        canvas.text(720, (360 if len(lines) == 1 else 354) + 18 * i, line, 15, "#ffffff", True, "middle")


def _draw(canvas: Canvas, frame: Mapping[str, Any], names: Sequence[str], live: bool) -> None:
    """The drawing of `frame` (games/frames.py), seats named `names`; `live`: a running game's."""
    state = frame["state"]
    players = state["players"]
    hands: list[list[str] | None] = [None] * len(players)
    if state.get("hands") is not None:  # "all": a finished game's replay, every hand shown
        hands = [list(h) for h in state["hands"]]
    elif state.get("seat") is not None and state.get("hand") is not None:  # one seat's own view
        hands[state["seat"]] = list(state["hand"])
    bottom = state.get("seat") if state.get("seat") is not None else 0
    order = seats_in_play_order(len(players), bottom)
    others = order[1:]
    positions = POSITIONS.get(len(others), ["top"] * len(others))
    seat_name = {
        i: (names[i] if i < len(names) else _("Seat %(n)s") % {"n": i + 1}) for i in range(len(players))
    }
    _felt(canvas, state)
    for seat, pos in zip(others, positions, strict=False):
        _seat(canvas, players[seat], seat_name[seat], pos, state, hands[seat])
    if order:
        _seat(canvas, players[order[0]], seat_name[order[0]], "bottom", state, hands[order[0]])
    if live:
        canvas.shape(
            '<rect x="0" y="0" width="86" height="30" rx="15" fill="#b42318"/>', 30, 24, (0, 0, 86, 30)
        )
        canvas.text(73, 45, "● " + _("Live"), 16, "#ffffff", True, "middle")
    # the step's sentence, and where in the game it is
    lines = _lines(str(frame.get("text") or ""), SENTENCE_LINE, 2)
    y0 = 584 if len(lines) == 1 else 572
    for i, line in enumerate(lines):
        canvas.text(26, y0 + i * 30, line, 24, "#1d1b16", True)
    where = _("Turn %(turn)s · step %(step)s") % {
        "turn": frame.get("turn_number", 0),
        "step": frame.get("step", 0),
    }
    canvas.text(1176, 574, "Harehra Online", 18, "#2f6b3a", True, "end")
    canvas.text(1176, 600, where, 16, "#5f5a50", anchor="end")


def preview_svg(frame: Mapping[str, Any], names: Sequence[str], live: bool = False) -> str:
    """The SVG markup of `frame` (games/frames.py), seats named `names`; `live`: a running game's."""
    canvas = SvgCanvas()
    _draw(canvas, frame, names, live)
    return canvas.markup()


def preview_png(frame: Mapping[str, Any], names: Sequence[str], live: bool = False) -> bytes:
    """The same drawing as `preview_svg`, composed with Pillow, as a PNG."""
    canvas = PillowCanvas()
    _draw(canvas, frame, names, live)
    return canvas.png()


@functools.cache
def _fonts() -> tuple[list[str], str | None, str | None]:
    """The font files to load, the sans-serif family and the serif one (none found: the system's)."""
    files: list[str] = []
    sans = serif = None
    for family, names in FONT_FILES.items():
        found = [str(d / n) for n in names for d in FONT_DIRS if (d / n).is_file()]
        if len(found) == len(names):
            files += found
            if "Serif" in family:
                serif = serif or family
            else:
                sans = sans or family
    return files, sans, serif


@functools.cache
def _pillow_fonts() -> tuple[str | None, str | None]:
    """The regular and bold sans-serif font files Pillow draws words with (resvg's family)."""
    files, sans, _serif = _fonts()
    if not sans:
        return None, None
    regular, bold = FONT_FILES[sans]
    pick = {Path(f).name: f for f in files}
    return pick.get(regular), pick.get(bold)


def render_png(svg: str) -> bytes:
    """The SVG rendered to PNG with resvg (fonts from FONT_DIRS, else the system's)."""
    import resvg_py

    files, sans, serif = _fonts()
    options: dict[str, Any] = {"svg_string": svg, "font_family": sans or "sans-serif"}
    if files and sans:
        options.update(skip_system_fonts=True, font_files=files, sans_serif_family=sans)
        if serif:
            options["serif_family"] = serif
    if os.environ.get("PREVIEW_RESVG_LOG"):
        options["log_information"] = True
    return bytes(resvg_py.svg_to_bytes(**options))


STEP_MS = 900  # a step's time in the replay's playback at 1× (static/js/table/replaysteps.js)
LAST_STEP_MS = 2700  # the clip's last step stays a while before it starts again


def clip_gif(frames: Sequence[Mapping[str, Any]], names: Sequence[str], live: bool = False) -> bytes:
    """`frames` (games/frames.py) as an animated GIF: one picture per step with its sentence, each
    shown as long as the replay plays it, looping; every picture on the one palette, so Pillow's
    GIF writer stores only the region that changed from the picture before, its unchanged pixels
    there transparent (the palette's free index; `optimize`)."""
    from PIL import Image

    pictures = []
    for frame in frames:
        canvas = PillowCanvas()
        _draw(canvas, frame, names, live)
        pictures.append(canvas.image.quantize(palette=_palette(), dither=Image.Dither.NONE))
    out = io.BytesIO()
    pictures[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=pictures[1:],
        duration=[STEP_MS] * (len(pictures) - 1) + [LAST_STEP_MS],
        loop=0,
        optimize=True,
    )
    return out.getvalue()
