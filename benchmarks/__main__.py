"""Run every benchmark module and print one ``name: value unit`` line per figure."""
import importlib
import pkgutil
import sys

import benchmarks


def main(selected=()):
    names = sorted(m.name for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_"))
    for name in names:
        if selected and not any(s in name for s in selected):
            continue
        module = importlib.import_module(f"benchmarks.{name}")
        for figure, value, unit in module.run():
            text = f"{value:.3g}" if value < 100 else f"{value:.0f}"
            print(f"{figure}: {text} {unit}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
