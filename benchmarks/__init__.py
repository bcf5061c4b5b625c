"""Performance figures of azul-table, printed by ``make bench``.

Each ``benchmarks/bench_*.py`` module defines ``run()``, which yields
``(name, value, unit)`` triples; the runner prints them as ``name: value unit``.
"""
