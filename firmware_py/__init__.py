"""The table runtime: sessions and seats, buttons to moves, game states to LED frames, the journal."""
