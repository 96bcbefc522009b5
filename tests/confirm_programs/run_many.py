"""Run several programs in one interpreter (one jax start-up for all), each as __main__."""

import runpy
import sys
import traceback

failed = 0
for path in sys.argv[1:]:
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as exc:
        failed += bool(exc.code)
    except Exception:
        traceback.print_exc()
        failed += 1
sys.exit(1 if failed else 0)
