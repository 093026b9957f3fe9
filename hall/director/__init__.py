"""The club night's pure core: pairing and standings, with no I/O.

Everything here takes plain frozen dataclasses and returns plain frozen
dataclasses (each with ``to_json``), and the same input (and seed) always
gives the same output, so the hall's director can store what goes in, rebuild
what comes out, and show it.

- :mod:`hall.director.model`: players, pairings, rounds and results.
- :mod:`hall.director.standings`: points and tiebreaks, always derived from
  the result list (a correction replaces the result it corrects).
- :mod:`hall.director.pairing`: Swiss rounds by maximum-weight matching.
- :mod:`hall.director.formats`: round robin and single elimination.
- :mod:`hall.director.groups`: teams for doubles and seats at 3-4 player tables.
"""
