"""tools/service.sh (make install / uninstall) in a temporary root: the user, groups, venv and unit, the
systemctl calls, nothing changed by a second run, and uninstall reversing it but keeping the journal."""
import subprocess
import sys

import pytest

from tests.setup.conftest import PI4, PI5, PROJECT

SERVICE = PROJECT / "tools" / "service.sh"
UNIT = "etc/systemd/system/azul-table.service"
DROP_IN = "etc/systemd/system/azul-table.service.d/run-as-root.conf"

# Stand-ins for the system's commands: each appends its command line to $LOG; user and group
# membership live in $STATE so that getent answers what useradd/usermod/userdel did.
FAKES = {
    "systemctl": 'echo "systemctl $*" >> "$LOG"\n',
    "chown": 'echo "chown $*" >> "$LOG"\n',
    "useradd": 'echo "useradd $*" >> "$LOG"; for last; do :; done; touch "$STATE/user-$last"\n',
    "usermod": 'echo "usermod $*" >> "$LOG"; echo "$3" >> "$STATE/group-$2"\n',
    "userdel": 'echo "userdel $*" >> "$LOG"; rm "$STATE/user-$1"\n',
    "getent": (
        'case $1 in\n'
        '  passwd) test -e "$STATE/user-$2" && echo "$2:x:999:999::/opt/azul-table:/usr/sbin/nologin" ;;\n'
        '  group) test "$2" = gpio -o "$2" = spi || exit 2; echo "$2:x:990:$(paste -sd, "$STATE/group-$2" 2>/dev/null)" ;;\n'
        'esac\n'
    ),
    "make-venv": (
        'echo "make-venv $*" >> "$LOG"; mkdir -p "$1/bin"; ln -sf "$PYTHON_FOR_TESTS" "$1/bin/python"\n'
    ),
}


@pytest.fixture
def system(tmp_path, device_tree):
    """Runs tools/service.sh in tmp_path/root with the stand-ins; ``.log()`` and ``.files()`` say what it did."""
    fakes = tmp_path / "fakes"
    fakes.mkdir()
    (tmp_path / "state").mkdir()
    for name, body in FAKES.items():
        (fakes / name).write_text("#!/bin/sh\n" + body)
        (fakes / name).chmod(0o755)
    root = tmp_path / "root"
    root.mkdir()

    class System:
        def run(self, action, model=PI5):
            env = {
                "PATH": "/usr/bin:/bin", "DESTDIR": str(root), "LOG": str(tmp_path / "log"), "STATE": str(tmp_path / "state"),
                "PYTHON_FOR_TESTS": sys.executable, "DEVICE_TREE": str(device_tree(model)),
                "SYSTEMCTL": str(fakes / "systemctl"), "CHOWN": str(fakes / "chown"), "USERADD": str(fakes / "useradd"),
                "USERMOD": str(fakes / "usermod"), "USERDEL": str(fakes / "userdel"), "GETENT": str(fakes / "getent"),
                "MAKE_VENV": str(fakes / "make-venv"),
            }
            (tmp_path / "log").write_text("")
            result = subprocess.run(["/bin/sh", str(SERVICE), action], env=env, capture_output=True, text=True)
            assert result.returncode == 0, result.stderr
            return result.stdout

        def log(self):
            return (tmp_path / "log").read_text().replace(str(root), "$DESTDIR").splitlines()

        def files(self):
            return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*"))
                    if path.is_file() and not path.is_symlink()}

        def users(self):
            return sorted(path.name for path in (tmp_path / "state").iterdir())

    return System()


def test_install_puts_the_service_in_place(system, device_tree):
    out = system.run("install")
    assert system.log() == [
        "useradd --system --user-group --create-home --home-dir /opt/azul-table --shell /usr/sbin/nologin azul",
        "usermod -aG gpio azul",
        "usermod -aG spi azul",
        f"make-venv $DESTDIR/opt/azul-table/.venv --service --device-tree {device_tree(PI5)}",
        "chown -R azul: $DESTDIR/opt/azul-table",
        "systemctl daemon-reload",
        "systemctl enable azul-table.service",
        "systemctl restart azul-table.service",
    ]
    assert system.files() == {UNIT: (PROJECT / "deploy" / "azul-table.service").read_bytes()}
    assert system.users() == ["group-gpio", "group-spi", "user-azul"]
    assert "enabled and started; its log: journalctl -u azul-table -f" in out


def test_installing_twice_changes_nothing(system):
    system.run("install")
    files = system.files()
    out = system.run("install")
    assert system.files() == files
    assert [line for line in system.log() if line.startswith(("useradd", "usermod"))] == []
    assert "user azul exists" in out


def test_pwm_on_a_pi_4_runs_the_service_as_root_and_keeps_the_journal_in_place(system):
    out = system.run("install", model=PI4)
    drop_in = system.files()[DROP_IN].decode()
    assert "User=root\nGroup=root\nEnvironment=AZUL_TABLE_DATA=/opt/azul-table/.local/share/azul-table\n" in drop_in
    assert "rpi_ws281x on PWM: the service runs as root" in out
    system.run("install", model=PI5)  # the same card moved to a Pi 5: the user suffices again
    assert DROP_IN not in system.files()


def test_uninstall_reverses_install_and_keeps_the_journal(system, tmp_path):
    system.run("install")
    journal = tmp_path / "root" / "opt" / "azul-table" / ".local" / "share" / "azul-table" / "journal.sqlite3"
    journal.parent.mkdir(parents=True)
    journal.write_text("games")
    out = system.run("uninstall")
    assert system.log() == ["systemctl disable --now azul-table.service", "systemctl daemon-reload", "userdel azul"]
    assert list(system.files()) == [str(journal.relative_to(tmp_path / "root"))]
    assert not (tmp_path / "root" / "opt" / "azul-table" / ".venv").exists()
    assert "kept /opt/azul-table (the journal of the games played); delete it with: sudo rm -r /opt/azul-table" in out
    system.run("uninstall")
    assert system.log() == []


def test_install_needs_root_on_the_real_system(tmp_path):
    if subprocess.run(["id", "-u"], capture_output=True, text=True).stdout.strip() == "0":
        # As nobody, on standard input: a checkout under a private directory (mktemp -d) is not readable by nobody.
        with SERVICE.open() as script:
            result = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-s", "install"],
                                    stdin=script, capture_output=True, text=True, cwd=tmp_path)
    else:
        result = subprocess.run(["/bin/sh", str(SERVICE), "install"], capture_output=True, text=True)
    assert result.returncode == 1
    assert "install changes the system: run it as root (sudo make install)" in result.stderr
