#!/usr/bin/env bash
# Install (or update) Table Companion on Raspberry Pi OS, Bookworm or later.
#   sudo systemd/install.sh            install, enable and start the service
#   sudo systemd/install.sh --dry-run  print what it would do
# Safe to run again: it keeps /etc/companion/config.toml, the PIN and the matches.
set -euo pipefail

PREFIX=/opt/table-companion
DRY=

usage() {
    echo "usage: sudo $0 [--dry-run]"
    echo "  --dry-run  print the steps instead of running them"
}

run() {
    if [ -n "$DRY" ]; then
        printf '+ %s\n' "$*"
    else
        "$@"
    fi
}

# Six random digits, every PIN equally likely. 32 random bits hold 4294 whole
# runs of a million and a short one: a draw in the short one is drawn again,
# as the remainder of it would favour the lower PINs (and the first digits of
# the number, as taken before, favour PINs starting with 1 to 4 five to one).
random_pin() {
    local n
    while :; do
        # Bash 5.1 and later (Raspberry Pi OS since bullseye) draw 32 bits from
        # the kernel's random source in $SRANDOM, with no process started (the
        # tests draw a thousand PINs); an older bash leaves it unset and reads
        # /dev/urandom through od, whose blanks the arithmetic drops.
        n=${SRANDOM:-$(($(od -An -N4 -tu4 /dev/urandom)))}
        if [ "$n" -lt 4294000000 ]; then
            printf '%06d\n' $((n % 1000000))
            return
        fi
    done
}

# Sourced (as the tests do): the functions above, nothing run.
if [ "${BASH_SOURCE[0]}" != "$0" ]; then
    return 0
fi

# Options first, before anything is run: a mistyped --dry-run must not install.
while [ $# -gt 0 ]; do
    case $1 in
        --dry-run) DRY=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
SRC=$(cd "$(dirname "$0")/.." && pwd)

if [ -z "$DRY" ] && [ "$(id -u)" -ne 0 ]; then
    echo "Run as root: sudo $0" >&2
    exit 1
fi

echo "== packages: Python, the Pi's pin libraries from Debian (no compiling), I2C tools"
run apt-get update
run apt-get install -y python3-venv python3-lgpio python3-rpi.gpio i2c-tools

echo "== I2C on (for the OLED); takes effect after a reboot if it was off"
if command -v raspi-config >/dev/null 2>&1; then
    run raspi-config nonint do_i2c 0
else
    echo "raspi-config not found: enable I2C yourself (dtparam=i2c_arm=on in config.txt)"
fi

echo "== the unprivileged 'companion' user and its device groups"
if ! id companion >/dev/null 2>&1; then
    run useradd --system --user-group --home-dir /var/lib/companion --shell /usr/sbin/nologin companion
fi
for group in gpio i2c spi dialout; do
    if getent group "$group" >/dev/null; then
        run usermod -aG "$group" companion
    fi
done

echo "== the program in $PREFIX, in a venv that sees Debian's lgpio and RPi.GPIO"
run mkdir -p "$PREFIX"
run cp -a "$SRC/pyproject.toml" "$SRC/README.md" "$SRC/config.example.toml" \
    "$SRC/companion" "$SRC/drivers" "$SRC/web" "$SRC/app" "$SRC/systemd" "$PREFIX/"
run python3 -m venv --system-site-packages "$PREFIX/.venv"
run "$PREFIX/.venv/bin/pip" install --quiet "$PREFIX[pi]"

echo "== configuration in /etc/companion (kept if present)"
run install -d -m 0750 -g companion /etc/companion
if [ ! -e /etc/companion/config.toml ]; then
    run install -m 0640 -g companion "$SRC/config.example.toml" /etc/companion/config.toml
fi
if [ ! -e /etc/companion/env ]; then
    if [ -n "$DRY" ]; then
        echo "+ write COMPANION_PIN=<6 random digits> to /etc/companion/env"
    else
        pin=$(random_pin)
        umask 027
        printf 'COMPANION_PIN=%s\n' "$pin" >/etc/companion/env
        chgrp companion /etc/companion/env
        echo "Host PIN for the phone page: $pin (change it in /etc/companion/env)"
    fi
fi

echo "== the systemd service"
run install -m 0644 "$SRC/systemd/companion.service" /etc/systemd/system/companion.service
run systemctl daemon-reload
run systemctl enable --now companion.service
run systemctl restart companion.service

echo "Done. Status: systemctl status companion   Logs: journalctl -u companion -f"
