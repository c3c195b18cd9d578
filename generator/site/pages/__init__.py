"""One module per kind of page or file the site has; each is a pure function from the
values it shows to bytes (:class:`~generator.site.pages.kit.PageKit` holds what they all
render with: the index, the templates, the links)."""
