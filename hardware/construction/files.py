"""``build-files``: every file to build the table, written from a rig file into one folder."""
from __future__ import annotations

import time
from pathlib import Path

from hardware.rig import Rig

EXTRA_HINT = "the build files need the build extra: pip install 'azul-table[build]' (in the checkout: .venv/bin/pip install -e '.[build]')"


def missing_libraries() -> list[str]:
    """The build extra's libraries this Python lacks."""
    import importlib.util

    return [name for name in ("shapely", "ezdxf", "manifold3d", "trimesh", "fpdf") if importlib.util.find_spec(name) is None]


def write_all(rig: Rig, out: Path, paper: str = "a4") -> list[Path]:
    """Write plate (SVG, DXF), grids (STL), template (PDF), cut list (MD, CSV) and picture (PNG); return the paths.

    :raises RigError: when the build section's geometry does not work out (nothing is written).
    """
    from hardware.construction.cutlist import cut_list_csv, cut_list_markdown
    from hardware.construction.grids import grid_designs, grid_pieces, piece_names, write_stl
    from hardware.construction.picture import table_png
    from hardware.construction.plan import plan_table
    from hardware.construction.plate import plate_svg, write_dxf
    from hardware.construction.template import write_pdf

    plan = plan_table(rig)
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "plate.svg", out / "plate.dxf", out / f"template_{paper}.pdf", out / "cut_list.md",
               out / "cut_list.csv", out / "table.png"]
    written[0].write_text(plate_svg(plan), encoding="utf-8")
    write_dxf(plan, written[1])
    write_pdf(plan, written[2], paper)
    written[3].write_text(cut_list_markdown(plan), encoding="utf-8")
    written[4].write_text(cut_list_csv(plan), encoding="utf-8")
    written[5].write_bytes(table_png(plan))
    for grid in grid_designs(plan):
        for name, piece in zip(piece_names(grid), grid_pieces(plan, grid)):
            write_stl(piece, out / name)
            written.append(out / name)
    return written


def main(rig: Rig, out: Path, paper: str) -> int:
    """Write the files and list them with the table's size; 1 with the reason when it cannot."""
    missing = missing_libraries()
    if missing:
        print(f"build-files: {', '.join(missing)} missing; {EXTRA_HINT}")
        return 1
    from hardware.construction.plan import plan_table
    from hardware.rig import RigError

    started = time.perf_counter()
    try:
        plan = plan_table(rig)
        written = write_all(rig, out, paper)
    except RigError as error:
        print(f"build-files: {rig.source}: {error}")
        return 1
    width, height = plan.plate.size
    print(f"Table top {width:.0f} x {height:.0f} mm; {len(written)} files in {out} "
          f"({time.perf_counter() - started:.1f} s):")
    for path in written:
        print(f"  {path.name}")
    return 0
