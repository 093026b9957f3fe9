"""Table Companion: the bookkeeping beside a physical game.

This package is the core. It imports no hardware, web or serial library, so
the same rules, log and store run on a Raspberry Pi, a PC and in tests.
"""

__version__ = "0.1.0"
