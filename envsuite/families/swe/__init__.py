"""Software-engineering problems in sandboxes, graded by hidden tests (SWE-bench style).

The agent gets a repository at a base commit and a problem statement, acts with JSON tool
calls (shell, read/write/replace a file, submit), and is graded in a fresh sandbox by the
problem's hidden tests. The sandboxes (Docker containers, or on machines without Docker
temporary directories that isolate nothing) come from :mod:`envsuite.sandbox`; this package
holds what is SWE's own: the dataset, tools, patch filtering, grading and the oracle.
"""
