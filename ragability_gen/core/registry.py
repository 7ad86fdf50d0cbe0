"""Registries of named things that data files refer to: check functions and converters.

A registry is filled in two steps the first time it is read (looked up, tested or listed):

1. **Built-ins**: the modules named when the registry is made are imported; their decorators
   (``@register_check``, ``@register_converter``) register what they define.
2. **Plugins**: every entry point of the registry's group (``ragability_gen.checks``,
   ``ragability_gen.converters``) in any installed distribution is loaded the same way. An entry
   point names a module whose decorators register its functions (``shouty = my_pkg.checks``), or a
   function that is called with no arguments to register them (``my_pkg.checks:register``).

So importing ``ragability_gen`` imports no plugin, and a suite or converter spec can name a plugin's
function as soon as the package holding it is installed.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping
from importlib.metadata import entry_points
from typing import TypeVar

from ragability_gen.errors import PluginError

T = TypeVar("T")


class Registry(MutableMapping[str, T]):
    """Name -> registered object, filled with the built-ins and the plugins when first read."""

    def __init__(self, group: str, builtins: tuple[str, ...] = ()):
        self.group = group
        self.builtins = builtins
        self._items: dict[str, T] = {}
        self._filled = False
        self._filling = False

    def fill(self) -> None:
        """Import the built-in modules and load the group's entry points, once.

        Raises:
            PluginError: an entry point cannot be loaded; named with its distribution and value.
        """
        if self._filled or self._filling:
            return
        self._filling = True
        try:
            for module in self.builtins:
                importlib.import_module(module)
            for ep in entry_points(group=self.group):
                try:
                    loaded = ep.load()
                    if ep.attr and callable(loaded):
                        loaded()
                except Exception as e:  # a plugin's own failure, whatever it is, must not be a traceback
                    dist = ep.dist.name if ep.dist is not None else "?"
                    raise PluginError(f"plugin {ep.name} = {ep.value} (entry point group {self.group}, "
                                      f"distribution {dist}): cannot be loaded: {type(e).__name__}: {e}") from None
            self._filled = True
        finally:
            self._filling = False

    def refill(self) -> None:
        """Load the entry points again, e.g. after installing a plugin into a running interpreter."""
        self._filled = False
        self.fill()

    def __getitem__(self, name: str) -> T:
        self.fill()
        return self._items[name]

    def __setitem__(self, name: str, value: T) -> None:
        self._items[name] = value

    def __delitem__(self, name: str) -> None:
        del self._items[name]

    def __contains__(self, name: object) -> bool:
        self.fill()
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        self.fill()
        return iter(self._items)

    def __len__(self) -> int:
        self.fill()
        return len(self._items)

    def __repr__(self) -> str:
        return f"Registry({self.group!r}, {sorted(self._items)})"
