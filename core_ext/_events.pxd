# What a push did, recorded by both games' C code as it acts: a fixed buffer of
# small integer events that ``Game.push`` turns into the documented dicts
# (docs/notation.md, "What a push did"). Outside a push the game's log is NULL
# and recording costs one test.

cdef enum:
    MAX_EVENTS = 192

cdef struct Event:
    int kind
    int player
    int a
    int b
    int c
    int points

cdef struct EventLog:
    int n
    Event events[MAX_EVENTS]


cdef inline void record(EventLog* log, int kind, int player, int a, int b, int c, int points) noexcept nogil:
    """Append one event to ``log`` (nothing when no push is recording)."""
    if log == NULL or log.n == MAX_EVENTS:
        return
    cdef Event* event = &log.events[log.n]
    event.kind = kind
    event.player = player
    event.a = a
    event.b = b
    event.c = c
    event.points = points
    log.n += 1


cdef inline list event_dicts(EventLog* log, tuple kinds, frozenset scoring, dict decoders):
    """The recorded events as dicts: ``{"event": name, "player": seat or None, <fields>}``
    (plus ``points`` for the ``scoring`` kinds); ``kinds[k]`` is (name, field names
    for a, b, c) and ``decoders`` turns a field's integer into what the docs name."""
    cdef int i
    cdef Event* e
    if log.n == MAX_EVENTS:
        raise RuntimeError(f"a push did more than {MAX_EVENTS - 1} things: the event log is too small")
    events = []
    for i in range(log.n):
        e = &log.events[i]
        name, fields = kinds[e.kind]
        event = {"event": name, "player": e.player if e.player >= 0 else None}
        for field, value in zip(fields, (e.a, e.b, e.c)):
            event[field] = decoders[field](value) if field in decoders else value
        if name in scoring:
            event["points"] = e.points
        events.append(event)
    return events
