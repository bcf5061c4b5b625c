"""The plate's SVG as a browser draws it (Debian's Chromium through pytest-playwright)."""
import pytest

pytest.importorskip("manifold3d", reason="the build extra is not installed (pip install -e '.[build]')")

from hardware.construction.plan import plan_table
from hardware.construction.plate import CUT_COLOUR, plate_svg

PX_PER_MM = 96 / 25.4
"""CSS pixels per millimetre."""

# pytest-playwright's base_url fixture is an instance-method session fixture, which pytest 9 warns about.
pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestRemovedIn10Warning")


def test_svg_opens_at_true_size_with_every_opening_drawn(page, tmp_path, rig):
    plan = plan_table(rig)
    path = tmp_path / "plate.svg"
    path.write_text(plate_svg(plan))
    page.set_viewport_size({"width": 1000, "height": 850})
    page.goto(path.as_uri())
    size = page.evaluate("() => { const r = document.documentElement.getBoundingClientRect(); return [r.width, r.height]; }")
    assert size == pytest.approx([plan.plate.size[0] * PX_PER_MM, plan.plate.size[1] * PX_PER_MM], abs=1)
    assert page.locator("#cut circle").count() == len(plan.holes)
    assert page.locator("#cut rect").count() == 1 + len(plan.windows)
    assert page.locator("#engrave text").count() == len(plan.texts)
    # Seat 1's name turned to face its player, across the table.
    assert page.locator("text", has_text="SEAT 1").get_attribute("transform").startswith("rotate(180 ")
    # Drawn to fit the window for a look: the plate's outline in the cut colour.
    page.evaluate("""() => { const s = document.documentElement; s.setAttribute('width', '980'); s.removeAttribute('height');
                             for (const g of s.querySelectorAll('g')) g.setAttribute('stroke-width', '2'); }""")
    shot = page.screenshot(path=str(tmp_path / "plate.png"))
    from io import BytesIO

    from PIL import Image

    with Image.open(BytesIO(shot)) as image:
        colours = {colour for _, colour in image.convert("RGB").getcolors(1 << 20)}
    assert CUT_COLOUR == "#ff0000"
    assert any(r > g + 60 and r > b + 60 for r, g, b in colours), "no cut line drawn"
