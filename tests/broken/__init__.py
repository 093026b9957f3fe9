"""Two broken versions of a game (First to N, tests/first_to/), each a folder a catalog
can load, that the conformance suite (tests/conformance.py) must refuse: what a new
game's author could get wrong and no check one action deep finds.

- ``summary_raises``: ``summary()`` raises once the match is won, so on a table the
  winning point can never be recorded.
- ``resolve_grows``: ``resolve()`` adds a field to the event from the second point on,
  so a stored event no longer resolves to itself: the next start calls the database
  damaged and sets it aside.
"""
