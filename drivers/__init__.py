"""Adapters from the table's hardware to the core.

Each adapter takes its backend (pin factory, display device, serial port) as
an argument, so the same code runs on a Raspberry Pi and on a PC with the
libraries' own fakes. The hardware issue fills this package.
"""
