"""The core stays free of hardware, web and serial libraries (DESIGN.md)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import companion

FORBIDDEN = {"drivers", "web", "flask", "gpiozero", "luma", "serial", "waitress"}
CORE = Path(companion.__file__).parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_no_core_module_imports_an_io_library():
    offenders = {
        str(path.relative_to(CORE)): sorted(imported_modules(path) & FORBIDDEN)
        for path in CORE.rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_importing_the_whole_core_loads_none_of_them():
    code = (
        "import importlib, json, pkgutil, sys, companion\n"
        "for m in pkgutil.walk_packages(companion.__path__, 'companion.'):\n"
        "    if m.name != 'companion.__main__':\n"
        "        importlib.import_module(m.name)\n"
        "print(json.dumps(sorted({n.split('.')[0] for n in sys.modules})))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    assert set(json.loads(out)) & FORBIDDEN == set()
