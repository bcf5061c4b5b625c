#!/bin/sh
# `sudo make install` / `sudo make uninstall`: the table as a systemd service
# on the Pi, as docs/rig.md ("Running as a service") describes by hand.
#
# install: the service user (in the gpio and spi groups), its own venv with
# the project and the board's LED library (tools/make_venv.py --service), the
# unit (deploy/azul-table.service; as root when rpi_ws281x drives PWM/PCM),
# enabled and (re)started. Running it again changes nothing but the restart.
# uninstall: stops and removes the service, its venv and its user; the
# journal (the games played) stays in the service's home.
#
# Every path and command can be replaced (the tests run it in a temporary
# root): DESTDIR prefixes the files written; SERVICE_USER, SERVICE_HOME,
# UNIT_DIR, PYTHON, RIG, DEVICE_TREE; SYSTEMCTL, USERADD, USERMOD, USERDEL,
# GETENT, CHOWN, MAKE_VENV.
set -eu
cd "$(dirname "$0")/.."

ACTION=${1:?usage: tools/service.sh install|uninstall}
DESTDIR=${DESTDIR:-}
SERVICE_USER=${SERVICE_USER:-azul}
SERVICE_HOME=${SERVICE_HOME:-/opt/azul-table}
UNIT_DIR=${UNIT_DIR:-/etc/systemd/system}
UNIT=azul-table.service
SYSTEMCTL=${SYSTEMCTL:-systemctl}
USERADD=${USERADD:-useradd}
USERMOD=${USERMOD:-usermod}
USERDEL=${USERDEL:-userdel}
GETENT=${GETENT:-getent}
CHOWN=${CHOWN:-chown}
VENV=$SERVICE_HOME/.venv
UNIT_FILE=$DESTDIR$UNIT_DIR/$UNIT
DROP_IN=$DESTDIR$UNIT_DIR/$UNIT.d/run-as-root.conf

say() { echo "azul-table service: $*"; }

if [ -z "$DESTDIR" ] && [ "$(id -u)" -ne 0 ]; then
    echo "azul-table service: $ACTION changes the system: run it as root (sudo make $ACTION)" >&2
    exit 1
fi

install_service() {
    if $GETENT passwd "$SERVICE_USER" >/dev/null; then
        say "user $SERVICE_USER exists"
    else
        $USERADD --system --user-group --create-home --home-dir "$SERVICE_HOME" --shell /usr/sbin/nologin "$SERVICE_USER"
        say "made user $SERVICE_USER (home $SERVICE_HOME)"
    fi
    for group in gpio spi; do
        if ! $GETENT group "$group" >/dev/null; then
            say "no $group group on this machine (not Raspberry Pi OS?): skipped"
        elif ! $GETENT group "$group" | cut -d: -f4 | tr , '\n' | grep -qx "$SERVICE_USER"; then
            $USERMOD -aG "$group" "$SERVICE_USER"
            say "added $SERVICE_USER to $group"
        fi
    done

    mkdir -p "$DESTDIR$SERVICE_HOME"
    set -- "$DESTDIR$VENV" --service
    [ -n "${RIG:-}" ] && set -- "$@" --rig "$RIG"
    [ -n "${DEVICE_TREE:-}" ] && set -- "$@" --device-tree "$DEVICE_TREE"
    if [ -n "${MAKE_VENV:-}" ]; then
        $MAKE_VENV "$@"
    else
        "${PYTHON:?no Python: run it through make (sudo make install)}" tools/make_venv.py "$@"
    fi
    $CHOWN -R "$SERVICE_USER:" "$DESTDIR$SERVICE_HOME"

    mkdir -p "$DESTDIR$UNIT_DIR"
    sed -e "s|/opt/azul-table|$SERVICE_HOME|g" -e "s|^User=azul$|User=$SERVICE_USER|" -e "s|^Group=azul$|Group=$SERVICE_USER|" \
        deploy/$UNIT > "$UNIT_FILE.new"
    mv "$UNIT_FILE.new" "$UNIT_FILE"
    set -- backend
    [ -n "${RIG:-}" ] && set -- "$@" --rig "$RIG"
    [ -n "${DEVICE_TREE:-}" ] && set -- "$@" --device-tree "$DEVICE_TREE"
    backend=$("$DESTDIR$VENV/bin/python" -m hardware "$@")
    if [ "${backend#* }" = root ]; then
        mkdir -p "$(dirname "$DROP_IN")"
        cat > "$DROP_IN" <<EOF
# rpi_ws281x drives the LED data on PWM/PCM through /dev/mem, which only root may open.
[Service]
User=root
Group=root
Environment=AZUL_TABLE_DATA=$SERVICE_HOME/.local/share/azul-table
EOF
        say "rpi_ws281x on PWM: the service runs as root ($UNIT_DIR/$UNIT.d/run-as-root.conf)"
    else
        rm -rf "$DESTDIR$UNIT_DIR/$UNIT.d"
    fi
    $SYSTEMCTL daemon-reload
    $SYSTEMCTL enable "$UNIT"
    $SYSTEMCTL restart "$UNIT"
    say "enabled and started; its log: journalctl -u azul-table -f"
    say "check the rig: sudo -u $SERVICE_USER $VENV/bin/azul-table doctor"
}

uninstall_service() {
    if [ -e "$UNIT_FILE" ]; then
        $SYSTEMCTL disable --now "$UNIT" || true
        rm -f "$UNIT_FILE"
        rm -rf "$DESTDIR$UNIT_DIR/$UNIT.d"
        $SYSTEMCTL daemon-reload
        say "service removed"
    fi
    rm -rf "$DESTDIR$VENV"
    if $GETENT passwd "$SERVICE_USER" >/dev/null; then
        $USERDEL "$SERVICE_USER"
        say "user $SERVICE_USER removed"
    fi
    if [ -d "$DESTDIR$SERVICE_HOME" ]; then
        say "kept $SERVICE_HOME (the journal of the games played); delete it with: sudo rm -r $SERVICE_HOME"
    fi
}

case $ACTION in
    install) install_service ;;
    uninstall) uninstall_service ;;
    *) echo "usage: tools/service.sh install|uninstall" >&2; exit 2 ;;
esac
