"""The LLM layer: one client over any OpenAI-compatible endpoint, its config files, and a scripted test server."""

from ragability_gen.llm.client import LLM, LLMSpec, ResponseCache, complete_json, connected, spec_for
from ragability_gen.llm.config import load_llm_config, open_llms, resolve_llms

__all__ = ["LLM", "LLMSpec", "ResponseCache", "complete_json", "connected", "load_llm_config", "open_llms",
           "resolve_llms", "spec_for"]
