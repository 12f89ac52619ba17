"""HE — Holoecho, from the Holoprojector (RULES.md HE-A1..A3, HE-1..10, HE-C1..C7, HE-D1..D5, HE-T)."""
