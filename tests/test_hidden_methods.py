"""A method that an instance attribute of the same name hides never runs through the instance."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from retracelint.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "methods_hidden_by_instance_attributes"
PAIR = "gp/model.py:30:19: RTL404 [warning] 'noise' is passed by keyword here and by position at"
OWN_INIT = """        self.train_x, self.train_y = train_x, train_y
        self.noise, self.variance = 1e-6, 1.0
        self.lengthscales = jnp.ones(train_x.shape[1])
        K = self.kernel(train_x, train_x, self.lengthscales, self.variance, self.noise)
        self.cholesky = jnp.linalg.cholesky(K)
        self.alphas = cho_solve((self.cholesky, True), train_y)"""


def _check(folder: Path) -> tuple[int, str]:
    args = ["check", str(folder), "--no-cache", "--isolated", "--confidence", "all"]
    result = CliRunner().invoke(main, args)
    return result.exit_code, result.output


def test_a_method_hidden_by_an_attribute_set_in_init_pairs_with_no_call(tmp_path: Path) -> None:
    """``GP.__init__`` sets ``self.kernel = rbf_kernel``, which hides ``GPWithClassifier.kernel``
    on every instance (its ``__init__`` runs the base's through ``super().__init__``): the method's
    own ``rbf_kernel(..., noise, ...)`` never runs, so it is no second way of passing ``noise``. A
    subclass whose ``__init__`` does not set the attribute keeps its method, and the pair."""
    folder = tmp_path / "bo"
    shutil.copytree(FIXTURE, folder)
    code, out = _check(folder)
    assert (code, out) == (0, "")

    classifier = folder / "gp" / "classifier.py"
    text = classifier.read_text(encoding="utf-8")
    text = text.replace("        super().__init__(train_x, train_y)", OWN_INIT)
    text = text.replace(
        "import jax.numpy as jnp\n",
        "import jax.numpy as jnp\nfrom jax.scipy.linalg import cho_solve\n",
    )
    classifier.write_text(text, encoding="utf-8")
    code, out = _check(folder)
    assert code == 1 and f"{folder}/{PAIR} classifier.py:20" in out
