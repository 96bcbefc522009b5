"""Bag-of-embeddings sentiment classifier, scored with k-fold cross-validation."""
import jax
import jax.numpy as jnp
import numpy as np

from module import Module

VOCAB = ["good", "great", "fun", "bad", "awful", "boring", "plot", "actor", "film", "the"]
WORD_ID = {w: i for i, w in enumerate(VOCAB)}


class SentimentClassifier(Module):
    static_fields = ("max_len",)

    def __init__(self, key, vocab_size, dim=8, max_len=6):
        k1, k2 = jax.random.split(key)
        self.embed = jax.random.normal(k1, (vocab_size, dim)) * 0.1
        self.w = jax.random.normal(k2, (dim,)) * 0.1
        self.b = jnp.zeros(())
        self.max_len = max_len
        self._annotate()

    def __call__(self, tokens, mask):
        h = (self.embed[tokens] * mask[..., None]).sum(1) / jnp.maximum(mask.sum(1, keepdims=True), 1)
        return h @ self.w + self.b


def predict_numpy(model, tokens, mask):
    """Host-side scoring of a held-out split."""
    emb, w, b = np.asarray(model.embed), np.asarray(model.w), float(model.b)
    h = (emb[tokens] * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1)
    return h @ w + b


def encode(sentences, max_len=6):
    tokens = np.zeros((len(sentences), max_len), np.int32)
    mask = np.zeros((len(sentences), max_len), np.float32)
    for i, s in enumerate(sentences):
        ids = [WORD_ID[w] for w in s.split()][:max_len]
        tokens[i, :len(ids)] = ids
        mask[i, :len(ids)] = 1.0
    return tokens, mask


@jax.jit
def train_step(model, tokens, mask, labels, lr=2.0):
    def loss_fn(m):
        logits = m(tokens, mask)
        return jnp.mean(jnp.logaddexp(0.0, logits) - labels * logits)

    loss, grads = jax.value_and_grad(loss_fn)(model)
    model = jax.tree_util.tree_map(lambda p, g: p - lr * g, model, grads)
    return model, loss


SENTENCES = ["good film", "great actor", "fun plot", "the film good", "awful plot",
             "boring film", "bad actor", "the plot awful", "great fun film", "boring bad"]
LABELS = np.array([1, 1, 1, 1, 0, 0, 0, 0, 1, 0], np.float32)


def cross_validate(n_folds=4, epochs=5, seed=0):
    tokens, mask = encode(SENTENCES)
    folds = np.array_split(np.arange(len(SENTENCES)), n_folds)
    scores = []
    for k, held_out in enumerate(folds):
        train_idx = np.setdiff1d(np.arange(len(SENTENCES)), held_out)
        # pad the training split to a fixed size so the step sees one shape
        train_idx = np.resize(train_idx, 8)
        model = SentimentClassifier(jax.random.PRNGKey(seed + k), len(VOCAB))  # expect: RTL204
        for _ in range(epochs):
            model, loss = train_step(model, tokens[train_idx], mask[train_idx], LABELS[train_idx])
        pred = predict_numpy(model, tokens[held_out], mask[held_out]) > 0
        scores.append(float((pred == LABELS[held_out]).mean()))
        print(f"fold {k}: train loss={float(loss):.4f} held-out acc={scores[-1]:.2f}")
    return float(np.mean(scores))


if __name__ == "__main__":
    print(f"mean CV accuracy: {cross_validate():.2f}")
