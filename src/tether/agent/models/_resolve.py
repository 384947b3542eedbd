"""``"provider:model"`` strings to model objects, with keys from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from ...errors import ConfigurationError
from ._guard import check_network_allowed
from ._model import Model

__all__ = ["KNOWN_PROVIDERS", "resolve_model"]

KNOWN_PROVIDERS = ("anthropic", "openai", "openai-compatible")
"""The provider prefixes :func:`resolve_model` understands."""


def resolve_model(
    spec: str | Model, *, env: Mapping[str, str] | None = None, **options: Any
) -> Model:
    """Return the model named by ``"provider:model"``, or ``spec`` if it already is one.

    Providers and the environment variables they read (a keyword option wins):

    - ``openai:<model>``: ``OPENAI_API_KEY`` (required for OpenAI's own API),
      ``OPENAI_BASE_URL`` (optional, for a compatible server).
    - ``openai-compatible:<model>``: any Chat Completions server (vLLM, Ollama, ...);
      ``base_url=`` or ``OPENAI_BASE_URL`` is required, ``OPENAI_API_KEY`` is optional.
    - ``anthropic:<model>``: ``ANTHROPIC_API_KEY`` (required), ``ANTHROPIC_BASE_URL``.

    Args:
        spec: ``"provider:model"``, or a model object returned as is.
        env: Where to read variables; ``os.environ`` by default.
        **options: Passed to the model's constructor (``api_key``, ``base_url``,
            ``stall_timeout``, ...).

    Returns:
        A model ready to stream.

    Raises:
        ConfigurationError: Unknown provider, malformed spec or missing key; the
            message says how to fix it. Also raised inside
            ``tether.testing.forbid_network_models()``.
    """
    if not isinstance(spec, str):
        return spec
    provider, sep, model = spec.partition(":")
    provider = provider.strip().lower()
    model = model.strip()
    if not sep or not provider or not model:
        raise ConfigurationError(
            f"model {spec!r} is not of the form 'provider:model', e.g. 'openai:gpt-4o-mini' "
            f"or 'anthropic:claude-sonnet-4-5'; known providers: {list(KNOWN_PROVIDERS)!r}"
        )
    if provider not in KNOWN_PROVIDERS:
        raise ConfigurationError(
            f"unknown model provider {provider!r} in {spec!r}; known providers: "
            f"{list(KNOWN_PROVIDERS)!r} (use 'openai-compatible:<model>' with base_url=... "
            "for vLLM, Ollama and other OpenAI-compatible servers, or pass a Model object)"
        )
    check_network_allowed(spec)
    environ: Mapping[str, str] = os.environ if env is None else env
    try:
        if provider == "anthropic":
            return _anthropic(model, environ, options)
        return _openai(provider, model, environ, options)
    except TypeError as exc:
        raise ConfigurationError(f"invalid option for model {spec!r}: {exc}") from exc


def _openai(provider: str, model: str, env: Mapping[str, str], options: dict[str, Any]) -> Model:
    from .openai import OPENAI_BASE_URL, OpenAIChatModel

    base_url = options.pop("base_url", None) or env.get("OPENAI_BASE_URL") or None
    api_key = options.pop("api_key", None) or env.get("OPENAI_API_KEY") or None
    if provider == "openai-compatible" and base_url is None:
        raise ConfigurationError(
            f"model 'openai-compatible:{model}' needs a base URL: pass base_url=... "
            "(e.g. 'http://localhost:11434/v1' for Ollama, 'http://localhost:8000/v1' for "
            "vLLM) or set OPENAI_BASE_URL"
        )
    base_url = base_url or OPENAI_BASE_URL
    if api_key is None and base_url.rstrip("/") == OPENAI_BASE_URL:
        raise ConfigurationError(
            f"model 'openai:{model}' needs an API key: set OPENAI_API_KEY or pass "
            "api_key=...; for a local OpenAI-compatible server set OPENAI_BASE_URL or use "
            "'openai-compatible:<model>' with base_url=..."
        )
    return OpenAIChatModel(model, base_url=base_url, api_key=api_key, provider=provider, **options)


def _anthropic(model: str, env: Mapping[str, str], options: dict[str, Any]) -> Model:
    from .anthropic import ANTHROPIC_BASE_URL, AnthropicModel

    api_key = options.pop("api_key", None) or env.get("ANTHROPIC_API_KEY") or None
    base_url = options.pop("base_url", None) or env.get("ANTHROPIC_BASE_URL") or None
    if api_key is None:
        raise ConfigurationError(
            f"model 'anthropic:{model}' needs an API key: set ANTHROPIC_API_KEY or pass api_key=..."
        )
    return AnthropicModel(
        model, api_key=api_key, base_url=base_url or ANTHROPIC_BASE_URL, **options
    )
