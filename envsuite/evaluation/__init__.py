"""Evaluation: the runner, executors, metrics, task protocols and reports."""
