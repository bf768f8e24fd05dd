"""Text drawn on images: one shape for every text, the same bytes for the same text."""

from __future__ import annotations

import hashlib
import itertools
import subprocess
import sys

import numpy as np
import pytest

from envsuite import text_image
from envsuite.text_image import (
    COLUMNS,
    FONT_PATH,
    FONT_SIZE,
    ROWS,
    fit_lines,
    frame_shape,
    wrap_lines,
)
from envsuite.text_image import text_image as draw

TEXTS = {
    "empty": "",
    "short": "Round 3 of 10: which button do you press?",
    "long line": "x" * 1000,
    "many lines": "\n".join(f"line {i}" for i in range(500)),
    "unprintable": "\x00\x01\x1b[31m\x7f\t\u202e🙃\udcff\ufffd漢字\r\nnext",
}


def test_the_font_ships_inside_the_package_with_its_licence():
    assert FONT_PATH.is_file() and FONT_PATH.read_bytes()[:4] == b"\x00\x01\x00\x00"
    assert FONT_PATH.parent.parent.parent == __import__("pathlib").Path(text_image.__file__).parent
    assert "Bitstream Vera" in (FONT_PATH.parent / "LICENSE_DEJAVU").read_text()


@pytest.mark.parametrize("text", list(TEXTS.values()), ids=list(TEXTS))
def test_every_text_gives_an_rgb_frame_of_the_one_shape(text):
    frame = draw(text)
    assert frame.dtype == np.uint8 and frame.shape == frame_shape() and frame.flags.writeable
    height, width, _ = frame.shape
    assert height % 16 == 0 and width % 16 == 0  # what video encoders want
    assert np.array_equal(frame, draw(text))  # the same text, the same bytes


def test_different_texts_give_different_frames_and_text_is_drawn():
    blank = draw("")
    assert (blank == 255).all()  # white with nothing written
    assert not np.array_equal(draw("a"), draw("b"))
    assert (draw("a") < 128).any()  # dark ink


def test_the_same_text_gives_the_same_bytes_in_a_fresh_interpreter():
    code = (
        "import hashlib; from envsuite.text_image import text_image; "
        f"print(hashlib.sha256(text_image({TEXTS['unprintable']!r}).tobytes()).hexdigest())"
    )
    other = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    here = hashlib.sha256(draw(TEXTS["unprintable"]).tobytes()).hexdigest()
    assert other.stdout.strip() == here


def test_wrapping_keeps_every_character_and_prefers_spaces():
    line = "the quick brown fox jumps over the lazy dog " * 10
    wrapped = wrap_lines(line, columns=30)
    assert "".join(wrapped) == line
    assert all(len(piece) <= 30 for piece in wrapped)
    cuts = itertools.pairwise(wrapped)
    assert all(a.endswith(" ") or b.startswith(" ") for a, b in cuts)  # no word cut in two
    assert wrap_lines("a" * 65, columns=30) == ["a" * 30, "a" * 30, "a" * 5]
    assert wrap_lines("") == [""] and wrap_lines("a\n\nb") == ["a", "", "b"]


def test_unprintable_characters_are_replaced_and_tabs_expanded():
    assert wrap_lines("\tb\x00c\udcffd") == ["    b\ufffdc\ufffdd"]


def test_a_text_longer_than_the_frame_keeps_its_first_and_last_lines():
    lines = [f"line {i}" for i in range(100)]
    kept, marker = fit_lines(lines, rows=ROWS)
    assert len(kept) == ROWS and marker is not None
    assert kept[:marker] == lines[:marker]
    assert kept[marker + 1 :] == lines[100 - (ROWS - 1 - marker) :]
    assert kept[marker] == f"[... {100 - ROWS + 1} more lines ...]"
    assert fit_lines(lines[:ROWS], rows=ROWS) == (lines[:ROWS], None)


def test_the_frame_size_follows_the_settings_not_the_text():
    small = draw("hello", columns=20, rows=5)
    assert small.shape == frame_shape(columns=20, rows=5) != frame_shape(COLUMNS, ROWS)


@pytest.mark.parametrize("char", ["É", "Å", "W", "@", "g", "_", "█"])
def test_every_glyph_is_drawn_whole(char):
    """As many pixels are inked as the glyph has drawn alone with room all round."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(str(FONT_PATH), FONT_SIZE, layout_engine=ImageFont.Layout.BASIC)
    alone = Image.new("L", (100, 100), 0)
    ImageDraw.Draw(alone).text((40, 40), char, font=font, fill=255)
    frame = draw(char)
    assert (frame < 255).any(axis=2).sum() == (np.asarray(alone) > 0).sum()
