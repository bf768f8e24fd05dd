"""Agents: the :class:`~envsuite.agent_protocol.Agent` protocol and the built-in agents.

An agent string names an agent on the command line and in task protocols:
``random``, ``oracle``, ``openai:MODEL`` (an OpenAI-compatible chat endpoint) or
``package.module:Class`` (any class implementing the protocol).
"""

from envsuite.agent_protocol import Agent
from envsuite.agents.loading import AgentFactory, load_agent
from envsuite.agents.random_agent import RandomAgent

__all__ = ["Agent", "AgentFactory", "RandomAgent", "load_agent"]
