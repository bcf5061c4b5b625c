"""Files to build the table itself from the rig file: plate, diffuser grids, template, cut list, picture.

``plan`` is pure Python (``load_rig`` checks a build section with it, on the Pi
too); the writers need the ``build`` extra (``pip install 'azul-table[build]'``).
"""
