"""The fault soak, longer: kills, connection cuts, stalls and a full disk for a minute.

    python bench/fault_soak.py [--runs 1000] [--seconds 60]

Runs ``tests/faults/test_soak.py`` (Postgres through a fault-injecting proxy, SQLite on
a tmpfs that fills up; 4 worker processes, lease 2 s) at a bigger size than the test
suite does, and prints each backend's summary: how many faults of each kind struck, how
long after the start every run was done, how many step executions were cut short and
how many steps took more than one attempt. Every run finishing with the right result,
every step committed once and no overlapping executions are asserted by the test.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    env = {
        **os.environ,
        "TETHER_FAULT_SOAK_RUNS": str(args.runs),
        "TETHER_FAULT_SOAK_SECONDS": str(args.seconds),
        "TETHER_FAULT_SOAK_SEED": str(args.seed),
    }
    timeout = str(int(args.seconds * 4 + 300))
    command = [sys.executable, "-m", "pytest", "-q", "-s", "--timeout", timeout,
               "tests/faults/test_soak.py"]  # fmt: skip
    proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    lines = (proc.stdout + proc.stderr).splitlines()
    for line in lines:
        if line.startswith("fault soak") or " passed" in line or " failed" in line:
            print(line)
    if proc.returncode != 0:
        print("\n".join(lines[-60:]))
    return proc.returncode


if __name__ == "__main__":
    raise SystemExit(main())
