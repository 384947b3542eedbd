"""A session worker for the usage crash test: `python usage_crash_app.py URL DIR`.

URL is a SQLite file or a Postgres server (its namespace in TETHER_POSTGRES_NAMESPACE).
The test process builds the same `AgentHost` (`build_host`) to open the session and
read its usage; this process only runs the worker, which the test starts with
``TETHER_CRASH_AT_COMMIT=before:k`` to die right before the commit of the model's
reply. The agent has a budget, whose settle keeps each call's usage the moment the
provider answered. Calls are counted in DIR/calls.log, across both processes.
"""

from __future__ import annotations

from pathlib import Path

from _harness import run_worker

from tether.agent import Agent, AgentHost, Agents, Budget, Price
from tether.agent.models import Usage
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel

#: What each call reports.
USAGE = Usage(input_tokens=400, output_tokens=30, cached_tokens=100)
MODEL = "scripted:metered"
PRICES = {MODEL: Price(input=1.0, output=2.0)}


def make_agents(effects_dir: Path | None = None) -> Agents:
    """The agents every process builds (the model counts its calls in `effects_dir`)."""
    model = ScriptedModel(
        [Reply(text="the answer", usage=USAGE)],
        name="metered",
        select="transcript",
        calls_file=None if effects_dir is None else effects_dir / "calls.log",
    )
    agent = Agent(name="metered", model=model, budget=Budget(tokens=1_000_000))
    return Agents([agent], prices=PRICES, deployment="usage-crash")


#: What ``tether usage --app usage_crash_app:agents`` reads the store with (no calls).
agents = make_agents()


def build_host(backend: Backend, effects_dir: Path) -> AgentHost:
    """The host both processes build: same agent, same session workflow."""
    return AgentHost(backend, make_agents(effects_dir))


if __name__ == "__main__":
    run_worker(build_host)
