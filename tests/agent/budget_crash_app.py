"""A session worker for the budget crash test: `python budget_crash_app.py URL DIR`.

URL is a SQLite file or a Postgres server (its namespace in TETHER_POSTGRES_NAMESPACE).
The test process builds the same `AgentHost` (`build_host`) to open the session and
read the budget; this process only runs the worker. The model streams its reply
slowly, so the test can SIGKILL the worker after the call reserved and before it
settled; calls are counted in DIR/calls.log.
"""

from __future__ import annotations

from pathlib import Path

from _harness import run_worker

from tether.agent import Agent, AgentHost, Budget
from tether.agent.models import Usage
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel

TEXT = " ".join(f"word{i}" for i in range(30))
#: What the call reports; the budget's estimate is larger.
USAGE = Usage(input_tokens=400, output_tokens=30)
ESTIMATE = 1000


def build_host(backend: Backend, effects_dir: Path) -> AgentHost:
    """The host both processes build: same agent, same session workflow."""
    model = ScriptedModel(
        [Reply(text=TEXT, usage=USAGE)],
        select="transcript",
        calls_file=effects_dir / "calls.log",
        delta_delay=0.04,
    )
    agent = Agent(
        name="metered",
        model=model,
        budget=Budget(tokens=5000, estimate=ESTIMATE),
    )
    return AgentHost(backend, [agent], deployment="budget-crash")


if __name__ == "__main__":
    run_worker(build_host)
