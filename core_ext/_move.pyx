"""The value type both games' moves derive from.

A move is one option of a pending decision, identified inside its game by a
single integer ``code``; each game's ``Move`` subclass decodes the code into
named fields, formats its notation (``str``) and parses it back
(``Move.parse``). Instances are immutable and compare and hash by game and
code, so a game can intern one instance per code and hand them out without
allocating on every ply.
"""


cdef class Move:
    def __init__(self, int code):
        self.code = code

    def __eq__(self, other):
        return type(other) is type(self) and (<Move>other).code == self.code

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self).__module__, self.code))

    def __repr__(self):
        return f"{type(self).__name__}.parse({str(self)!r})"

    def __reduce__(self):
        return (type(self).parse, (str(self),))
