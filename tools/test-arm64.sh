#!/usr/bin/env bash
# Runs the test suite on arm64 the way a Raspberry Pi OS trixie machine would:
# builds (once) an arm64 Debian trixie root with debootstrap, copies this
# working tree into it and runs `make build`, `make test` and
# `azul-table doctor` there under qemu-user emulation.
#
#   sudo apt install debootstrap qemu-user-static binfmt-support
#   sudo nice -n 19 tools/test-arm64.sh            # whole suite: hours (docs/rig.md)
#   sudo tools/test-arm64.sh -k core               # extra args go to pytest
#
# ARM64_ROOT (default /var/tmp/azul-arm64-trixie) keeps the root between runs;
# ARM64_MIRROR picks the Debian mirror; ARM64_PACKAGES adds Debian packages
# (for example chromium-headless-shell, for the browser tests, which otherwise are skipped);
# HYPOTHESIS_PROFILE=quick shortens the property tests; ARM64_JOBS (default:
# every core) is how many pytest workers share the suite, a test file each;
# ARM64_SLOWDOWN (default 30) stretches the tests' guards against a hang, since
# the table starts and plays here tens of times slower than on a PC.
# Times for each step are printed as `arm64.<step>: <seconds> s`.
set -euo pipefail
cd "$(dirname "$0")/.."

ROOT=${ARM64_ROOT:-/var/tmp/azul-arm64-trixie}
MIRROR=${ARM64_MIRROR:-http://deb.debian.org/debian}
PACKAGES="python3 python3-venv python3-dev build-essential make ca-certificates ${ARM64_PACKAGES:-}"
SRC=/src/azul-table

die() { echo "test-arm64: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root for debootstrap and chroot: run it with sudo"
command -v debootstrap >/dev/null || die "debootstrap is missing: sudo apt install debootstrap"
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || die "arm64 binaries cannot run here: sudo apt install qemu-user-static binfmt-support (then: sudo update-binfmts --enable qemu-aarch64)"

step() {  # step NAME COMMAND...: runs and times one step
    local name=$1 start rc=0; shift
    start=$(date +%s)
    "$@" || rc=$?
    echo "arm64.$name: $(( $(date +%s) - start )) s (exit $rc)"
    return $rc
}

make_root() {
    debootstrap --arch=arm64 --variant=minbase --include="${PACKAGES// /,}" trixie "$ROOT" "$MIRROR"
    touch "$ROOT/.azul-root-ready"
}

mounted=()
unmount_all() {
    local m
    for (( i=${#mounted[@]}-1; i>=0; i-- )); do umount -l "${mounted[i]}" 2>/dev/null || true; done
}
trap unmount_all EXIT
trap 'exit 130' INT TERM  # a stopped run unmounts too
bind() { mkdir -p "$ROOT$1"; mount --bind "$1" "$ROOT$1"; mounted+=("$ROOT$1"); }

in_root() {
    chroot "$ROOT" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 \
        PIP_CERT=/etc/ssl/certs/ca-certificates.crt PYTHONUNBUFFERED=1 AZUL_TEST_SLOWDOWN=${ARM64_SLOWDOWN:-30} \
        ${HYPOTHESIS_PROFILE:+HYPOTHESIS_PROFILE=$HYPOTHESIS_PROFILE} /bin/sh -c "cd $SRC && $1"
}

if [ ! -e "$ROOT/.azul-root-ready" ]; then
    step debootstrap make_root
fi
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
bind /proc; bind /sys; bind /dev; bind /dev/pts
# The root trusts the local certificate authorities the host trusts (a network
# whose proxy inspects TLS would otherwise fail pip with CERTIFICATE_VERIFY_FAILED).
local_cas=(/usr/local/share/ca-certificates/*.crt)
if [ -e "${local_cas[0]}" ]; then
    mkdir -p "$ROOT/usr/local/share/ca-certificates"
    cp "${local_cas[@]}" "$ROOT/usr/local/share/ca-certificates/"
    chroot "$ROOT" /usr/sbin/update-ca-certificates >/dev/null
fi

# The working tree as git sees it (tracked and new files, nothing ignored);
# the venv and the built core stay in the root between runs.
mkdir -p "$ROOT$SRC"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$ROOT$SRC"

# A root made earlier gets the packages asked for now as well.
if [ -n "${ARM64_PACKAGES:-}" ]; then
    step packages in_root "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${ARM64_PACKAGES}"
fi

in_root 'uname -m; python3 --version; gcc --version | head -1'
step venv in_root 'make .venv/.installed'
step core_build in_root 'make build'
status=0
# Under emulation a test runs up to ~70 times slower than natively (the AI's threaded searches most),
# so the suite's per-test timeout of 600 s becomes ARM64_TEST_TIMEOUT (default 3 hours).
# One emulated pytest uses one core; pytest-xdist runs ARM64_JOBS of them, each on whole files.
jobs=${ARM64_JOBS:-$(nproc)}
workers=$([ "$jobs" -gt 1 ] && echo "-n $jobs --dist loadfile" || true)
step suite in_root "make test PYTEST_ARGS='-q -p no:cacheprovider --timeout=${ARM64_TEST_TIMEOUT:-10800} $workers $*'" || status=$?
in_root '.venv/bin/azul-table doctor' || true
exit $status
