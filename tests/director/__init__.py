"""Tests of the club night's pure core (hall/director/)."""
