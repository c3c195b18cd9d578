"""Building the site after an edit: what changed between two indexes, which compiled
answers and files it can reach, and the state a build leaves for the next one."""
