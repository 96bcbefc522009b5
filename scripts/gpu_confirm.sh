#!/usr/bin/env bash
# Confirm the example project's findings on the GPU backend (run on a machine with CUDA jax installed;
# the static pass needs only click and networkx, so the checkout runs without installing).
set -u
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
out="${OUT:-/tmp}"
python3 -c "import jax; print('jax', jax.__version__, jax.devices())"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
for project in examples examples_fixed; do
  for guard in flagged all; do
    echo "=== $project --guard $guard (gpu)"
    /usr/bin/time -f "wall %e s" python3 -m retracelint confirm "$project/" --backend gpu --guard "$guard" \
      --timeout 240 -- python3 "$project/run.py" \
      > "$out/$project-$guard.log" 2>&1
    echo "exit $?"
    tail -n 25 "$out/$project-$guard.log"
  done
done
