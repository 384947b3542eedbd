"""The session soak, bigger: sessions x messages on Postgres under SIGKILLs and cuts.

    python bench/session_soak.py [--sessions 5000] [--messages 10] [--senders 32]
                                 [--workers 2] [--fault-every 2.0] [--no-faults]

Runs ``tests/faults/test_session_soak.py`` (worker processes and the client reaching
Postgres through a fault-injecting proxy, lease 2 s) at the size given, and prints its
summary: the messages and the faults that struck, the time it took, the events the
followers saw and how many tool runs a crash repeated. The test asserts that every
admitted message completed exactly once (one ``turn.completed``, its submission settled
``completed``, its tool run) and that every follower saw every event of its session
once, in order.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=5000)
    parser.add_argument("--messages", type=int, default=10, help="per session")
    parser.add_argument("--senders", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--fault-every", type=float, default=2.0, help="mean seconds")
    parser.add_argument("--no-faults", action="store_true")
    args = parser.parse_args()
    # Generous: a message may take MESSAGE_TIMEOUT (300 s) under faults, and they run
    # `senders` at a time.
    timeout = str(int(args.sessions * args.messages * 0.5 + 600))
    env = {
        **os.environ,
        "TETHER_SESSION_SOAK_TIMEOUT": timeout,
        "TETHER_SESSION_SOAK_SESSIONS": str(args.sessions),
        "TETHER_SESSION_SOAK_MESSAGES": str(args.messages),
        "TETHER_SESSION_SOAK_SENDERS": str(args.senders),
        "TETHER_SESSION_SOAK_WORKERS": str(args.workers),
        "TETHER_SESSION_SOAK_FAULTS": "0" if args.no_faults else "1",
        "TETHER_SESSION_SOAK_FAULT_EVERY": str(args.fault_every),
    }
    command = [sys.executable, "-m", "pytest", "-q", "-s", "--timeout", timeout,
               "-p", "no:randomly", "tests/faults/test_session_soak.py"]  # fmt: skip
    proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    lines = proc.stdout.splitlines()
    for line in lines:
        if line.startswith("session soak") or re.match(r"^=*\s*\d+ (passed|failed)", line):
            print(line)
    if proc.returncode != 0:
        # pytest's own account of the failure (the workers' logs of outages are on stderr).
        start = next((i for i, line in enumerate(lines) if "FAILURES" in line), 0)
        print("\n".join(lines[start : start + 200]))
    return proc.returncode


if __name__ == "__main__":
    raise SystemExit(main())
