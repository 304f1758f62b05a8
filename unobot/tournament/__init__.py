"""Tournaments run by the bot: the formats of the source documents (pure logic), the log that
makes them durable, and the director that runs their games at tables on IRC."""
