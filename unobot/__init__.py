"""unobot: Uno for IRC channels.

Importing the package first decides whether the compiled engine modules or their sources run
(:mod:`unobot.build_mode`): that must happen before any of them is imported.

The command plugins are ``unobot.plugins``. Installed, they are a subpackage like any other; in
a source checkout they stay in the repository's top-level ``plugins/`` folder (the project's
agreed layout), which is made that subpackage here, so ``python unobot.py`` in a checkout finds
them as an installed bot does.
"""

import importlib.util
import os
import sys

from unobot import build_mode as _build_mode

_build_mode.select()


def _checkout_plugins() -> None:
    if "unobot.plugins" in sys.modules or os.path.isdir(os.path.join(__path__[0], "plugins")):
        return
    folder = os.path.join(os.path.dirname(__path__[0]), "plugins")
    init = os.path.join(folder, "__init__.py")
    if not os.path.exists(init):
        return  # neither installed nor a checkout: an import of unobot.plugins will say so
    spec = importlib.util.spec_from_file_location(
        "unobot.plugins", init, submodule_search_locations=[folder]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["unobot.plugins"] = module
    spec.loader.exec_module(module)


_checkout_plugins()
