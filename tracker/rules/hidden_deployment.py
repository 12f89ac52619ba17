"""HD — Hidden Deployment (RULES.md HD-1..HD-7, HD-C1..HD-C4)."""
