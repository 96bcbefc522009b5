from steps import make_eval_step, make_train_step


def fit(params, batches, epochs, base_lr):
    evaluate = make_eval_step()
    for epoch in range(epochs):
        # A new jitted function (around a new nested `step`) every epoch: traced again each time.
        step = make_train_step(base_lr / (1 + epoch))
        for x, y in batches:
            params = step(params, x, y)
        print(epoch, evaluate(params, *batches[0]))
    return params
