"""Golden snapshots: the layouts' pictures in docs/img are exactly what the simulator draws now."""
import io

import pytest
from PIL import Image

from firmware_py.layouts import pictures


def pixels(png: bytes):
    return Image.open(io.BytesIO(png)).convert("RGB").tobytes()


@pytest.mark.parametrize("name", sorted(pictures.NAMES))
def test_documented_layout_pictures_are_current(name):
    golden = pictures.DOCS_DIR / f"layout_{name}.png"
    assert pixels(pictures.render(name)) == pixels(golden.read_bytes()), (
        "the layout changed: regenerate the pictures with python -m firmware_py.layouts.pictures"
    )
