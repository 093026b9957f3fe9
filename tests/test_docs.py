"""Every fenced code block in README.md and docs/*.md is checked here, so the docs cannot drift.

How a block is checked depends on its language tag, refined by an optional
marker: an HTML comment on the line right above the fence (GitHub does not
show it), ``<!-- doc-test: {JSON} -->``.

- ``sh``: one command per line (``  # comment`` ignored). ``./run replay``,
  ``./run import``, ``./run history`` and ``./run export`` are run for real:
  all of one document's, in the order written, in one temp folder that holds
  the document's match files, with ``./run`` standing for the venv's
  ``companion`` and ``COMPANION_DATA`` / ``HOME`` pointing into the temp
  folder; each must exit 0. The benchmarks run for real with small sizes
  (``SMALL``). Any other command must be in ``ELSEWHERE``: the file that runs
  it and a string that file must contain. A command in none of these fails.
- ``jsonl``: a match file, replayed with ``companion replay`` (must exit 0).
  Marker keys: ``file`` (the name the document's commands use for it),
  ``seed`` (``--seed``), ``view`` (keys and values the final view must have),
  ``refuses`` (a list of ``{"after": N, "action": {...}, "error": text}``: the
  file's first N actions then that action must exit 2 with the text on
  stderr, so a refusal the document tells of is the program's).
- ``python``: needs the marker ``{"check": "python-session"}``: a doctest session
  (``>>> `` lines and what they print), run and compared exactly.
- ``json``, ``text`` and ``toml``: need a marker ``{"check": NAME}``, one of
  ``CHECKS`` below; each compares the block with what the program really
  does or prints. An unknown tag or check fails: add one here. A ``curl``
  block is a terminal session (``$ `` commands, the lines they print) run in
  bash against a real ``companion run --sim``; a ``hall-curl`` one against a
  real ``companion hall`` on a Mosquitto holding five tables.
- An ``sh`` block with a check is run by that check instead of the rules
  above: ``mosquitto-setup`` (the club broker's certificates, users and file
  modes), ``club-hall`` (``companion hall`` against that broker).
- The club's Mosquitto: ``mosquitto-conf`` (a broker config) and
  ``mosquitto-acl`` (its ACL file) start a real Mosquitto with the document's
  setup commands, config and ACL (tests/mqtt/club.py says what is
  substituted) and prove what the README says of them. ``mqtt-config`` is a
  ``[mqtt]`` section the config loader takes; ``mqtt-payload`` an MQTT
  payload of docs/api.md compared with what companion/topics.py makes.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.cli import _parser
from companion import matchfile
from companion.store import Store
from companion.table import Table
from tests.support import CATALOG

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
COMPANION = str(Path(sys.executable).parent / "companion")

#: Commands another test (or CI itself) runs: command -> (file, a string it must hold).
ELSEWHERE: dict[str, tuple[str, str]] = {
    "./run": ("tests/e2e/test_run.py", 'run_companion("--sim"'),
    "./test": (".ci/run", "./test"),
    "sudo systemd/install.sh": ("tests/test_systemd.py", '"install.sh"), "--dry-run"'),
    "tools/catalogs new it": ("tests/i18n/test_catalogs.py", '"new", "it"'),
}
#: Benchmarks, run for real with these (small) arguments added.
SMALL: dict[str, list[str]] = {
    ".venv/bin/python -m tests.bench.bench_store": ["--events", "20", "--resume-events", "50",
                                                   "--history-matches", "5"],
    ".venv/bin/python -m tests.bench.bench_panel": ["--taps", "3", "--idle", "0.3",
                                                   "--dim-after", "0.1", "--shift-every", "0.1"],
    ".venv/bin/python -m tests.bench.bench_web": ["--streams", "2", "--changes", "2",
                                                 "--idle", "0.3"],
    ".venv/bin/python -m tests.bench.bench_busy": ["--actions", "8", "--clients", "2",
                                                  "--sync", "0.01"],
    ".venv/bin/python -m tests.bench.bench_hostile": ["--slow", "5", "--addresses", "2",
                                                     "--uploads", "1", "--upload-mb", "1",
                                                     "--partial", "2"],
    ".venv/bin/python -m tests.bench.bench_phone": ["--runs", "1"],
    ".venv/bin/python -m tests.bench.bench_reads": ["--matches", "20", "--addresses", "2",
                                                   "--connections", "2", "--seconds", "1",
                                                   "--settle", "1"],
    ".venv/bin/python -m tests.bench.bench_mqtt": ["--tables", "3", "--actions", "3"],
    ".venv/bin/python -m tests.bench.bench_hall_reads": ["--tables", "20", "--readers", "2",
                                                        "--seconds", "1"],
    ".venv/bin/python -m tests.bench.bench_rss": ["--actions", "16", "--warmup", "10"],
    ".venv/bin/python -m tests.bench.bench_ratings": ["--matches", "30", "--players", "8",
                                                     "--requests", "3"],
    ".venv/bin/python -m tests.bench.bench_pairing": ["--players", "30", "--rounds", "2",
                                                      "--seat", "16"],
    ".venv/bin/python -m tests.bench.bench_offer": ["--offers", "3"],
    ".venv/bin/python -m tests.bench.bench_night": ["--players", "12", "--tables", "6",
                                                    "--rounds", "2", "--samples", "2"],
}
#: ``./run`` subcommands that are run for real in a temp data folder.
RUN_FOR_REAL = ("replay", "import", "history", "export")

FENCE = re.compile(r"^```(\S*)\s*$")
MARKER = re.compile(r"^<!-- doc-test: (\{.*\}) -->$")


@dataclass(frozen=True)
class Block:
    doc: Path
    line: int          # of the opening fence, 1-based
    tag: str
    text: str
    marker: dict[str, Any]

    def __str__(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"


def blocks(doc: Path) -> list[Block]:
    """The fenced blocks of ``doc`` with their tags and markers."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        marker = MARKER.match(lines[i - 1]) if i else None
        found.append(Block(doc, i + 1, fence.group(1), "\n".join(lines[i + 1:end]) + "\n",
                           json.loads(marker.group(1)) if marker else {}))
        i = end + 1
    return found


ALL = [b for doc in DOCS for b in blocks(doc)]


def commands(block: Block) -> list[str]:
    """The commands of an ``sh`` block, comments and blank lines dropped."""
    out = []
    for line in block.text.splitlines():
        command = re.sub(r"\s+#.*$", "", line).strip()
        if command and not command.startswith("#"):
            out.append(command)
    return out


def run_for_real(command: str) -> bool:
    words = command.split()
    return words[0] == "./run" and len(words) > 1 and words[1] in RUN_FOR_REAL


def companion(*args: str, cwd: Path | None = None,
              env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([COMPANION, *args], capture_output=True, text=True, timeout=60,
                          cwd=cwd, env=env)


def sandbox_env(tmp: Path) -> dict[str, str]:
    """The environment with every data location inside ``tmp``: never the user's files."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("COMPANION_DATA", "XDG_DATA_HOME", "COMPANION_PIN")}
    env["HOME"] = str(tmp / "home" / "you")
    return env


# --- the rules for every block --------------------------------------------------------


def test_the_docs_have_blocks_and_every_block_has_a_rule():
    assert len(ALL) >= 10 and {b.doc.name for b in ALL} >= {"README.md", "api.md"}
    for block in ALL:
        if block.tag in ("sh", "jsonl") and "check" not in block.marker:
            continue
        assert block.tag in ("json", "text", "toml", "sh", "python"), (
            f"{block}: no rule for a ```{block.tag or '(untagged)'} block: tag it sh, jsonl, "
            "json, toml, python or text (see tests/test_docs.py)")
        assert block.marker.get("check") in CHECKS, (
            f"{block}: a ```{block.tag} block needs <!-- doc-test: {{\"check\": NAME}} --> "
            f"above it, NAME one of {', '.join(CHECKS)}")


def test_every_shell_command_is_run_here_or_by_a_named_test():
    for block in (b for b in ALL if b.tag == "sh" and "check" not in b.marker):
        for command in commands(block):
            if run_for_real(command) or command in SMALL:
                continue
            assert command in ELSEWHERE, (
                f"{block}: {command!r} is neither run by tests/test_docs.py nor mapped to the "
                "test that runs it (ELSEWHERE)")
            path, needle = ELSEWHERE[command]
            assert needle in (ROOT / path).read_text(), f"{path} no longer runs {command!r}"


@pytest.mark.parametrize("block", [b for b in ALL if b.tag == "jsonl"], ids=str)
def test_a_match_file_replays(block, tmp_path):
    path = tmp_path / block.marker.get("file", "match.jsonl")
    path.write_text(block.text)
    seed = block.marker.get("seed")
    result = companion("replay", str(path), *(["--seed", str(seed)] if seed is not None else []))
    if "refused" in block.marker:  # a file the rules refuse: the exact error line
        assert (result.returncode, result.stderr) == (2, block.marker["refused"]), block
        return
    assert result.returncode == 0, f"{block}: {result.stderr}"
    view = json.loads(result.stdout)
    expected = block.marker.get("view", {})
    assert {k: view.get(k) for k in expected} == expected, f"{block}: the final view differs"


def zoo_example(block: Block) -> bool:
    first = block.text.splitlines()[0]
    return json.loads(first).get("game") == "alakazoo"


@pytest.mark.parametrize("block", [b for b in ALL if b.tag == "jsonl" and zoo_example(b)],
                         ids=str)
def test_an_alakazoo_example_spends_no_magic_power_a_player_could_not_have(block):
    """RULINGS: every example plays a game the rulebook allows. The companion does not
    count Magic Power (it cannot see the runes), so an example could display with
    tokens nobody rolled; this bounds them from the rulebook. A player starts with at
    most 1 token, a die rolled gives at most 1, nobody keeps more than 6, a display
    spends 2 and the Magic Helper 1. The lines up to a refused one are checked."""
    lines = block.text.splitlines()
    refused = re.match(r"companion: line (\d+):", block.marker.get("refused", ""))
    if refused:
        lines = lines[:int(refused.group(1)) - 1]
    match = matchfile.replay(lines, random.Random(block.marker.get("seed", 0)), CATALOG)
    tokens = [1] * len(match.start.players)
    for n, event in enumerate(match.events, start=1):
        p, kind = event["by"], event["type"]
        if kind == "roll":
            tokens[p] = min(6, tokens[p] + len(event["faces"]))
        spent = {"display": 2, "swap": 1, "helper": 1}.get(kind, 0)
        if kind == "dark_power" and event["reason"] == "helper":
            spent = 1
        tokens[p] -= spent
        assert tokens[p] >= 0, (
            f"{block}: event {n} {event} spends Magic Power player {p} cannot have "
            "(the rolls so far give too few tokens)")


@pytest.mark.parametrize("block", [b for b in ALL if b.tag == "jsonl"
                                   and "refuses" in b.marker], ids=str)
def test_a_refusal_the_docs_tell_of_is_made(block, tmp_path):
    lines = block.text.splitlines()
    seed = block.marker.get("seed")
    for refusal in block.marker["refuses"]:
        path = tmp_path / "refused.jsonl"
        path.write_text("\n".join([*lines[:1 + refusal["after"]],
                                   json.dumps(refusal["action"])]) + "\n")
        result = companion("replay", str(path),
                           *(["--seed", str(seed)] if seed is not None else []))
        assert result.returncode == 2, f"{block}: {refusal['action']} was accepted"
        assert refusal["error"] in result.stderr, f"{block}: {result.stderr}"


@pytest.mark.parametrize("doc", [d for d in DOCS if any(
    run_for_real(c) for b in blocks(d) if b.tag == "sh" for c in commands(b))],
    ids=lambda d: d.name)
def test_the_commands_run_in_order_in_a_fresh_data_folder(doc, tmp_path):
    for block in (b for b in blocks(doc) if b.tag == "jsonl" and "file" in b.marker):
        (tmp_path / block.marker["file"]).write_text(block.text)
    env = {**sandbox_env(tmp_path), "COMPANION_DATA": str(tmp_path / "data")}
    for block in (b for b in blocks(doc) if b.tag == "sh"):
        for command in filter(run_for_real, commands(block)):
            line = shlex.quote(COMPANION) + command.removeprefix("./run")
            result = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=env,
                                    capture_output=True, text=True, timeout=60)
            assert result.returncode == 0, f"{block}: {command!r} failed: {result.stderr}"
    # What `export` wrote is a match file that replays.
    for written in tmp_path.glob("match-*.jsonl"):
        assert companion("replay", str(written)).returncode == 0


@pytest.mark.parametrize("command", [c for b in ALL if b.tag == "sh" for c in commands(b)
                                     if c in SMALL])
def test_a_benchmark_runs(command):
    module = command.split()[-1]
    result = subprocess.run([sys.executable, "-m", module, *SMALL[command]], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("block", [b for b in ALL if "check" in b.marker], ids=str)
def test_a_checked_block_is_what_the_program_does(block, tmp_path):
    CHECKS[block.marker["check"]](block, tmp_path)


# --- the checks ------------------------------------------------------------------------


def check_run_banner(block: Block, tmp: Path) -> None:
    """``./run`` prints these lines: the same, but for the home folder, port and PIN."""
    expected = block.text.splitlines()
    proc = subprocess.Popen([COMPANION, "run", "--sim", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=sandbox_env(tmp))
    try:
        lines = [proc.stdout.readline().rstrip("\n") for _ in expected]
        proc.send_signal(signal.SIGTERM)
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            # Say what it was doing: SIGUSR1 writes every thread's stack to stderr.
            proc.send_signal(signal.SIGUSR1)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.communicate(timeout=2)
            proc.kill()
            _, err = proc.communicate()
            pytest.fail(f"companion run did not stop within 30 s of SIGTERM:\n{err}")
    finally:
        proc.kill()
        proc.communicate()  # the pipes closed, whatever happened
    assert proc.returncode == 0, err
    shown = "\n".join(lines).replace(str(tmp), "")
    shown = re.sub(r"127\.0\.0\.1:\d+/", "127.0.0.1:8080/", shown)
    shown = re.sub(r"Host PIN:   \d{6} ", "Host PIN:   482913 ", shown)
    assert shown.splitlines() == expected


#: The address and PIN a ``curl`` session is written for; the check substitutes the real ones.
DOC_ADDRESS, DOC_PIN = "127.0.0.1:8080", "482913"


def check_curl(block: Block, tmp: Path) -> None:
    """A terminal session against ``companion run --sim``: each ``$ `` line runs, in order, in
    one bash in a temp folder, and together they print exactly the other lines.

    The session is written for ``127.0.0.1:8080`` and the PIN ``482913``; the
    server runs on a free port, so the address is swapped for the real one.
    """
    need_curl(block)
    proc = subprocess.Popen([COMPANION, "run", "--sim", "--port", "0", "--pin", DOC_PIN],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=sandbox_env(tmp))
    try:
        banner = proc.stdout.readline() + proc.stdout.readline()
        address = re.search(r"http://(127\.0\.0\.1:\d+)/", banner)
        assert address, banner
        run_session(block, tmp, DOC_ADDRESS, address.group(1))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.communicate(timeout=30)
        finally:
            proc.kill()


#: The hall a ``hall-curl`` session is written for; the tables its broker holds.
DOC_HALL, DOC_HALL_TABLES = "127.0.0.1:8081", ("t1", "t2", "t3", "t4", "t5")


def check_hall_curl(block: Block, tmp: Path) -> None:
    """A terminal session (as ``curl``'s) against ``companion hall`` on a Mosquitto that
    holds the tables ``t1`` to ``t5`` (each online, named as its id), written for
    ``127.0.0.1:8081``."""
    from tests.hall.hall_support import HallProcess, Sender, Watch
    from tests.mqtt_support import Mosquitto

    need_curl(block)
    with Mosquitto(tmp / "broker") as broker:
        sender = Sender(broker)
        try:
            for table in DOC_HALL_TABLES:
                sender.send(f"table-companion/{table}/availability", "online")
        finally:
            sender.close()
        with HallProcess("--mqtt", broker.url, env=sandbox_env(tmp)) as hall:
            Watch(hall.port).until(lambda w: len(w.cards) == len(DOC_HALL_TABLES)).close()
            run_session(block, tmp, DOC_HALL, f"127.0.0.1:{hall.port}")


def need_curl(block: Block) -> None:
    if shutil.which("curl") is None:
        if os.environ.get("CI"):
            raise RuntimeError(f"CI needs curl for {block}")
        pytest.skip("curl is not installed (apt-get install curl)")


def run_session(block: Block, tmp: Path, written: str, address: str) -> None:
    """Run ``block``'s ``$ `` lines in one bash in a temp folder, the address ``written``
    swapped for ``address``: together they must print exactly the block's other lines."""
    commands, expected = [], []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            commands.append(line[2:])
        else:
            expected.append(line)
    assert commands, f"{block}: no $ command"
    script = "\n".join(commands).replace(written, address)
    work = tmp / "session"
    work.mkdir()
    result = subprocess.run(["bash", "-c", "set -e\n" + script], cwd=work, timeout=60,
                            capture_output=True, text=True, env=sandbox_env(tmp))
    assert result.returncode == 0, f"{block}: {result.stderr}"
    assert result.stdout.splitlines() == expected, f"{block}: the session prints otherwise"


def check_synopsis(block: Block, tmp: Path) -> None:
    """One line per subcommand, with exactly the options the parser has."""
    subparsers = next(a for a in _parser(CATALOG)._actions if a.dest == "command").choices
    listed = {}
    for line in block.text.splitlines():
        words = line.split()
        assert words[0] == "companion", line
        listed[words[1]] = line
    assert sorted(listed) == sorted(subparsers)
    for name, line in listed.items():
        actions = [a for a in subparsers[name]._actions if a.dest != "help"]
        flags = {a.option_strings[0] for a in actions if a.option_strings}
        assert set(re.findall(r"--[a-z-]+", line)) == flags, line
        # Outside brackets: the required options (each with its value) and the positionals.
        words = re.sub(r"\[[^\]]*\]", "", line).split()[2:]
        required = [w for w in words if w.startswith("--")]
        assert set(required) == {a.option_strings[0] for a in actions
                                 if a.option_strings and a.required}, line
        positionals = [a for a in actions if not a.option_strings]
        assert len(words) - 2 * len(required) == len(positionals), line


def check_replay_error(block: Block, tmp: Path) -> None:
    """The error line is what a match file with a return on line 7 and no ball in play gets."""
    start = {"game": "center-court", "players": ["Ann", "Bob"]}
    lines = [start, *[{"type": "point", "winner": w} for w in (0, 0, 1, 1, 0)],
             {"type": "return", "card": 3}]
    path = tmp / "bad.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    result = companion("replay", str(path))
    assert result.returncode == 2 and result.stderr == block.text


def check_layout(block: Block, tmp: Path) -> None:
    """Every folder and module named exists, and every top-level Python package is named."""
    top = None
    named = set()
    for line in block.text.splitlines():
        name = line.split()[0]
        if name.endswith(".py"):
            assert top is not None and (ROOT / top / name).is_file(), line
            continue
        if not name.endswith("/"):
            continue
        if line.startswith(" "):
            assert top is not None and (ROOT / top / name).is_dir(), line
        else:
            top = name
            named.add(name.rstrip("/"))
            assert (ROOT / name).is_dir(), line
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert packages <= named, f"not in the layout: {sorted(packages - named)}"


def check_state(block: Block, tmp: Path) -> None:
    """Each example has the keys and kinds of values the real table state has.

    ``{...}`` stands for any object. Numbers (versions, ids) need only be
    numbers; strings, booleans and null must be equal.
    """
    text = block.text.replace("{...}", '"..."')
    decoder, examples, at = json.JSONDecoder(), [], 0
    while text[at:].strip():
        at += len(text[at:]) - len(text[at:].lstrip())
        value, at = decoder.raw_decode(text, at)
        examples.append(value)
    assert examples
    for example in examples:
        with Store(":memory:") as store:
            table = Table(store, CATALOG)
            if example["match"] is not None:
                table.start({"game": example["match"]["game"],
                             "players": example["match"]["players"]})
            conforms(example, table.snapshot.to_json(), "state")


def conforms(example: Any, real: Any, where: str) -> None:
    if example == "...":
        return
    if isinstance(example, dict):
        assert isinstance(real, dict) and sorted(example) == sorted(real), (
            f"{where}: the example has keys {sorted(example)}, the real one {sorted(real)}")
        for key in example:
            conforms(example[key], real[key], f"{where}.{key}")
    elif isinstance(example, list):
        assert isinstance(real, list) and len(example) == len(real), f"{where}: {real!r}"
        for i, (e, r) in enumerate(zip(example, real, strict=True)):
            conforms(e, r, f"{where}[{i}]")
    elif isinstance(example, (int, float)) and not isinstance(example, bool):
        assert isinstance(real, (int, float)) and not isinstance(real, bool), f"{where}: {real!r}"
    else:
        assert example == real, f"{where}: the example says {example!r}, the real one {real!r}"


def check_slam_buttons(block: Block, tmp: Path) -> None:
    """Each line's presses, on a panel over Ann (Austin) v Bob (Rich), record what it says.

    A line is the buttons pressed, then what they record: the cards named and,
    for "in at c,r", the ball's cell; "the point to" a point for that side.
    """
    from companion.inputs import Input
    from companion.panel import Panel
    from companion.ui.controls import Context

    with Store(":memory:") as store:
        table = Table(store, CATALOG)
        table.start({"game": "alakaslam", "players": ["Ann", "Bob"],
                     "options": {"characters": ["austin", "rich"]}})
        panel = Panel(table, Context(CATALOG))
        for line in block.text.splitlines():
            buttons, said = re.match(r"^((?:[A-Z0-9]+ )+)\s*(.*)$", line).groups()
            for button in buttons.split():
                panel.handle(Input(button.lower()))
            event = table.match.events[-1]
            view = table.snapshot.match["view"]
            if said.startswith("the point to"):
                winner = view["sides"][event["winner"]]["name"]
                assert event["type"] == "point" and said.endswith(winner), line
                continue
            assert event["cards"] == re.findall(r"\b[RBES][0-3]\b", said), line
            cell = re.search(r"in at (\d),(\d)", said)
            assert cell and view["ball"] == [int(cell[1]), int(cell[2])], line


def check_zoo_buttons(block: Block, tmp: Path) -> None:
    """Each line's presses, on a panel over Ann (Dragon) v Bob (Griffin), do what it says.

    A line is the buttons pressed, then what they record: "rolls N Spell
    Dice", "shows a CREATURE on space S: +P" (P the points it scored), "takes
    Dark Power: REASON", "ends ... turn"; or "refused: MESSAGE" (nothing
    recorded, the panel shows the message).
    """
    from companion.inputs import Input
    from companion.panel import Panel
    from companion.ui.controls import Context

    with Store(":memory:") as store:
        # Seeded: the device's rolls (and so a "no rune" penalty) are the same every run.
        table = Table(store, CATALOG, rng=random.Random(1))
        table.start({"game": "alakazoo", "players": ["Ann", "Bob"], "options": {}})
        panel = Panel(table, Context(CATALOG))
        for line in block.text.splitlines():
            buttons, said = re.match(r"^((?:[A-Z0-9]+ )+)\s*(.*)$", line).groups()
            before = len(table.match.events)
            for button in buttons.split():
                panel.handle(Input(button.lower()))
            if said.startswith("refused: "):
                assert len(table.match.events) == before, line
                assert said.removeprefix("refused: ") in panel.state.ui.message, line
                continue
            assert len(table.match.events) == before + 1, line
            event = table.match.events[-1]
            view = table.snapshot.match["view"]
            assert said.startswith(view["players"][event["by"]]["name"] + " "), line
            if rolled := re.search(r"rolls (\d) Spell Dice", said):
                assert event["type"] == "roll" and len(event["faces"]) == int(rolled[1]), line
            elif shown := re.search(r"shows an? (\w+) on space (\d): \+(\d)", said):
                assert event["type"] == "display", line
                assert view["creatures"][event["creature"] - 1] == shown[1], line
                assert event["space"] == int(shown[2]), line
                assert len(view["last"]["scored"]) == int(shown[3]), line
            elif reason := re.search(r"takes Dark Power: (.+)$", said):
                assert event == {"type": "dark_power", "by": event["by"],
                                 "reason": reason[1].replace(" ", "_")}, line
            else:
                assert re.search(r"ends \w+ turn$", said) and event["type"] == "end_turn", line


def club(block: Block, tmp: Path):
    """The club's broker as ``block``'s document sets it up (tests/mqtt/club.py)."""
    from tests.mqtt.club import club_broker, doc_blocks

    return club_broker(doc_blocks(blocks(block.doc)), tmp)


def check_mosquitto_setup(block: Block, tmp: Path) -> None:
    """The commands run (paths, host name and group substituted) and make the users."""
    from tests.mqtt.club import check_setup

    with club(block, tmp) as broker:
        check_setup(broker)


def check_mosquitto_conf(block: Block, tmp: Path) -> None:
    """No anonymous clients; TLS only, trusted with the club's CA and not without it."""
    from tests.mqtt.club import check_conf

    with club(block, tmp) as broker:
        check_conf(broker)


def check_mosquitto_acl(block: Block, tmp: Path) -> None:
    """A table writes only its own topics and reads its offers; the hall reads all and
    writes only the offers."""
    from tests.mqtt.club import check_acl

    with club(block, tmp) as broker:
        check_acl(broker)


def check_mosquitto_retire(block: Block, tmp: Path) -> None:
    """The steps to retire a table, run on the club's broker: Home Assistant removes the
    table's device without a template error, and nothing of it stays retained."""
    from tests.mqtt.club import check_retire, doc_blocks

    with club(block, tmp) as broker:
        check_retire(broker, doc_blocks(blocks(block.doc)), block.text)


def check_club_hall(block: Block, tmp: Path) -> None:
    """The hall command on the club's broker shows the README's table, live."""
    from tests.mqtt.club import check_hall, doc_blocks

    with club(block, tmp) as broker:
        check_hall(broker, doc_blocks(blocks(block.doc)))


def check_mqtt_config(block: Block, tmp: Path) -> None:
    """The ``[mqtt]`` example is a config the companion takes, with the values it says."""
    import tomllib

    from app.config import parse
    from tests.mqtt_support import make_certificates

    ca = make_certificates(tmp)
    text = block.text.replace("/etc/companion/ca.crt", str(ca))
    mqtt = parse(tomllib.loads(text)).mqtt
    written = tomllib.loads(block.text)["mqtt"]
    assert {k: getattr(mqtt, k) for k in written if k != "ca_file"} == {
        k: v for k, v in written.items() if k != "ca_file"}
    assert str(mqtt.ca_file) == str(ca)
    assert (mqtt.prefix, mqtt.discovery, mqtt.discovery_prefix) == (
        "table-companion", True, "homeassistant")


def check_mqtt_payload(block: Block, tmp: Path) -> None:
    """The example is what companion/topics.py publishes for it: Table 1, Ann v Bob at
    Center Court, four points to Ann, then one to Bob (numbers need only be numbers,
    as in ``check_state``). Marker: ``payload`` (summary, event or discovery) and,
    for discovery, ``sensor``."""
    import random

    from companion.topics import (
        DEFAULT_PREFIX,
        TableInfo,
        Topics,
        discovery,
        event_payload,
        summary_payload,
    )

    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(0))
        table.start({"game": "center-court", "players": ["Ann", "Bob"],
                     "options": {"sets": 3, "first_server": 0}})
        for winner in (0, 0, 0, 0, 1):
            table.act({"type": "point", "winner": winner})
        snapshot = table.snapshot
    info = TableInfo("table-1", "Table 1", "http://192.168.1.20:8080/")
    kind = block.marker["payload"]
    if kind == "summary":
        real = summary_payload(snapshot.to_json(), info, CATALOG)
    elif kind == "event":
        real = event_payload(snapshot.to_json(), snapshot.change)
    else:
        configs = dict(discovery(info, Topics(DEFAULT_PREFIX, info.id)))
        real = next(payload for topic, payload in configs.items()
                    if topic.endswith(f"/{block.marker['sensor']}/config"))
    conforms(json.loads(block.text), json.loads(real), kind)


#: A visible element whose own text (its text nodes, not its children's) is ``s``.
SHOWN_JS = """(s) => [...document.querySelectorAll('body *')].some((e) =>
  e.getClientRects().length && [...e.childNodes].filter((n) => n.nodeType === 3)
    .map((n) => n.textContent).join('').trim() === s)"""


def check_first_five_minutes(block: Block, tmp: Path) -> None:
    """The README's first five minutes, step by step, against ``companion run --sim`` and
    its host page in chromium at phone size: each step's action is taken, and each name
    it quotes is on the screen then (the banner's for step 1); steps 5 and 6's buttons
    are on the first screen."""
    from tests.e2e.browser_support import ARGS, CHROMIUM, PHONE, playwright_driver, require_chromium

    steps = [re.findall(r'"([^"]+)"', line) for line in block.text.splitlines()]
    assert len(steps) == 6, "the check takes six steps: change it with the text"
    sync_api = require_chromium()
    proc = subprocess.Popen([COMPANION, "run", "--sim", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=sandbox_env(tmp))
    try:
        banner = "".join(proc.stdout.readline() for _ in range(5))
        for name in steps[0]:
            assert f"  {name}" in banner, (name, banner)
        host = re.search(r"Host: +(http://\S+/host)\n", banner)
        pin = re.search(r"Host PIN: +(\d+)", banner)
        assert host and pin and "(/host)" in block.text, banner
        browser = playwright_driver().chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport=PHONE)
        page.on("dialog", lambda d: d.accept())

        def shown(i: int, first_screen: tuple[str, ...] = ()) -> None:
            for name in steps[i]:
                try:
                    page.wait_for_function(SHOWN_JS, arg=name, timeout=10_000)
                except sync_api.TimeoutError:
                    pytest.fail(f"step {i + 1}: {name!r} is not on the host page")
            for selector in first_screen:
                page.evaluate("scrollTo(0, 0)")
                b = page.locator(selector).bounding_box()
                assert b and b["y"] >= 0 and b["y"] + b["height"] <= PHONE["height"], selector

        page.goto(host.group(1))
        shown(1)
        page.fill("#pin", pin.group(1))
        page.click("#login button")
        shown(2)
        page.select_option("#game", "center-court")
        page.locator("#players input").nth(0).fill("Ann")
        page.locator("#players input").nth(1).fill("Bob")
        page.click("#start button[type=submit]")
        shown(3, ("#bar #undo", "#bar #redo"))
        page.click("#bar [data-action=point] button >> nth=0")
        sync_api.expect(page.locator("#undo")).to_be_enabled()
        shown(4, ("#end",))
        page.click("#end")
        shown(5, ("#rematch", "#to-start"))
        page.click("#rematch")
        sync_api.expect(page.locator("#end")).to_be_visible()
        sync_api.expect(page.locator("#board")).to_contain_text("Ann")
        browser.close()  # not the driver: the process's own (browser_support)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()


def check_python_session(block: Block, tmp: Path) -> None:
    """A Python session (``>>> `` and ``... `` lines, then what they print), run by doctest:
    each statement runs in order in one namespace and prints exactly what the block shows."""
    import doctest
    import io

    test = doctest.DocTestParser().get_doctest(block.text, {}, str(block), str(block.doc),
                                               block.line)
    assert test.examples, f"{block}: a python-session block holds no >>> lines"
    report = io.StringIO()
    runner = doctest.DocTestRunner(verbose=False)
    runner.run(test, out=report.write)
    assert runner.failures == 0, f"{block}:\n{report.getvalue()}"


def check_mqtt_offer(block: Block, tmp: Path) -> None:
    """The offer example is one the table reads as it is, and its start carries the event
    with the offer's id."""
    import random

    from companion.offers import Offers

    offers = Offers(CATALOG)
    offers.receive(block.text.encode())
    assert offers.problem is None and offers.current is not None, offers.problem
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(0))
        match = offers.start(table, offers.current.id).match
    sent = json.loads(block.text)
    assert match["event"] == {**sent["event"], "offer": sent["offer"]}
    assert (match["game"], match["players"]) == (sent["game"], sent["players"])


def check_salvage(block: Block, tmp: Path) -> None:
    """README's ``companion salvage`` session, on the damage of issue #34: the root page of
    ``matches`` (page 4) overwritten at rest, with the files kept aside as the companion
    keeps them; the service's stop and start are the Pi's (tests/test_systemd.py)."""
    lines = block.text.splitlines()
    assert lines[0] == "$ sudo systemctl stop companion"
    assert lines[-1] == "$ sudo systemctl start companion"
    command, expected = lines[1], lines[2:-1]
    prefix = "$ sudo -u companion companion salvage "
    assert command.startswith(prefix), command
    root = tmp / "var" / "lib" / "companion"
    args = [a.replace("/var/lib/companion", str(root)) for a in command[len(prefix):].split()]
    kept = Path(args[0])
    kept.mkdir(parents=True)
    start = {"game": "center-court", "players": ["Ann", "Bob"], "options": {"sets": 5}}
    with Store(kept / "companion.db") as store:
        table = Table(store, CATALOG, random.Random(1))
        for n in range(2):
            table.start(start)
            for i in range(74):
                table.act({"type": "point", "winner": i % 2})
            if n == 0:
                table.abandon()
    db = kept / "companion.db"
    data = bytearray(db.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    data[3 * size:4 * size] = b"\x55" * size
    db.write_bytes(bytes(data))
    result = companion("salvage", *args)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == expected, f"{block}: {result.stdout}"


CHECKS: dict[str, Callable[[Block, Path], None]] = {
    "salvage": check_salvage,
    "first-five-minutes": check_first_five_minutes,
    "run-banner": check_run_banner,
    "synopsis": check_synopsis,
    "replay-error": check_replay_error,
    "layout": check_layout,
    "state": check_state,
    "curl": check_curl,
    "hall-curl": check_hall_curl,
    "slam-buttons": check_slam_buttons,
    "zoo-buttons": check_zoo_buttons,
    "mosquitto-setup": check_mosquitto_setup,
    "mosquitto-conf": check_mosquitto_conf,
    "mosquitto-retire": check_mosquitto_retire,
    "mosquitto-acl": check_mosquitto_acl,
    "mqtt-config": check_mqtt_config,
    "club-hall": check_club_hall,
    "mqtt-payload": check_mqtt_payload,
    "mqtt-offer": check_mqtt_offer,
    "python-session": check_python_session,
}
