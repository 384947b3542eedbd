"""Which worker processes are alive: this host's identity and its pids."""

from __future__ import annotations

import os

__all__ = ["host_identity", "pid_is_dead"]


def host_identity() -> str | None:
    """What a pid is relative to: this boot of this machine and this pid namespace.

    Two containers may share a hostname without sharing process ids; the boot id tells
    machines (and reboots) apart, the pid namespace tells process-id spaces apart.
    None where either cannot be read: another worker's pid then tells nothing.
    """
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
            boot = f.read().strip()
        namespace = os.readlink("/proc/self/ns/pid")
    except OSError:
        return None
    return f"{boot}/{namespace}" if boot and namespace else None


def pid_is_dead(pid: int) -> bool:
    """Whether no live process has this pid on this host (zombies count as dead)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rsplit(")", 1)[-1].split()[0] == "Z"
    except OSError:
        return False
