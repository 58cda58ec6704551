"""Question decks and their rubrics: loading, validating, listing, importing."""
