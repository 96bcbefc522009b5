"""Train the tiny MLP on synthetic data, evaluate it, and decode a few tokens with the toy LM.

    python examples/run.py

Sized for a CPU: a few seconds. The last line printed is a JSON summary of the run.
"""

import json

from trainer import Config, data, decode, evaluate, model, train


def main() -> None:
    cfg = Config()
    x_train, y_train = data.make_classification(cfg.num_train, cfg, seed=1)
    x_test, y_test = data.make_classification(cfg.num_test, cfg, seed=2)
    params = model.init_params(cfg.seed, cfg)

    params, history = train.fit(params, x_train, y_train, x_test, y_test, cfg)

    test_accuracy = evaluate.accuracy(params, x_test, y_test, cfg)
    true_prob = evaluate.mean_true_class_prob(params, x_test, y_test, cfg)
    per_class = evaluate.per_class_accuracy(params, x_test, y_test, cfg)
    # How accuracy settles as more test examples are counted.
    curve = {}
    for n in range(30, cfg.num_test + 1, 30):
        curve[n] = evaluate.subset_accuracy(params, x_test, y_test, n, cfg)
    print(f"test accuracy {test_accuracy:.3f}  mean true-class prob {true_prob:.3f}")
    print("per-class accuracy", [round(a, 3) for a in per_class])
    print("accuracy on the first n test examples", curve)

    lm = model.init_lm(cfg.seed + 1, cfg)
    prompt = [1, 2, 3]
    greedy = decode.greedy_decode(lm, prompt, 4, cfg)
    buffered = decode.greedy_decode_buffered(lm, prompt, 4, cfg)
    print("greedy decode", greedy)
    print("buffered decode", buffered)

    summary = {
        "history": history,
        "test_accuracy": test_accuracy,
        "mean_true_class_prob": true_prob,
        "per_class_accuracy": per_class,
        "subset_accuracy": curve,
        "greedy_decode": greedy,
        "buffered_decode": buffered,
    }
    print("summary " + json.dumps(summary))


if __name__ == "__main__":
    main()
