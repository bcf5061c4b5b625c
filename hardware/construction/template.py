"""The 1:1 drilling and cutting template: the plate tiled over A4 or Letter pages (fpdf2).

Neighbouring pages overlap by ``OVERLAP_MM``; dashed lines mark where the next
page's edge lies, so the pages are taped together on the marks. Every page has
a 100 mm square to check that the printer kept the scale (print at 100 %, not
"fit to page"), and says which part of the plate it shows.
"""
from __future__ import annotations

from pathlib import Path

from hardware.construction.plan import CHECK_LINE_MM, Plan
from hardware.construction.plate import cut_paths

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN_MM = 10.0
LABEL_MM = 8.0
OVERLAP_MM = 15.0
CROSS_MM = 4.0
"""Half the size of the cross marking each hole's centre (where to drill)."""


def tiles(plan: Plan, paper: str) -> list[tuple[float, float, float, float]]:
    """The plate area (x0, y0, x1, y1) each page shows, row by row."""
    width, height = PAPERS[paper]
    tile_w, tile_h = width - 2 * MARGIN_MM, height - 2 * MARGIN_MM - LABEL_MM
    starts = []
    for size, tile in ((plan.plate.size[0], tile_w), (plan.plate.size[1], tile_h)):
        axis, at = [], 0.0
        while True:
            axis.append(at)
            if at + tile >= size:
                break
            at += tile - OVERLAP_MM
        starts.append(axis)
    return [(x, y, min(x + tile_w, plan.plate.x1), min(y + tile_h, plan.plate.y1)) for y in starts[1] for x in starts[0]]


def write_pdf(plan: Plan, path: Path, paper: str = "a4") -> int:
    """Write the template; returns the number of pages."""
    from fpdf import FPDF
    from shapely.geometry import box

    width, height = PAPERS[paper]
    pdf = FPDF(unit="mm", format=(width, height))
    pdf.set_auto_page_break(False)
    pdf.set_font("helvetica", size=9)
    lines = cut_paths(plan)
    areas = tiles(plan, paper)
    for number, (x0, y0, x1, y1) in enumerate(areas, 1):
        pdf.add_page()
        left, top = MARGIN_MM, MARGIN_MM + LABEL_MM

        def at(x: float, y: float) -> tuple[float, float]:
            return left + x - x0, top + y - y0

        pdf.set_text_color(0, 0, 0)
        pdf.text(MARGIN_MM, MARGIN_MM + 4, f"Page {number} of {len(areas)}: plate x {x0:.0f}-{x1:.0f} mm, "
                                           f"y {y0:.0f}-{y1:.0f} mm. Print at 100 %; the square must measure 100 mm.")
        area = box(x0, y0, x1, y1)
        pdf.set_draw_color(0, 0, 0)
        pdf.set_line_width(0.3)
        for line in lines:
            piece = line.intersection(area)
            for part in getattr(piece, "geoms", [piece]):
                if not part.is_empty and part.geom_type == "LineString":
                    pdf.polyline([at(x, y) for x, y in part.coords])
        pdf.set_line_width(0.15)
        for hole in plan.holes:
            if x0 <= hole.x <= x1 and y0 <= hole.y <= y1:
                cx, cy = at(hole.x, hole.y)
                pdf.line(cx - CROSS_MM, cy, cx + CROSS_MM, cy)
                pdf.line(cx, cy - CROSS_MM, cx, cy + CROSS_MM)
        pdf.set_draw_color(0, 120, 200)
        pdf.set_dash_pattern(dash=3, gap=2)
        for other in areas:  # where each neighbour's edge falls on this page: tape along it
            for edge in (other[0], other[2]):
                if x0 < edge < x1 and other[1] < y1 and y0 < other[3]:
                    pdf.line(*at(edge, max(y0, other[1])), *at(edge, min(y1, other[3])))
            for edge in (other[1], other[3]):
                if y0 < edge < y1 and other[0] < x1 and x0 < other[2]:
                    pdf.line(*at(max(x0, other[0]), edge), *at(min(x1, other[2]), edge))
        pdf.set_dash_pattern()
        pdf.set_draw_color(0, 150, 0)
        pdf.set_line_width(0.3)
        pdf.rect(width - MARGIN_MM - CHECK_LINE_MM, height - MARGIN_MM - CHECK_LINE_MM, CHECK_LINE_MM, CHECK_LINE_MM)
        pdf.set_text_color(0, 150, 0)
        pdf.text(width - MARGIN_MM - CHECK_LINE_MM + 2, height - MARGIN_MM - 2, "check: 100 x 100 mm")
    pdf.output(str(path))
    return len(areas)
