"""Environment families. Importing this package registers every family's specs.

Each family is a sub-package with a light ``specs`` module that registers its
:class:`~envsuite.registry.EnvSpec` entries; importing it never imports the family's heavy
dependencies (those load when an env is made). Families are found by listing this
package, in alphabetical order, so adding a family needs no edit here.
"""

import importlib
import importlib.util
import pkgutil

for _family in sorted(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg):
    if importlib.util.find_spec(f"{__name__}.{_family}.specs") is not None:
        importlib.import_module(f"{__name__}.{_family}.specs")
