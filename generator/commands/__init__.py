"""One module per ``devcontext`` verb; each exposes ``register(subparsers)``."""
