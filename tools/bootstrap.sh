# Sourced by ./run and ./test: make the venv (Python 3.11+) and install the
# project into it, again only when pyproject.toml or the wanted extras change.
# Sets VENV_PY to the venv's python.
#
# VENV names the venv folder (default .venv; relative to the checkout), so one
# checkout can keep a venv per Python: PYTHON=python3.13 VENV=.venv-3.13 ./test
# PYTHON picks the Python that creates it; when the folder already holds a
# venv of another Python version this stops with a message instead of quietly
# running the wrong one.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV=${VENV:-.venv}
[[ "$VENV" = /* ]] || VENV="$ROOT/$VENV"
EXTRAS=${1:-}

# The X.Y version of the Python named by $1, if it runs and is 3.11 or newer.
python_version() {
    "$1" -c 'import sys; assert sys.version_info >= (3, 11); print("%d.%d" % sys.version_info[:2])' \
        2>/dev/null
}

find_python() {
    # Run each candidate rather than trusting `command -v`: a pyenv shim for
    # a version that is not selected exists on PATH but does not run.
    for candidate in ${PYTHON:-} python3.13 python3.12 python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1 && python_version "$candidate" >/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    if [ -n "${PYTHON:-}" ]; then
        echo "PYTHON=$PYTHON does not run as Python 3.11 or newer." >&2
    else
        echo "Table Companion needs Python 3.11 or newer; none found (set PYTHON=/path/to/python3.11)." >&2
    fi
    return 1
}

if [ -n "${PYTHON:-}" ]; then
    wanted=$(python_version "$PYTHON") || {
        echo "PYTHON=$PYTHON does not run as Python 3.11 or newer." >&2
        exit 1
    }
    if [ -x "$VENV/bin/python" ]; then
        have=$(python_version "$VENV/bin/python" || echo "an unusable Python")
        if [ "$have" != "$wanted" ]; then
            echo "$VENV holds Python $have but PYTHON=$PYTHON is $wanted:" \
                "set VENV=.venv-$wanted to keep a venv per Python, or remove $VENV." >&2
            exit 1
        fi
    fi
fi

if [ ! -x "$VENV/bin/python" ]; then
    PY=$(find_python)
    echo "Creating $VENV with $PY ..." >&2
    "$PY" -m venv "$VENV"
fi

spec="."
[ -n "$EXTRAS" ] && spec=".[$EXTRAS]"
stamp="$VENV/.installed"
hash=$(sha256sum <"$ROOT/pyproject.toml" | cut -c1-16)
want="$hash $spec"
installed() {
    [ -f "$stamp" ] || return 1
    if [ -n "$EXTRAS" ]; then
        grep -qxF "$want" "$stamp"
    else
        # Any install of this pyproject.toml holds the plain project, so
        # ./run after ./test (which adds the test extra) installs nothing.
        grep -qE "^$hash \.(\[|\$)" "$stamp"
    fi
}
if ! installed; then
    echo "Installing Table Companion ($spec) into $VENV ..." >&2
    # --no-compile: ./test keeps its bytecode under the venv's pycache folder (not in the
    # packages' own), and ./run compiles what it imports on its first start; the install
    # need not compile every module of every package (3 s of 8 here).
    "$VENV/bin/python" -m pip install --quiet --no-compile --disable-pip-version-check -e "$ROOT$([ -n "$EXTRAS" ] && echo "[$EXTRAS]")" >&2
    echo "$want" >>"$stamp"
fi
VENV_PY="$VENV/bin/python"
