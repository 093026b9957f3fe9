"""How ``companion run`` and ``companion hall`` wait for the end: SIGTERM or SIGINT, nothing else.

Both block SIGTERM and SIGINT at their start (:func:`block_stop_signals`,
before any thread: threads inherit the mask) and then wait for one in
:func:`serve_until_stopped`, which takes it synchronously with
``signal.sigwait``. No Python signal handler runs, so none can deadlock on a
lock the main thread holds (a handler that set a ``threading.Event`` could,
on the Event's own lock).

A stall is not a stop. ``kill -STOP`` and ``kill -CONT`` (a Pi under memory
pressure, an SD card that hangs the process in the kernel) interrupt a wait
for signals; ``signal.sigtimedwait`` then returns, once its timeout has run
out during the stall, a made-up ``struct_siginfo`` read from uninitialized
memory (CPython, 3.11 to 3.13), which the companion's loop took for a stop.
``sigwait`` has no timeout, and the C library waits again after such an
interruption, so it returns only a signal that came. What must happen
periodically (feeding systemd's watchdog) runs on its own thread, whose
``Event.wait`` returns a plain ``False`` on its timeout, however long the
stall.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)

#: The signals that stop the companion and the hall (systemd sends SIGTERM, a terminal SIGINT).
STOP_SIGNALS = frozenset({signal.SIGTERM, signal.SIGINT})
#: How often the periodic work runs when systemd names no watchdog interval.
DEFAULT_EVERY = 10.0


def block_stop_signals() -> None:
    """Block SIGTERM and SIGINT in this thread and every thread started after: they wait
    for :func:`serve_until_stopped`. Call first, before any thread starts."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)


def watchdog_every(environ: Mapping[str, str] = os.environ,
                   default: float = DEFAULT_EVERY) -> float:
    """How often to feed systemd's watchdog: a third of its interval, else ``default``.

    systemd gives a service with ``WatchdogSec=`` its interval in microseconds
    as ``WATCHDOG_USEC`` (and the process meant as ``WATCHDOG_PID``, when set:
    a child that inherited the variables is not it); sd_watchdog_enabled(3)
    asks for a keep-alive at least every half of it. A third leaves a busy Pi
    one late tick of margin. Anything unreadable falls back to ``default``.
    """
    pid = environ.get("WATCHDOG_PID")
    if pid is not None and pid.strip() != str(os.getpid()):
        return default
    try:
        usec = int(environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        return default
    return usec / 3e6 if usec > 0 else default


def serve_until_stopped(tick: Callable[[], object] | None = None,
                        every: float = DEFAULT_EVERY) -> int:
    """Run ``tick()`` every ``every`` seconds on a thread of its own until SIGTERM or
    SIGINT comes; return that signal's number once the thread has ended.

    Call with the signals blocked (:func:`block_stop_signals`). Any stall of
    the process, of any length, is lived through: after it ``tick`` runs
    again at its next turn. An exception from ``tick`` is logged and the
    ticks go on.
    """
    done = threading.Event()
    thread = None
    if tick is not None:
        thread = threading.Thread(target=_ticking, args=(tick, every, done),
                                  name="watchdog", daemon=True)
        thread.start()
    try:
        return signal.sigwait(STOP_SIGNALS)
    finally:
        done.set()
        if thread is not None:
            thread.join()


def _ticking(tick: Callable[[], object], every: float, done: threading.Event) -> None:
    while not done.wait(every):
        try:
            tick()
        except Exception:
            log.exception("the periodic check failed")
