"""Fixtures for the set-up tests: the project's root, fake device trees and fake Pythons on a fake PATH."""
import os
import shutil
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
PI4 = "Raspberry Pi 4 Model B Rev 1.4"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"


@pytest.fixture
def device_tree(tmp_path):
    """A device tree directory saying ``model``: call it with the model string (None: no model file)."""

    def make(model):
        tree = tmp_path / "device-tree"
        tree.mkdir(exist_ok=True)
        if model is not None:
            (tree / "model").write_bytes(model.encode() + b"\0")
        return tree

    return make


@pytest.fixture
def fake_path(tmp_path):
    """A PATH directory with only ``cat``; ``add(name, target)`` links a program in, ``add(name, script=...)`` writes one."""
    directory = tmp_path / "bin"
    directory.mkdir()
    os.symlink(shutil.which("cat"), directory / "cat")

    class FakePath:
        path = str(directory)

        def add(self, name, target=sys.executable, script=None):
            entry = directory / name
            if script is None:
                os.symlink(target, entry)
            else:
                entry.write_text("#!/bin/sh\n" + script)
                entry.chmod(0o755)
            return entry

    return FakePath()
