"""The Docker fixtures (see :mod:`tests.sandbox.docker_fixtures`)."""

from .docker_fixtures import docker_ready, inflection_image, task_images  # noqa: F401
