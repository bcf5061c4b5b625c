"""tools/make_venv.py: on a PC a plain venv with the dev extra; on a Pi the system's packages visible, the
board's LED library, and the exact command for anything pip cannot fix. Run with --dry-run (prints, runs nothing)."""
import importlib.util
import os
import subprocess
import sys
import venv

import pytest

from hardware.board import LGPIO_WHEEL_PYTHONS
from tests.setup.conftest import PI4, PI5, PROJECT

MAKE_VENV = PROJECT / "tools" / "make_venv.py"
WHEEL = sys.version_info[:2] in LGPIO_WHEEL_PYTHONS
GPIO = ",gpio" if WHEEL else ""
"""The extra for PyPI's lgpio where it has a wheel; elsewhere the plans below see Debian's lgpio instead."""


def plan(tmp_path, *options, model=None, device_tree=None, environ=None):
    """The stderr of a dry run for a venv in tmp_path, and its exit code.

    Where PyPI has no lgpio wheel for this Python (3.13), the run sees an ``lgpio`` module as if
    Debian's python3-lgpio were installed, which is how such a Pi is set up; the refusal without
    it is tested on its own below."""
    env = {key: value for key, value in os.environ.items() if key != "AZUL_LED_BACKEND"} | (environ or {})
    if not WHEEL:
        system = tmp_path / "system-packages"
        system.mkdir(exist_ok=True)
        (system / "lgpio.py").write_text("")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(system), env.get("PYTHONPATH")]))
    tree = ["--device-tree", str(device_tree)] if device_tree else []
    result = subprocess.run([sys.executable, str(MAKE_VENV), str(tmp_path / "venv"), "--dry-run", *tree, *options],
                            capture_output=True, text=True, env=env)
    return result.returncode, result.stderr


@pytest.fixture
def tool(monkeypatch):
    """tools/make_venv.py imported as a module, for the checks a dry run cannot stage."""
    spec = importlib.util.spec_from_file_location("make_venv", MAKE_VENV)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_pc_gets_a_plain_venv_and_the_dev_extra(tmp_path, device_tree):
    code, out = plan(tmp_path, device_tree=device_tree(None))
    assert code == 0
    assert "not a Raspberry Pi, LED backend simulator" in out and "extras dev\n" in out
    assert f"-m venv --clear {tmp_path / 'venv'}" in out
    python = tmp_path / "venv" / "bin" / "python"
    assert f"AZUL_TABLE_CORE_IN_PLACE=1 {python} -m pip install --quiet --no-compile -e '{PROJECT}[dev]'" in out
    # the installed files compiled after pip, on every core, as the last step
    site = tmp_path / "venv" / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    assert out.rstrip().splitlines()[-1] == f"  {python} -m compileall -q -j 0 {site}"


@pytest.mark.parametrize("model, extra", [(PI5, "pi5"), (PI4, "ws281x"), ("Raspberry Pi 3 Model B Plus Rev 1.3", "ws281x")])
def test_a_pi_sees_the_system_packages_and_gets_its_led_library(tmp_path, device_tree, model, extra):
    code, out = plan(tmp_path, device_tree=device_tree(model))
    assert code == 0, out
    assert f"-m venv --clear --system-site-packages {tmp_path / 'venv'}" in out
    assert f"{PROJECT}[dev,{extra}{GPIO}]" in out  # Python 3.11/3.12 get PyPI's lgpio wheel


def test_the_rig_file_and_the_environment_choose_the_backend(tmp_path, device_tree):
    code, out = plan(tmp_path, device_tree=device_tree(PI4), environ={"AZUL_LED_BACKEND": "blinka"})
    assert f"{PROJECT}[dev,blinka,ws281x{GPIO}]" in out  # Blinka drives a Pi 4's LEDs through rpi_ws281x
    rig = tmp_path / "rig.toml"
    rig.write_text((PROJECT / "hardware" / "reference_rig.toml").read_text().replace('backend = "auto"', 'backend = "simulator"'))
    code, out = plan(tmp_path, "--rig", str(rig), device_tree=device_tree(PI5))
    assert "LED backend simulator" in out and f"{PROJECT}[dev{GPIO}]" in out and "--system-site-packages" in out
    code, out = plan(tmp_path, device_tree=device_tree(PI5), environ={"AZUL_LED_BACKEND": "ws2812"})
    assert code == 1 and "AZUL_LED_BACKEND='ws2812' is not an LED backend" in out


def test_a_service_venv_has_the_project_itself_without_test_tools(tmp_path, device_tree):
    code, out = plan(tmp_path, "--service", device_tree=device_tree(PI5))
    assert f"pip install --quiet --no-compile '{PROJECT}[pi5{GPIO}]'" in out and "-m compileall -q -j 0" in out and "-e" not in out.split("pip install")[-1].split("\n")[0]
    assert "AZUL_TABLE_CORE_IN_PLACE" not in out  # the service's own copy carries the compiled core
    assert f"write_mo(target, read_po(source))\n' {PROJECT / 'web_remote' / 'translations'}" in out  # the phone page's languages


def test_the_service_catalogues_land_in_the_installed_package(tool, tmp_path):
    package = tmp_path / "site" / "web_remote"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    subprocess.run([sys.executable, "-c", tool.COMPILE_CATALOGUES, str(tool.CATALOGUES)], check=True,
                   env={**os.environ, "PYTHONPATH": str(tmp_path / "site")}, cwd=tmp_path)
    compiled = sorted(str(path.relative_to(package)) for path in package.rglob("*.mo"))
    expected = sorted(str(path.relative_to(PROJECT / "web_remote").with_suffix(".mo"))
                      for path in tool.CATALOGUES.glob("*/LC_MESSAGES/messages.po"))
    assert compiled == expected and len(expected) >= 3


def test_a_fitting_venv_is_kept_and_a_stale_one_made_again(tmp_path, device_tree):
    venv.create(tmp_path / "venv", with_pip=False)
    code, out = plan(tmp_path, device_tree=device_tree(None))
    assert "-m venv" not in out and "pip install" in out
    code, out = plan(tmp_path, device_tree=device_tree(PI5))  # the Pi needs the system's packages visible
    assert "-m venv --clear --system-site-packages" in out


def test_missing_build_tools_are_named_with_their_command(tool, monkeypatch, tmp_path):
    monkeypatch.setattr(tool.shutil, "which", lambda name: None)
    monkeypatch.setattr(tool.sysconfig, "get_paths", lambda: {"include": str(tmp_path)})
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(tool.importlib.util, "find_spec", lambda name: None if name == "ensurepip" else real_find_spec(name))
    version = "python%d.%d" % sys.version_info[:2]
    assert tool.missing_for_build() == [
        f"{version} cannot make a venv (no ensurepip): sudo apt install {version}-venv",
        "no C compiler (the rules core is compiled): sudo apt install build-essential",
        f"no headers for {version} (Python.h): sudo apt install {version}-dev",
    ]


def test_python_3_13_on_a_pi_needs_debian_lgpio(tool, monkeypatch, device_tree, capsys):
    monkeypatch.setattr(tool, "VERSION", (3, 13))
    monkeypatch.setattr(tool.sys, "prefix", "/usr")
    monkeypatch.setattr(tool, "missing_for_build", lambda: [])
    assert tool.main([str(device_tree(PI5).parent / "venv"), "--dry-run", "--device-tree", str(device_tree(PI5))]) == 1
    err = capsys.readouterr().err
    assert "the buttons need lgpio, which PyPI has no wheel of for Python 3.13: sudo apt install python3-lgpio" in err
    assert "pip install" not in err


def test_python_3_13_on_a_pi_with_debian_lgpio_gets_a_venv_that_sees_it(tool, monkeypatch, device_tree, capsys):
    monkeypatch.setattr(tool, "VERSION", (3, 13))
    monkeypatch.setattr(tool, "missing_for_build", lambda: [])
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(tool.importlib.util, "find_spec",
                        lambda name: importlib.util.spec_from_loader("lgpio", loader=None) if name == "lgpio" else real_find_spec(name))
    venv_dir = device_tree(PI5).parent / "venv"
    assert tool.main([str(venv_dir), "--dry-run", "--device-tree", str(device_tree(PI5))]) == 0
    err = capsys.readouterr().err
    assert f"-m venv --clear --system-site-packages {venv_dir}" in err
    assert f"'{PROJECT}[dev,pi5]'" in err  # lgpio comes from Debian, not from a pip extra


@pytest.mark.parametrize("in_place", [False, True])
def test_the_editable_install_leaves_the_core_to_make_build(in_place):
    """make build compiles the core in place right after the editable install: compiling it there too doubles set-up."""
    declared = subprocess.run(
        [sys.executable, "-c", "import setuptools; from distutils.core import run_setup; "
         "print(sorted(e.name for e in run_setup('setup.py', stop_after='init').ext_modules or []))"],
        cwd=PROJECT, capture_output=True, text=True, check=True,
        env={**os.environ, "AZUL_TABLE_CORE_IN_PLACE": "1" if in_place else "0"}).stdout.splitlines()[-1]
    every_module = sorted(".".join(p.relative_to(PROJECT).with_suffix("").parts) for p in PROJECT.glob("core_ext/**/*.pyx"))
    assert len(every_module) >= 7
    assert declared == ("[]" if in_place else repr(every_module))
