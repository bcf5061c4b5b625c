"""Colour-vision-deficiency simulation for palette tests.

Machado, Oliveira and Fernandes (2009) matrices at full severity, applied in
linear sRGB, then CIELAB and the CIE76 colour difference.
"""
import itertools
import math

MACHADO = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
}


def _linear(channel):
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lab(rgb, vision="normal"):
    """CIELAB (D65) of an sRGB colour as seen with ``vision``."""
    lin = [_linear(c) for c in rgb]
    r, g, b = (min(1.0, max(0.0, sum(m * v for m, v in zip(row, lin)))) for row in MACHADO[vision])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def closest_pair(colours, vision):
    """(delta E, name, name) of the two colours hardest to tell apart with ``vision``."""
    return min(
        (math.dist(lab(a.rgb, vision), lab(b.rgb, vision)), a.name, b.name)
        for a, b in itertools.combinations(colours, 2)
    )
