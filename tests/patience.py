"""Waits that only guard against a hang, stretched on a machine that runs the suite slowly.

Under emulation (tools/test-arm64.sh sets ``AZUL_TEST_SLOWDOWN``) the table
starts and plays tens of times slower than on a PC, so a guard sized for a PC
would fail there though nothing hangs. Only guards use this: no test's outcome
depends on how fast the machine is.
"""
import os

SLOWDOWN = max(1.0, float(os.environ.get("AZUL_TEST_SLOWDOWN") or 1))


def patient(seconds: float) -> float:
    """``seconds`` of a PC's waiting, as long as this machine needs for the same work."""
    return seconds * SLOWDOWN
