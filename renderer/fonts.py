"""Text for the renderer, with a font that is the same on every machine.

The only face used is the one bundled inside Pillow (``ImageFont.load_default(size=...)``,
the Aileron sans serif). No system font is ever looked up, so a map renders the same on a
laptop, a server and CI. Bold is the regular face drawn twice, a pixel apart.

That face covers printable ASCII and a few marks only, so text is folded to what it can
print (:func:`printable`): accents are dropped and dashes become hyphens.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont


@lru_cache(maxsize=128)
def font(size: float) -> Font:
    """The bundled face at ``size`` pixels (at least 6)."""
    loaded = ImageFont.load_default(size=max(6, round(size)))
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow without FreeType
        raise RuntimeError("Pillow was built without FreeType; the map renderer needs it.")
    return loaded


_FOLD = str.maketrans(
    {
        "\u2212": "-",
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u00df": "ss",
        "\u00e6": "ae",
        "\u00c6": "AE",
        "\u0153": "oe",
        "\u0152": "OE",
        "\u00f8": "o",
        "\u00d8": "O",
        "\u0131": "i",
        "\u00a0": " ",
    }
)
_EXTRA = set(
    "\u00a9\u00ab\u00b0\u00b1\u00b4\u00b7\u00bb\u2018\u2019\u201c\u201d\u2026\u2039\u203a\u2044\u2122"
)


@lru_cache(maxsize=4096)
def printable(text: str) -> str:
    """``text`` with every character the bundled face lacks replaced by its nearest ASCII
    (``"Médenine"`` -> ``"Medenine"``, a minus sign -> ``"-"``), or by ``"?"``."""
    out = []
    for ch in unicodedata.normalize("NFKD", text.translate(_FOLD)):
        if " " <= ch <= "~" or ch in _EXTRA:
            out.append(ch)
        elif unicodedata.combining(ch):
            continue
        elif ch in "\n\t":
            out.append(" ")
        else:
            out.append("?")
    return "".join(out)


def width_of(text: str, f: Font, bold: bool = False) -> float:
    return _length(text, f.size) + (_bold_offset(f) if bold else 0)


@lru_cache(maxsize=8192)
def _length(text: str, size: int) -> float:
    return font(size).getlength(printable(text))


def _bold_offset(f: Font) -> int:
    return max(1, round(f.size / 18))


def fit(text: str, max_width: float, size: float, min_size: float = 7, bold: bool = False) -> Font:
    """The largest font from ``size`` down to ``min_size`` in which ``text`` fits."""
    return font(_fit_size(text, round(max_width, 1), round(size), min_size, bold))


@lru_cache(maxsize=4096)
def _fit_size(text: str, max_width: float, size: int, min_size: float, bold: bool) -> int:
    s = size
    while s > min_size and width_of(text, font(s), bold) > max_width:
        s -= 1
    return s


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    f: Font,
    fill: str | tuple[int, ...],
    anchor: str = "mm",
    bold: bool = False,
    halo: str | tuple[int, ...] | None = None,
) -> None:
    """Text at ``xy`` (Pillow anchor, default centred). ``halo`` outlines it for contrast."""
    text = printable(text)
    if halo is not None:
        draw.text(xy, text, font=f, fill=fill, anchor=anchor, stroke_width=2, stroke_fill=halo)
        if bold:
            x, y = xy
            draw.text((x + _bold_offset(f), y), text, font=f, fill=fill, anchor=anchor)
        return
    draw.text(xy, text, font=f, fill=fill, anchor=anchor)
    if bold:
        x, y = xy
        draw.text((x + _bold_offset(f), y), text, font=f, fill=fill, anchor=anchor)


def draw_condensed(
    img: Image.Image,
    centre: tuple[float, float],
    text: str,
    size: float,
    max_width: float,
    fill: tuple[int, ...],
    min_ratio: float = 0.7,
    min_size: int = 7,
) -> None:
    """``text`` centred on ``centre`` no wider than ``max_width``: squeezed sideways (down to
    ``min_ratio`` of its width) before it is made smaller, so long names stay tall."""
    text = printable(text)
    s = round(size)
    while s > min_size and width_of(text, font(s)) * min_ratio > max_width:
        s -= 1
    f = font(s)
    width = width_of(text, f)
    if width <= max_width:
        draw_text(ImageDraw.Draw(img), centre, text, f, fill)
        return
    left, top, right, bottom = f.getbbox(text, anchor="lm")
    pad = 2
    mask = Image.new("L", (int(right - left) + 2 * pad, int(bottom - top) + 2 * pad), 0)
    ImageDraw.Draw(mask).text((pad - left, pad - top), text, font=f, fill=255, anchor="lm")
    squeezed = mask.resize(
        (max(1, round(mask.width * max_width / width)), mask.height), Image.LANCZOS
    )
    x = round(centre[0] - squeezed.width / 2)
    # the middle of the text's ink box sits where centred text would
    y = round(centre[1] + (top - bottom) / 2 - (pad + 0))
    img.paste(Image.new(img.mode, squeezed.size, fill), (x, y), squeezed)


def wrap(text: str, f: Font, max_width: float) -> list[str]:
    """Split ``text`` into lines no wider than ``max_width`` (a long word gets its own line)."""
    lines: list[str] = []
    for para in text.splitlines() or [""]:
        para = printable(para)
        line = ""
        for word in para.split():
            trial = f"{line} {word}".strip()
            if line and width_of(trial, f) > max_width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines
