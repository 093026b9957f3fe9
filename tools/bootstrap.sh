# Sourced by ./run and ./test: make .venv (Python 3.11+) and install the
# project into it, again only when pyproject.toml or the wanted extras change.
# Sets VENV_PY to the venv's python.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV="$ROOT/.venv"
EXTRAS=${1:-}

find_python() {
    for candidate in ${PYTHON:-} python3.13 python3.12 python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    echo "Table Companion needs Python 3.11 or newer; none found (set PYTHON=/path/to/python3.11)." >&2
    return 1
}

if [ ! -x "$VENV/bin/python" ]; then
    PY=$(find_python)
    echo "Creating $VENV with $PY ..." >&2
    "$PY" -m venv "$VENV"
fi

spec="."
[ -n "$EXTRAS" ] && spec=".[$EXTRAS]"
stamp="$VENV/.installed"
want="$(cat "$ROOT/pyproject.toml" | sha256sum | cut -c1-16) $spec"
if [ ! -f "$stamp" ] || ! grep -qxF "$want" "$stamp"; then
    echo "Installing Table Companion ($spec) into $VENV ..." >&2
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$ROOT$([ -n "$EXTRAS" ] && echo "[$EXTRAS]")" >&2
    echo "$want" >>"$stamp"
fi
VENV_PY="$VENV/bin/python"
