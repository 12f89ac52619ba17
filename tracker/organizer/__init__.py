"""The organizer side: accounts, events, bulk pairings, match history, audit
and exports. Players never need an account; organizers log in."""
