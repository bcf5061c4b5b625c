"""tools/find-python and the Makefile's use of it: the newest Python 3.11-3.13 that really runs, or what to install."""
import os
import shutil
import subprocess
import sys

from tests.setup.conftest import PROJECT

FIND_PYTHON = PROJECT / "tools" / "find-python"
BROKEN_SHIM = 'echo "pyenv: $(basename "$0"): command not found" >&2; exit 127\n'
OLD_PYTHON = 'case "$2" in *print*) echo "python3 here is 3.9";; *) exit 1;; esac\n'


def find_python(path):
    return subprocess.run(["/bin/sh", str(FIND_PYTHON)], env={"PATH": path}, capture_output=True, text=True)


def test_the_newest_that_runs_wins(fake_path):
    fake_path.add("python3.13", script=BROKEN_SHIM)  # pyenv's shim for a version that is not selected
    newest = fake_path.add("python3.12")
    fake_path.add("python3.11")
    fake_path.add("python3")
    result = find_python(fake_path.path)
    assert (result.returncode, result.stdout.strip()) == (0, str(newest))


def test_plain_python3_serves_when_it_is_supported(fake_path):
    python3 = fake_path.add("python3")
    assert find_python(fake_path.path).stdout.strip() == str(python3)


def test_none_suitable_says_what_to_install(fake_path):
    fake_path.add("python3", script=OLD_PYTHON)
    result = find_python(fake_path.path)
    assert result.returncode == 1 and result.stdout == ""
    assert "azul-table needs Python 3.11, 3.12 or 3.13, and python3 here is 3.9." in result.stderr
    assert "sudo apt install python3 python3-venv python3-dev" in result.stderr
    assert "make run PYTHON=/path/to/python3.12" in result.stderr


def copy_of_the_makefile(tmp_path):
    for name in ("Makefile", "pyproject.toml", "setup.py", "tools/find-python", "tools/make_venv.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        shutil.copy2(PROJECT / name, tmp_path / name)
    return tmp_path


def test_make_stops_before_anything_without_a_python(tmp_path, fake_path):
    fake_path.add("python3", script=OLD_PYTHON)
    tree = copy_of_the_makefile(tmp_path / "tree")
    result = subprocess.run([shutil.which("make"), "-C", str(tree), "build"], env={"PATH": fake_path.path},
                            capture_output=True, text=True)
    assert result.returncode != 0
    assert "azul-table needs Python 3.11, 3.12 or 3.13" in result.stderr
    assert not (tree / ".venv").exists()


def test_make_uses_the_python_it_is_given(tmp_path):
    tree = copy_of_the_makefile(tmp_path / "tree")
    result = subprocess.run([shutil.which("make"), "-n", "-C", str(tree), "build", f"PYTHON={sys.executable}",
                             "RIG=my rig.toml", "DEVICE_TREE=/tmp/a pi"], capture_output=True, text=True, env=dict(os.environ))
    assert f"{sys.executable} tools/make_venv.py --rig 'my rig.toml' --device-tree '/tmp/a pi' .venv" in result.stdout
