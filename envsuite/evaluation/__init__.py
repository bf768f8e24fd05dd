"""Evaluation: run directories, the episode runner, executors, metrics, protocols, reports."""
