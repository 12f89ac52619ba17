"""Running an event (issue 21): scoring, standings and Swiss pairing.

Pure Python, no Django: the organizer pages (tracker/organizer/event_views.py)
read the database and call these functions with plain values, and the
property tests run them in milliseconds."""
