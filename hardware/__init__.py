"""Hardware layer: LED matrices, arcade buttons, the rig file and the simulator. Knows nothing about games."""
