"""The phone remote: a Flask app factory for setup, joining, live scores and move entry."""
