"""The hall board: every table on an MQTT broker, one page (``companion hall``).

It reads what the tables publish (companion/topics.py) and never writes to
the broker or to a table: :mod:`hall.cards` keeps the tables' cards,
:mod:`hall.listener` is the MQTT client, :mod:`hall.app` the web app and
:mod:`hall.run` the command that puts them together.
"""
