"""Evaluate after each epoch on the full dev set (70 examples, batches of 16)."""

import jax
from data import eval_batches, load_eval_split
from model import eval_step, init_params


def evaluate(params, split, batch_size=16):
    total_nll, total_correct, seen = 0.0, 0, 0
    for batch in eval_batches(split, batch_size):
        nll, correct = eval_step(params, batch)
        total_nll += float(nll)
        total_correct += int(correct)
        seen += len(batch["labels"])
    return total_nll / seen, total_correct / seen


if __name__ == "__main__":
    params = init_params(jax.random.PRNGKey(0))
    dev = load_eval_split()
    for epoch in range(2):
        loss, acc = evaluate(params, dev)
        print(f"epoch {epoch}: dev loss {loss:.4f} acc {acc:.3f}")
