"""Registry entries of the physics family: each sub-package registers its own specs."""

import importlib
import importlib.util
import pkgutil

from envsuite.families import physics

for _part in sorted(info.name for info in pkgutil.iter_modules(physics.__path__) if info.ispkg):
    if importlib.util.find_spec(f"{physics.__name__}.{_part}.specs") is not None:
        importlib.import_module(f"{physics.__name__}.{_part}.specs")
