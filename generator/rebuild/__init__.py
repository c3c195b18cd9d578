"""What a rebuild after an edit needs besides the site's own build: reading and loading
only what changed, what changed between two indexes, and the compiled answers' reaches
inverted (which answers an edited object can change)."""
