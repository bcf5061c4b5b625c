"""The top plate as a laser cutter or CNC reads it: DXF (ezdxf) and SVG, cut and engrave on separate layers.

The plate's outline, its windows and holes are one shapely polygon with one
interior per opening, so an opening that merged into another (or into the
edge) is caught before anything is written. In both files y grows towards
seat 0 as on the plan; DXF's y axis points up, so it is flipped there.
"""
from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

from hardware.construction.plan import Plan, Rect

CUT_LAYER = "CUT"
ENGRAVE_LAYER = "ENGRAVE"
CUT_COLOUR = "#ff0000"
ENGRAVE_COLOUR = "#0000ff"
"""Red cuts, blue engraving: the common convention of laser cutter software."""
DXF_COLOURS = {CUT_LAYER: 1, ENGRAVE_LAYER: 5}
"""The same colours as AutoCAD colour indices (1 red, 5 blue)."""


def _box(rect: Rect):
    from shapely.geometry import box

    return box(rect.x0, rect.y0, rect.x1, rect.y1)


def plate_polygon(plan: Plan):
    """The plate with every window and hole taken out (circles as 128-gons), checked to be one valid piece."""
    from shapely.geometry import Point

    openings = [_box(w.rect) for w in plan.windows]
    openings += [Point(h.x, h.y).buffer(h.diameter / 2, quad_segs=32) for h in plan.holes]
    plate = _box(plan.plate)
    for opening in openings:
        plate = plate.difference(opening)
    if plate.geom_type != "Polygon" or not plate.is_valid or len(plate.interiors) != len(openings):
        raise ValueError("the plate's openings run into each other or into its edge")
    return plate


def cut_paths(plan: Plan) -> list:
    """Every cut as a shapely line: the outline, then the windows and holes."""
    from shapely.geometry import Point

    lines = [_box(plan.plate).exterior] + [_box(w.rect).exterior for w in plan.windows]
    return lines + [Point(h.x, h.y).buffer(h.diameter / 2, quad_segs=32).exterior for h in plan.holes]


def write_dxf(plan: Plan, path: Path) -> None:
    import ezdxf
    from ezdxf.enums import TextEntityAlignment

    plate_polygon(plan)
    document = ezdxf.new("R2010", setup=True, units=ezdxf.units.MM)
    for name, colour in DXF_COLOURS.items():
        document.layers.add(name, color=colour)
    space = document.modelspace()
    height = plan.plate.y1

    def point(x: float, y: float) -> tuple[float, float]:
        return x, height - y

    cut = {"layer": CUT_LAYER}
    for rect in [plan.plate] + [w.rect for w in plan.windows]:
        space.add_lwpolyline([point(rect.x0, rect.y0), point(rect.x1, rect.y0), point(rect.x1, rect.y1),
                              point(rect.x0, rect.y1)], close=True, dxfattribs=cut)
    for hole in plan.holes:
        space.add_circle(point(hole.x, hole.y), hole.diameter / 2, dxfattribs=cut)
    engrave = {"layer": ENGRAVE_LAYER}
    space.add_line(point(*plan.check_line[0]), point(*plan.check_line[1]), dxfattribs=engrave)
    for text in plan.texts:
        space.add_text(text.text, height=text.height,
                       dxfattribs={**engrave, "rotation": (360 - text.facing) % 360}).set_placement(
            point(text.x, text.y), align=TextEntityAlignment.MIDDLE_CENTER)
    document.saveas(path)


def plate_svg(plan: Plan) -> str:
    """The plate in SVG at 1 user unit = 1 mm (opens at true size in Inkscape and laser software)."""
    plate_polygon(plan)
    width, height = plan.plate.size
    style = f'fill="none" stroke-width="0.2" stroke-linejoin="round"'
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.2f}mm" height="{height:.2f}mm" '
        f'viewBox="0 0 {width:.2f} {height:.2f}">',
        f'<title>{escape(plan.rig.source)}: top plate, {width:.0f} x {height:.0f} mm</title>',
        f'<g id="{CUT_LAYER.lower()}" stroke="{CUT_COLOUR}" {style}>',
    ]
    for rect in [plan.plate] + [w.rect for w in plan.windows]:
        lines.append(f'<rect x="{rect.x0:.3f}" y="{rect.y0:.3f}" width="{rect.size[0]:.3f}" height="{rect.size[1]:.3f}"/>')
    for hole in plan.holes:
        lines.append(f'<circle cx="{hole.x:.3f}" cy="{hole.y:.3f}" r="{hole.diameter / 2:.3f}"/>')
    lines.append("</g>")
    (x0, y), (x1, _) = plan.check_line
    lines.append(f'<g id="{ENGRAVE_LAYER.lower()}" stroke="{ENGRAVE_COLOUR}" {style}>')
    lines.append(f'<line x1="{x0:.3f}" y1="{y:.3f}" x2="{x1:.3f}" y2="{y:.3f}"/>')
    lines.append(f'<g stroke="none" fill="{ENGRAVE_COLOUR}" font-family="sans-serif" text-anchor="middle" '
                 'dominant-baseline="central">')
    for text in plan.texts:
        lines.append(f'<text x="{text.x:.3f}" y="{text.y:.3f}" font-size="{text.height * 1.4:.2f}" '
                     f'transform="rotate({text.facing} {text.x:.3f} {text.y:.3f})">{escape(text.text)}</text>')
    lines += ["</g>", "</g>", "</svg>", ""]
    return "\n".join(lines)
