"""Adapters that hand envsuite's envs to LLM trainers (TRL, verifiers).

Each adapter turns registered envs into what a trainer library consumes: datasets of
seeded prompts with reward functions for single-turn envs, and multi-turn rollouts over
the same envs (in-process or behind ``envsuite serve``) for the others. The trainer
libraries are optional: each adapter needs its own extra and imports it lazily.

Layer: above serve and evaluation, below the leaderboard (``leaderboard -> trainers ->
serve``).
"""
