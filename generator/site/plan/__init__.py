"""The plan page's parts: dependency chains (``chains``) and the milestone picture
(``picture``). Pure functions; the page module puts them together."""
