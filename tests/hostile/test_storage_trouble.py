"""Nothing acknowledged that is not on disk: storage trouble while the table runs.

The database file deleted or replaced under the running companion, a full
disk and a read-only file system each refuse the change (nothing applied),
with their own status and message over HTTP, once in the log per episode,
and on the OLED; the table keeps what it acknowledged. Real files, a real
small tmpfs for the full disk and a real read-only mount (root only: skipped
otherwise).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.config import Config
from app.runtime import SIM_SEATS, Companion, WebOptions
from companion.screens import render
from companion.store import Store
from tests.web.conftest import PIN, START
from tests.web.test_server import HttpHost

COMPANION = str(Path(sys.executable).parent / "companion")
DB = "companion.db"
POINT = {"type": "point", "winner": 0}
GONE = "Not saved: database file gone. See the log"
FULL = "Not saved: the disk is full. See the log"


def served(data: Path) -> Companion:
    """The companion as `run --sim` makes it: seat buttons, phone pages on a free port."""
    cfg = Config()
    cfg = replace(cfg, buttons=replace(cfg.buttons, seats=SIM_SEATS))
    return Companion(cfg, sim=True, data=data,
                     web=WebOptions(host="127.0.0.1", port=0, pin=PIN))


def oled_shows(c: Companion, message: str) -> None:
    """Wait until the panel's notice is ``message`` and the OLED's frame draws it."""
    changed = threading.Condition()

    def frame(image) -> None:
        with changed:
            changed.notify_all()

    c.oled.frames.add(frame)

    def shows() -> bool:
        state, image = c.panel.state, c.oled.device.image
        return (state.ui.message == message and image is not None
                and image.tobytes() == render(state, c.ctx).tobytes())

    with changed:
        assert changed.wait_for(shows, 5), c.panel.state.ui.message


def store_errors(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "companion.store" and r.levelno >= logging.ERROR]


# --- the database file deleted or replaced ---------------------------------------------------


def replace_with_another(data: Path) -> None:
    other = data / "other.db"
    with contextlib.closing(sqlite3.connect(other)) as conn:
        conn.execute("CREATE TABLE t (x)")
    os.replace(other, data / DB)


REMOVALS = {
    "the file": lambda data: (data / DB).unlink(),
    "the file and its log": lambda data: [(data / (DB + s)).unlink()
                                          for s in ("", "-wal", "-shm")],
    "the folder": lambda data: [p.unlink() for p in list(data.iterdir()) if p.is_file()],
    "replaced": replace_with_another,
}


@pytest.mark.parametrize("how", REMOVALS)
def test_a_database_deleted_while_running_refuses_changes_and_keeps_a_copy(
        tmp_path, caplog, how):
    data = tmp_path / "data"
    with served(data) as c:
        host = HttpHost(c.server.port)
        assert host.post("/api/match", START)[0] == 200
        for _ in range(5):
            status, _, state = host.post("/api/action", POINT)
            assert status == 200
        acknowledged = state["version"]
        REMOVALS[how](data)
        refusals = [host.post("/api/action", POINT) for _ in range(10)]
        for status, _, body in refusals:
            assert status == 503, body
            assert body["storage"] == "gone"
            assert str(data / DB) in body["error"]
            assert ("replaced" if how == "replaced" else "deleted") in body["error"]
        # Nothing applied: the table still shows what it acknowledged.
        assert c.table.snapshot.version == acknowledged
        assert host.request("GET", "/api/state")[2]["version"] == acknowledged
        oled_shows(c, GONE)
        # The panel's own change is refused the same way.
        c.press("seat1").result(5)
        assert c.table.snapshot.version == acknowledged
        oled_shows(c, GONE)
        errors = store_errors(caplog)
        assert len(errors) == 1, errors  # once, not once per request
        message = refusals[0][2]["error"]
        assert errors[0] == message
    # What to do: the copy named in the message holds every acknowledged change.
    rescued = Path(message.split("was copied to ")[1].split(":")[0])
    assert rescued.parent.parent == data and rescued.parent.name.startswith("rescued-")
    with Store(rescued, create=False) as store:
        assert store.version == acknowledged
        assert len(store.load(1).journal) == 5
    # ... and, put back as told, the table resumes from it.
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            (data / (DB + suffix)).unlink()
    os.replace(rescued, data / DB)
    with served(data) as c:
        assert c.notice is None
        assert c.table.snapshot.version == acknowledged
        assert c.table.snapshot.match["view"] == state["match"]["view"]


# --- a real small disk -------------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path) -> Iterator[Path]:
    """A 2 MiB tmpfs mounted at a new folder (root only); unmounted afterwards."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if os.geteuid() != 0 or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)],
            capture_output=True).returncode != 0:
        pytest.skip("needs root to mount a small tmpfs")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def fill(folder: Path) -> Path:
    """A file taking every free byte of ``folder``'s file system."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        with contextlib.suppress(OSError):  # ENOSPC: full
            while True:
                os.write(fd, bytes(4096))
    finally:
        os.close(fd)
    return filler


def test_a_full_disk_answers_507_says_so_once_and_loses_nothing(small_disk, caplog):
    with served(small_disk) as c:
        host = HttpHost(c.server.port)
        status, _, body = host.post("/api/match", START)
        assert status == 200
        acknowledged = body["version"]
        filler = fill(small_disk)
        # SQLite may still have room in its log: the first refusal comes soon.
        for _ in range(500):
            status, _, body = host.post("/api/action", POINT)
            if status != 200:
                break
            acknowledged = body["version"]
        assert status == 507, body
        assert body["storage"] == "full"
        assert body["error"].startswith("the disk is full: free space on the file system "
                                        f"holding {small_disk}")
        assert "internal error" not in body["error"]
        for _ in range(20):
            status, _, again = host.post("/api/action", POINT)
            assert (status, again["error"]) == (507, body["error"])
        assert c.table.snapshot.version == acknowledged
        oled_shows(c, FULL)
        assert store_errors(caplog) == [body["error"]]
        assert "Traceback" not in caplog.text
        # Space freed: the next change is saved, and the log says the episode ended.
        filler.unlink()
        status, _, state = host.post("/api/action", POINT)
        assert status == 200 and state["version"] == acknowledged + 1
        assert "changes are saved again" in caplog.text
    with served(small_disk) as c:
        assert c.table.snapshot.version == acknowledged + 1


def test_a_read_only_file_system_at_start_says_read_only_not_chown(small_disk):
    with served(small_disk) as c:
        host = HttpHost(c.server.port)
        assert host.post("/api/match", START)[0] == 200
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    for args in (("run", "--sim", "--port", "0"), ("history",)):
        result = subprocess.run([COMPANION, *args, "--data", str(small_disk)],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 2, result.stderr
        assert "read-only file system" in result.stderr
        assert "not a permission problem" in result.stderr and "fsck" in result.stderr
        assert "chown" not in result.stderr and "Traceback" not in result.stderr
    assert not list(small_disk.glob("damaged-*"))


# --- a card the kernel turns read-only while the table runs ----------------------------------


def mount_card(image: Path, folder: Path) -> None:
    """Mount the ext4 ``image`` at ``folder`` as a Pi's card is (errors=remount-ro)."""
    subprocess.run(["mount", "-o", "loop,errors=remount-ro", str(image), str(folder)],
                   check=True, capture_output=True)


@pytest.fixture
def card(tmp_path) -> Iterator[tuple[Path, Path]]:
    """(image, folder): a small ext4 file system on a loop device, mounted (root only)."""
    image, folder = tmp_path / "card.img", tmp_path / "card"
    folder.mkdir()
    with open(image, "wb") as f:
        f.truncate(8 * 2**20)
    try:
        subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], check=True, capture_output=True)
        mount_card(image, folder)
    except (OSError, subprocess.CalledProcessError) as err:
        pytest.skip(f"needs root, mkfs.ext4 and loop devices: {err}")
    try:
        yield image, folder
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)


def test_a_card_turned_read_only_while_running_refuses_changes_and_says_so(card, caplog):
    image, folder = card
    with served(folder) as c:
        host = HttpHost(c.server.port)
        assert host.post("/api/match", START)[0] == 200
        for _ in range(3):
            status, _, state = host.post("/api/action", POINT)
            assert status == 200
        acknowledged = state["version"]
        # What the kernel does to an SD card after I/O errors: ext4 turns the file
        # system read-only under the running companion (the mount still says rw).
        device = subprocess.run(["findmnt", "-n", "-o", "SOURCE", str(folder)], check=True,
                                capture_output=True, text=True).stdout.strip()
        Path(f"/sys/fs/ext4/{Path(device).name}/trigger_fs_error").write_text("test\n")
        for _ in range(10):
            status, _, body = host.post("/api/action", POINT)
            assert status == 503, body
            assert body["storage"] == "read-only"
            assert body["error"].startswith(f"the data folder is read-only: {folder} is on a "
                                            "read-only file system")
            assert "fsck" in body["error"] and "chown" not in body["error"]
        assert c.table.snapshot.version == acknowledged
        oled_shows(c, "Not saved: data folder is read-only. See the log")
        assert store_errors(caplog) == [body["error"]]
        assert "Traceback" not in caplog.text
    # A restart says read-only too, not permissions.
    result = subprocess.run([COMPANION, "run", "--sim", "--port", "0", "--data", str(folder)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr
    assert "read-only file system" in result.stderr and "chown" not in result.stderr
    # Checked and mounted again: every acknowledged change is there.
    subprocess.run(["umount", str(folder)], check=True)
    subprocess.run(["e2fsck", "-fy", str(image)], capture_output=True)
    mount_card(image, folder)
    with Store(folder / DB, create=False) as store:
        assert store.version == acknowledged
