"""A three-module project: main.py varies values, pipeline.py passes them on, kernels.py jits."""
