"""build-files: every file read back with its own kind of reader (ezdxf, trimesh, pypdf, csv)."""
import csv
import io

import pytest

pytest.importorskip("manifold3d", reason="the build extra is not installed (pip install -e '.[build]')")

from hardware import parse_rig
from hardware.__main__ import main as rig_tools
from hardware.construction.files import EXTRA_HINT
from hardware.construction.grids import BED_MM, grid_designs, piece_count
from hardware.construction.plan import plan_table
from hardware.construction.plate import plate_polygon
from hardware.construction.template import PAPERS, tiles

MM = 72 / 25.4
"""PDF points per millimetre."""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("table")
    assert rig_tools(["build-files", "--out", str(out)]) == 0
    return out


def test_dxf_has_closed_outlines_on_their_layers_and_the_check_line(built, rig):
    import ezdxf

    plan = plan_table(rig)
    document = ezdxf.readfile(built / "plate.dxf")
    assert {"CUT", "ENGRAVE"} <= {layer.dxf.name for layer in document.layers}
    space = document.modelspace()
    outlines = space.query("LWPOLYLINE")
    assert len(outlines) == 1 + len(plan.windows) and all(o.closed and o.dxf.layer == "CUT" for o in outlines)
    box = [(x, y) for x, y, *_ in outlines[0].get_points()]
    assert max(x for x, _ in box) - min(x for x, _ in box) == pytest.approx(plan.plate.size[0])
    circles = space.query("CIRCLE")
    assert len(circles) == len(plan.holes) and {c.dxf.layer for c in circles} == {"CUT"}
    assert sorted(round(2 * c.dxf.radius, 3) for c in circles).count(30.0) == 17
    (line,) = space.query("LINE")
    assert line.dxf.layer == "ENGRAVE" and (line.dxf.end - line.dxf.start).magnitude == pytest.approx(100.0)
    texts = {t.dxf.text for t in space.query("TEXT")}
    assert {"SEAT 0", "SEAT 3", "HOST", "100 mm"} <= texts
    assert {t.dxf.layer for t in space.query("TEXT")} == {"ENGRAVE"}
    assert document.units == ezdxf.units.MM


def test_plate_is_one_piece_with_an_interior_per_opening(rig):
    plan = plan_table(rig)
    plate = plate_polygon(plan)
    assert len(plate.interiors) == len(plan.windows) + len(plan.holes)


def test_stl_pieces_are_watertight_fit_the_bed_and_add_up_to_the_panels(built, rig):
    import trimesh

    plan = plan_table(rig)
    pitch = rig.build.led_pitch_mm
    pieces = sorted(built.glob("grid_*.stl"))
    assert [p.name for p in pieces] == ["grid_centre_1of2.stl", "grid_centre_2of2.stl", "grid_seat0.stl"]
    assert piece_count(plan) == 2 + 4
    bounds = {}
    for path in pieces:
        assert path.read_bytes()[:5] != b"solid"  # binary STL
        mesh = trimesh.load(path, file_type="stl")
        assert mesh.is_watertight and mesh.volume > 0
        (x0, y0, z0), (x1, y1, z1) = mesh.bounds
        assert x1 - x0 <= BED_MM and y1 - y0 <= BED_MM
        assert z1 - z0 == pytest.approx(rig.build.grid_height_mm, abs=0.1)
        bounds[path.name] = mesh.bounds
    # The centre's two pieces side by side are the 32 x 16 panel; the seat grid is a 16 x 16 panel.
    assert bounds["grid_centre_2of2.stl"][1][0] - bounds["grid_centre_1of2.stl"][0][0] == pytest.approx(32 * pitch, abs=0.1)
    assert bounds["grid_centre_1of2.stl"][1][1] - bounds["grid_centre_1of2.stl"][0][1] == pytest.approx(16 * pitch, abs=0.1)
    assert tuple(bounds["grid_seat0.stl"][1][:2] - bounds["grid_seat0.stl"][0][:2]) == pytest.approx((160, 160), abs=0.1)
    assert [g.panels for g in grid_designs(plan)] == [("centre",), ("seat0", "seat1", "seat2", "seat3")]


def test_grid_marks_follow_the_module_rotation(rig, reference_text):
    plan = plan_table(rig)
    centre = grid_designs(plan)[0]
    # The left module is turned 180: its data comes in bottom right; the right module's top left. Both on the seam.
    assert centre.marks == (("x", 16, 155.0), ("x", 16, 5.0))
    turned = parse_rig(reference_text.replace(
        "wiring = \"serpentine\"\nrotation = 0\nchannel = 0\nchain = 2", "wiring = \"serpentine\"\nrotation = 90\nchannel = 0\nchain = 2"))
    seat0 = next(g for g in grid_designs(plan_table(turned)) if "seat0" in g.panels)
    assert seat0.marks == (("y", 0, 155.0),)  # turned 90: the data comes in at the top right, from above


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pdf_pages_have_the_paper_size_a_check_square_and_cover_the_plate(tmp_path, rig, paper):
    from pypdf import PdfReader
    from pypdf.generic import ContentStream

    from hardware.construction.template import write_pdf

    plan = plan_table(rig)
    write_pdf(plan, tmp_path / "template.pdf", paper)
    reader = PdfReader(tmp_path / "template.pdf")
    assert len(reader.pages) == len(tiles(plan, paper)) > 1
    width, height = PAPERS[paper]
    covered = []
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((width * MM, height * MM), abs=0.01)
        operations = ContentStream(page.get_contents(), reader).operations
        squares = [ops for ops, op in operations if op == b"re" and abs(float(ops[2]) - 100 * MM) < 0.01
                   and abs(abs(float(ops[3])) - 100 * MM) < 0.01]
        assert squares, "no 100 mm square on a page"
        text = page.extract_text()
        assert "the square must measure 100 mm" in text
        x = text.split("plate x ")[1].split(" mm")[0].split("-")
        y = text.split(", y ")[1].split(" mm")[0].split("-")
        covered.append((float(x[0]), float(y[0]), float(x[1]), float(y[1])))
    from shapely.geometry import box
    from shapely.ops import unary_union

    union = unary_union([box(*area) for area in covered])
    assert union.buffer(0.6).contains(box(0, 0, *plan.plate.size))


def test_cut_list_counts_follow_the_rig_file(built, rig):
    rows = {row["part"]: row for row in csv.DictReader(io.StringIO((built / "cut_list.csv").read_text()))}
    modules = sum(len(p.modules) for p in rig.panels)
    assert int(rows["WS2812B LED matrices"]["quantity"]) == modules == 6
    assert int(rows["Arcade buttons"]["quantity"]) == 4 * len(rig.seats) + 1 == 17
    assert int(rows["1000 µF 10 V capacitors"]["quantity"]) == modules
    assert int(rows["330 Ω resistors"]["quantity"]) == len(rig.led_pins)
    assert rows["5 V LED power supply"]["size or note"].startswith("12 A or more")
    markdown = (built / "cut_list.md").read_text()
    assert "| Top plate | 1 | 925 x 765 x 4 mm" in markdown


def test_supply_current_follows_the_budget(tmp_path, reference_text):
    from hardware.construction.cutlist import rows

    rig = parse_rig(reference_text.replace("budget_amps = 10.0", "budget_amps = 25.0"))
    supply = next(note for part, _, note in rows(plan_table(rig)) if part == "5 V LED power supply")
    assert supply.startswith("30 A or more")


def test_picture_shows_the_table(built):
    from PIL import Image

    with Image.open(built / "table.png") as image:
        assert image.size[0] > 1000 and image.size[1] > image.size[0]
        colours = {colour for _, colour in image.convert("RGB").getcolors(1 << 20)}
    assert (200, 40, 40) in colours  # button holes


def test_a_refused_geometry_writes_nothing(tmp_path, capsys, reference_text):
    rig_file = tmp_path / "tight.toml"
    rig_file.write_text(reference_text.replace("[build]\n", "").replace("panel_gap_mm = 30.0\n", "")
                        .replace("led_pitch_mm = 10.0", "[build]\nled_pitch_mm = 10.0\npanel_gap_mm = 2.0"))
    out = tmp_path / "out"
    assert rig_tools(["build-files", "--rig", str(rig_file), "--out", str(out)]) == 1
    assert "build.panel_gap_mm" in capsys.readouterr().err
    assert not out.exists()


def test_azul_table_dispatches_build_files(tmp_path, capsys, small_rig_text):
    from web_remote.cli import main

    rig_file = tmp_path / "small.toml"
    rig_file.write_text(small_rig_text("[[panel.module]]\nsize = [16, 16]\n", size=(16, 16)) + "[build]\n")
    assert main(["build-files", "--rig", str(rig_file), "--out", str(tmp_path), "--paper", "letter"]) == 0
    assert "Table top 593 x 327 mm" in capsys.readouterr().out
    assert (tmp_path / "template_letter.pdf").exists() and (tmp_path / "plate.dxf").exists()


def test_docs_give_the_reference_table_as_built(rig):
    from pathlib import Path

    from PIL import Image

    docs = Path(__file__).parents[2] / "docs"
    text = (docs / "rig.md").read_text()
    plan = plan_table(rig)
    width, height = plan.plate.size
    assert f"**{width:.0f} x {height:.0f} mm**" in text
    assert f"**{piece_count(plan)} pieces**" in text and f"**{BED_MM:.0f} x {BED_MM:.0f} mm** bed" in text
    for name in ("build_table.png", "build_plate.png"):
        with Image.open(docs / "img" / name) as image:
            assert image.size[0] > 900


def test_without_the_build_extra_it_says_what_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("hardware.construction.files.missing_libraries", lambda: ["ezdxf", "manifold3d"])
    assert rig_tools(["build-files", "--out", str(tmp_path / "out")]) == 1
    assert "ezdxf, manifold3d missing" in capsys.readouterr().out and "azul-table[build]" in EXTRA_HINT
    assert not (tmp_path / "out").exists()
