"""RP — Replacing game elements (RULES.md RP-1..RP-3)."""
