"""Loaded by Python at start-up in every process `retracelint confirm` runs (via PYTHONPATH).

Installs the confirm instrumentation, then runs the sitecustomize this one shadows, if any.
Standard library only: the program's interpreter may not have retracelint installed.
"""

import os
import sys


def _retracelint_boot() -> None:
    runtime_file = os.environ.get("RETRACELINT_CONFIRM_RUNTIME")
    if runtime_file and os.environ.get("RETRACELINT_CONFIRM_PLAN"):
        try:
            import importlib.util

            module = sys.modules.get("_retracelint_runtime")
            if module is None:
                spec = importlib.util.spec_from_file_location("_retracelint_runtime", runtime_file)
                module = importlib.util.module_from_spec(spec)
                sys.modules["_retracelint_runtime"] = module
                spec.loader.exec_module(module)
            module.install_from_env()
        except Exception as exc:  # never stop the user's program from starting
            sys.stderr.write(f"retracelint: the confirm instrumentation did not load: {exc!r}\n")
    _chain()


def _chain() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        import importlib.machinery
        import importlib.util

        rest = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
        spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
        if spec is None or spec.loader is None:
            return
        if os.path.abspath(spec.origin or "") == os.path.abspath(__file__):
            return
        module = importlib.util.module_from_spec(spec)
        sys.modules["sitecustomize"] = module
        spec.loader.exec_module(module)
    except Exception as exc:
        sys.stderr.write(f"retracelint: the environment's sitecustomize failed: {exc!r}\n")


_retracelint_boot()
