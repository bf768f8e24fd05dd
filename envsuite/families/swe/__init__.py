"""Software-engineering tasks in sandboxes, graded by hidden tests (SWE-bench style).

The agent gets a repository at a base commit and a problem statement, acts with JSON tool
calls (shell, read/write/replace a file, submit), and is graded in a fresh sandbox by the
task's hidden tests. Sandboxes are Docker containers (:mod:`.docker_sandbox`) or, on
machines without Docker, temporary directories (:mod:`.local_sandbox`, not isolated).
"""
