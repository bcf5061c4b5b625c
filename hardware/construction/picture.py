"""A picture of the table to build (Pillow): the plate from above, and an exploded side view of a panel's stack."""
from __future__ import annotations

import io

from hardware.construction.plan import CARRIER_MARGIN_MM, Plan
from hardware.sinks import BOARD_COLOUR
from hardware.wiring import BACKGROUND, INK

PLATE = (222, 196, 150)
WINDOW = (245, 245, 240)
GRID = (120, 120, 120)
BOX = (0, 110, 60)
SUPPLY = (90, 90, 160)


def table_png(plan: Plan, scale: float = 1.2) -> bytes:
    """Top view (``scale`` pixels per mm) above an exploded side view through seat 0's panel."""
    from PIL import Image, ImageDraw, ImageFont

    build = plan.rig.build
    width, height = plan.plate.size
    margin = 40
    side_h = 260
    image = Image.new("RGB", (int(width * scale) + 2 * margin, int(height * scale) + side_h + 3 * margin), BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=16)
    small = ImageFont.load_default(size=12)

    def px(x: float, y: float) -> tuple[float, float]:
        return margin + x * scale, margin + y * scale

    draw.text((margin, 10), f"Top view: plate {width:.0f} x {height:.0f} mm (boxes under the plate dashed)", fill=INK, font=font)
    draw.rectangle((*px(0, 0), *px(width, height)), fill=PLATE, outline=INK, width=2)
    for box in plan.boxes:
        colour = BOX if box.name == "pi" else SUPPLY
        r = box.rect
        for i in range(int(r.x0), int(r.x1), 8):
            draw.line((*px(i, r.y0), *px(min(i + 4, r.x1), r.y0)), fill=colour, width=2)
            draw.line((*px(i, r.y1), *px(min(i + 4, r.x1), r.y1)), fill=colour, width=2)
        for j in range(int(r.y0), int(r.y1), 8):
            draw.line((*px(r.x0, j), *px(r.x0, min(j + 4, r.y1))), fill=colour, width=2)
            draw.line((*px(r.x1, j), *px(r.x1, min(j + 4, r.y1))), fill=colour, width=2)
        label = "Raspberry Pi" if box.name == "pi" else "LED supply"
        draw.text(px((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2), label, fill=colour, font=small, anchor="mm")
    for window in plan.windows:
        draw.rectangle((*px(window.rect.x0, window.rect.y0), *px(window.rect.x1, window.rect.y1)), fill=BOARD_COLOUR)
        for panel_x in range(window.panel.width):
            for panel_y in range(window.panel.height):
                x, y = plan.led_centre(*plan.layout.panel_to_table(window.panel.name, panel_x, panel_y))
                cx, cy = px(x, y)
                draw.rectangle((cx - 1, cy - 1, cx + 1, cy + 1), fill=(255, 210, 120))
        for module in window.modules:
            draw.rectangle((*px(module.x0, module.y0), *px(module.x1, module.y1)), outline=GRID)
        cx, cy = px((window.rect.x0 + window.rect.x1) / 2, (window.rect.y0 + window.rect.y1) / 2)
        draw.text((cx, cy), window.panel.name, fill=(255, 255, 255), font=font, anchor="mm", stroke_width=3, stroke_fill=BOARD_COLOUR)
    for hole in plan.holes:
        r = hole.diameter / 2
        draw.ellipse((*px(hole.x - r, hole.y - r), *px(hole.x + r, hole.y + r)), fill=(200, 40, 40) if hole.kind == "button" else INK)
    for text in plan.texts:
        if text.text.startswith("SEAT") or text.text == "100 mm":
            draw.text(px(text.x, text.y), text.text, fill=INK, font=font, anchor="mm")
    (x0, y), (x1, _) = plan.check_line
    draw.line((*px(x0, y), *px(x1, y)), fill=INK, width=2)

    # Exploded side view of seat 0's panel (or the first), layers pulled apart, thickness to scale x 3.
    top = margin * 2 + height * scale
    window = plan.window(plan.rig.seats[0].panel if plan.rig.seats else plan.rig.panels[0].name)
    draw.text((margin, top), f"Exploded side view of panel {window.panel.name} (heights x 3)", fill=INK, font=font)
    layers = [
        ("top plate", build.plate_mm, window.rect.grown(60), PLATE),
        ("diffuser", build.diffuser_mm, window.rect.grown(CARRIER_MARGIN_MM / 2), (250, 250, 250)),
        ("printed grid", build.grid_height_mm, window.rect, GRID),
        ("LED matrix", 2.0, window.rect, BOARD_COLOUR),
        ("backing board", build.plate_mm, window.rect.grown(CARRIER_MARGIN_MM), (190, 160, 110)),
        ("base with Pi and supply (frame " + f"{build.frame_height_mm:g} mm)", build.plate_mm, window.rect.grown(60), (170, 140, 100)),
    ]
    y = top + 30
    left = margin + 260
    for name, thickness, rect, colour in layers:
        h = max(4, thickness * 3)
        x_a, x_b = left + (rect.x0 - window.rect.x0 + 60) * scale, left + (rect.x1 - window.rect.x0 + 60) * scale
        draw.rectangle((x_a, y, x_b, y + h), fill=colour, outline=INK)
        if name == "top plate":
            draw.rectangle((left + 60 * scale, y, left + (60 + window.rect.size[0]) * scale, y + h), fill=BACKGROUND, outline=INK)
        if name == "printed grid":
            for gx in range(0, int(window.rect.size[0]) + 1, int(build.led_pitch_mm)):
                draw.line((x_a + gx * scale, y, x_a + gx * scale, y + h), fill=INK)
        draw.text((margin, y + h / 2), name, fill=INK, font=small, anchor="lm")
        y += h + 14
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
