"""A moment of a game as a picture (1200 × 630, the size link previews show): the table drawn like
the pages draw it (static/js/table/tableview.js, static/css/table.css), from the same card art
(static/cards/*.svg), as SVG markup, then rendered to PNG with resvg.

`preview_svg` draws one frame (games/frames.py) and nothing else: the frame was built for one
perspective, so what it does not hold (another seat's cards, the draw order) cannot be drawn. A
seat's cards are drawn face up only where the frame shows them (`state.hands` of "all", or
`state.hand` of a seat's own perspective); every other hand is card backs and a count.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.card_text import card_name

WIDTH, HEIGHT = 1200, 630
RENDERER_VERSION = "1"  # part of every ETag: bump it when the picture's drawing changes

CARD_IDS = ("back", "cumi", "house", "left", "mini", "right", "strom", "taptap", "zada")

# Seat tiles' centres, by where a seat sits (tableview.js's POSITIONS, for a 1200 × 630 table).
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


def _card(card: str | None, x: float, y: float, w: float, extra: str = "") -> str:
    card = card if card in CARD_IDS else "back"
    h = w * 100 / 72
    return f'<use href="#card-{card}" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}"{extra}/>'


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


def _seat(
    p: Mapping[str, Any], name: str, pos: str, state: Mapping[str, Any], hand: Sequence[str] | None
) -> str:
    cx, cy = CENTRES[pos]
    x, y = cx - TILE_W / 2, cy - TILE_H / 2
    awaiting = state.get("awaiting") or None
    over = bool(state.get("over"))
    deciding = not over and awaiting is not None and awaiting.get("seat") == p["seat"]
    winner = over and state.get("winner") == p["seat"]
    out = p.get("eliminated")
    stroke, width, dash = "#d8d2c4", 2, ""
    if deciding:
        stroke, width = "#c2410c", 4
    elif winner:
        stroke, width = "#b7791f", 4
    if out:
        dash = ' stroke-dasharray="8 5"'
    parts = [f'<g class="seat" data-seat="{p["seat"]}"' + (' opacity="0.62"' if out else "") + ">"]
    if deciding or winner:
        halo = "#fdba74" if deciding else "#fcd34d"
        parts.append(
            f'<rect x="{x - 5}" y="{y - 5}" width="{TILE_W + 10}" height="{TILE_H + 10}" rx="18" '
            f'fill="{halo}"/>'
        )
    parts.append(
        f'<rect x="{x + 2}" y="{y + 4}" width="{TILE_W}" height="{TILE_H}" rx="14" fill="#000" '
        'opacity=".25"/>'
        f'<rect x="{x}" y="{y}" width="{TILE_W}" height="{TILE_H}" rx="14" fill="#fffdf7" '
        f'stroke="{stroke}" stroke-width="{width}"{dash}/>'
    )
    # avatar, name, shuffler mark
    initial = (name.strip()[:1] or "?").upper()
    parts.append(
        f'<circle cx="{x + 28}" cy="{y + 28}" r="19" fill="#e8e1cf"/>'
        f'<text x="{x + 28}" y="{y + 35}" text-anchor="middle" font-size="19" font-weight="700" '
        f'fill="#3b362c">{_x(initial)}</text>'
        f'<text x="{x + 55}" y="{y + 34}" font-size="18" font-weight="700" fill="#1d1b16">'
        f"{_x(_clip(name, MAX_NAME))}</text>"
    )
    if deciding:
        parts.append(
            f'<circle cx="{x + 28}" cy="{y + 28}" r="23" fill="none" stroke="#c2410c" stroke-width="4"/>'
        )
    if state.get("shuffler") == p["seat"]:
        parts.append(
            f'<circle cx="{x + TILE_W - 18}" cy="{y + 18}" r="11" fill="#1f4f7a"/>'
            f'<text x="{x + TILE_W - 18}" y="{y + 23}" text-anchor="middle" font-size="13" '
            f'font-weight="700" fill="#fff">S</text>'
        )
    # the hand: faces where the frame shows them, else backs and a count
    hy = y + 56
    if out:
        parts.append(
            f'<text x="{x + 16}" y="{hy + 26}" font-size="17" font-weight="700" fill="#1d1b16">'
            f"{_x(_('Out of the game'))}</text>"
        )
    elif hand is not None:
        shown = list(hand)[:8]
        step = min(33.0, (TILE_W - 28 - 30 - 22) / max(1, len(shown) - 1)) if len(shown) > 1 else 0
        for i, c in enumerate(shown):
            parts.append(_card(c, x + 14 + i * step, hy - 8, 30, f' class="hand-card" data-card="{c}"'))
        if len(hand) > len(shown):
            parts.append(
                f'<text x="{x + TILE_W - 12}" y="{hy + 22}" text-anchor="end" font-size="14" '
                f'font-weight="700" fill="#4a463c">+{len(hand) - len(shown)}</text>'
            )
    else:
        n = int(p.get("hand_size") or 0)
        for i in range(min(n, 8)):
            parts.append(
                f'<rect x="{x + 16 + i * 9}" y="{hy + 2}" width="17" height="24" rx="3" fill="#2f6b3a" '
                f'stroke="#fbf8f1" stroke-width="2"/>'
                f'<rect x="{x + 15 + i * 9}" y="{hy + 1}" width="19" height="26" rx="4" fill="none" '
                f'stroke="#1d1b16" stroke-width="1"/>'
            )
        tx = x + 16 + min(n, 8) * 9 + (18 if n else 0)
        parts.append(
            f'<text x="{tx}" y="{hy + 20}" font-size="16" fill="#4a463c">'
            f"{_x(ngettext('%(n)s card', '%(n)s cards', n) % {'n': n})}</text>"
        )
    # hand limit pips (capacity of the full limit) and the shield
    if not out:
        capacity = int(p.get("max_hand") or 0)
        full = capacity + int(p.get("damage") or 0)
        py = y + TILE_H - 20
        for i in range(full):
            fill = "#2f6b3a" if i < capacity else "#fff"
            parts.append(
                f'<circle cx="{x + 22 + i * 17}" cy="{py}" r="6" fill="{fill}" stroke="#2f6b3a" '
                'stroke-width="2"/>'
            )
        if p.get("protected"):
            sx = x + 22 + full * 17
            parts.append(
                f'<g transform="translate({sx} {py - 11})">'  # static/img/shield.svg
                '<path d="M10 1l8 3v6c0 5.2-3.4 9.3-8 11-4.6-1.7-8-5.8-8-11V4z" '
                'fill="#1f4f7a" stroke="#0b2740" stroke-width="1.2"/>'
                '<path d="M10 4.5l5 1.9v3.8c0 3.4-2.1 6.1-5 7.4z" fill="#7fb3e0"/></g>'
            )
    # what the seat is doing
    label = _deciding_words(awaiting["kind"]) if deciding and awaiting else _("Winner") if winner else ""
    if label:
        colour = "#c2410c" if deciding else "#b7791f"
        w = 16 + 9 * len(label)
        parts.append(
            f'<rect x="{x + TILE_W - w - 12}" y="{y + TILE_H - 12}" width="{w}" height="24" rx="12" '
            f'fill="{colour}"/>'
            f'<text x="{x + TILE_W - 12 - w / 2}" y="{y + TILE_H + 5}" text-anchor="middle" font-size="14" '
            f'font-weight="700" fill="#fff">{_x(label)}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def _felt(state: Mapping[str, Any]) -> str:
    parts = []
    cw = state.get("direction") != "ccw"
    parts.append(
        f'<text x="272" y="372" font-size="16" font-weight="700" fill="#fff">'
        f"{'↻' if cw else '↺'} {_x(_('Clockwise') if cw else _('Counterclockwise'))}</text>"
    )
    n = int(state.get("draw_pile_size") or 0)
    if n:
        parts.append(
            '<rect x="464" y="210" width="80" height="111" rx="8" fill="#0f2e17"/>'
            '<rect x="462" y="208" width="80" height="111" rx="8" fill="#174021"/>'
            + _card("back", 458, 204, 80)
        )
    else:
        parts.append(
            '<rect x="458" y="204" width="80" height="111" rx="8" fill="none" stroke="#fff" '
            'stroke-opacity=".5" stroke-width="2" stroke-dasharray="6 5"/>'
        )
    parts.append(
        f'<text x="490" y="346" text-anchor="middle" font-size="15" font-weight="700" fill="#fff">'
        f"{_x(ngettext('Draw pile: %(n)s card', 'Draw pile: %(n)s cards', n) % {'n': n})}</text>"
    )
    top = state.get("discard_top")
    if top:
        parts.append(
            '<g transform="rotate(-3 695 262)"><rect x="644" y="196" width="110" height="153" rx="10" '
            'fill="#000" opacity=".3"/>' + _card(top, 640, 188, 110, ' class="discard-top"') + "</g>"
        )
        label = _("Discard pile: %(card)s on top") % {"card": card_name(top)}
    else:
        parts.append(
            '<rect x="640" y="188" width="110" height="153" rx="10" fill="none" stroke="#fff" '
            'stroke-opacity=".5" stroke-width="2" stroke-dasharray="6 5"/>'
        )
        label = _("Discard pile: empty")
    parts.append(
        f'<text x="720" y="370" text-anchor="middle" font-size="15" font-weight="700" fill="#fff">'
        f"{_x(_clip(label, 30))}</text>"
    )
    return "".join(parts)


def preview_svg(frame: Mapping[str, Any], names: Sequence[str], live: bool = False) -> str:
    """The SVG markup of `frame` (games/frames.py), seats named `names`; `live`: a running game's."""
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
    used = {"back"} | {c for h in hands if h for c in h[:8]}
    if state.get("discard_top"):
        used.add(state["discard_top"])
    symbols = _card_symbols()
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif">',
        "<defs>",
        *(symbols[c] for c in sorted(used) if c in symbols),
        "</defs>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fbf8f1"/>',
        # the felt: flat colours (a gradient costs resvg more than the rest of the picture)
        '<rect x="8" y="8" width="1184" height="532" rx="42" fill="#2a6235" stroke="#6b4526" '
        'stroke-width="10"/>'
        '<ellipse cx="600" cy="285" rx="430" ry="150" fill="#3d8a4b" fill-opacity=".45"/>',
        _felt(state),
    ]
    for seat, pos in zip(others, positions, strict=False):
        parts.append(_seat(players[seat], seat_name[seat], pos, state, hands[seat]))
    if order:
        parts.append(_seat(players[order[0]], seat_name[order[0]], "bottom", state, hands[order[0]]))
    if live:
        parts.append(
            '<rect x="30" y="24" width="86" height="30" rx="15" fill="#b42318"/>'
            f'<text x="73" y="45" text-anchor="middle" font-size="16" font-weight="700" fill="#fff">'
            f"● {_x(_('Live'))}</text>"
        )
    # the step's sentence, and where in the game it is
    lines = _lines(str(frame.get("text") or ""), SENTENCE_LINE, 2)
    y0 = 584 if len(lines) == 1 else 572
    for i, line in enumerate(lines):
        parts.append(
            f'<text x="26" y="{y0 + i * 30}" font-size="24" font-weight="700" fill="#1d1b16">'
            f"{_x(line)}</text>"
        )
    where = _("Turn %(turn)s · step %(step)s") % {
        "turn": frame.get("turn_number", 0),
        "step": frame.get("step", 0),
    }
    parts.append(
        '<text x="1176" y="574" text-anchor="end" font-size="18" font-weight="700" fill="#2f6b3a">'
        "Harehra Online</text>"
        f'<text x="1176" y="600" text-anchor="end" font-size="16" fill="#5f5a50">{_x(where)}</text>'
        "</svg>"
    )
    return "".join(parts)


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
