"""A tiny tool-using agent: the model reads its whole context each turn and picks a tool."""

import jax
import jax.numpy as jnp
import numpy as np

from tools import call_tool, tokenize

VOCAB = 97
D_MODEL = 16
TOOLS = ["search", "calculator", "weather"]


def init_params(key):
    k1, k2 = jax.random.split(key)
    return {
        "embed": jax.random.normal(k1, (VOCAB, D_MODEL)) * 0.1,
        "tool_head": jax.random.normal(k2, (D_MODEL, len(TOOLS))) * 0.1,
    }


@jax.jit
def policy_logits(params, context):
    h = params["embed"][context]                  # (T, D)
    pos = jnp.arange(context.shape[0])[:, None]
    h = h * jnp.cos(pos / 10.0)
    pooled = jnp.mean(h, axis=0)
    return pooled @ params["tool_head"]


class Agent:
    def __init__(self, params, system_prompt):
        self.params = params
        self.context = np.asarray(tokenize(system_prompt, VOCAB), dtype=np.int32)

    def observe(self, tokens):
        self.context = np.concatenate([self.context, np.asarray(tokens, dtype=np.int32)])  # expect: RTL102

    def choose_tool(self):
        logits = policy_logits(self.params, jnp.asarray(self.context))
        return TOOLS[int(jnp.argmax(logits))]


def run_episode(agent, user_msg, turns=4):
    agent.observe(tokenize(user_msg, VOCAB))
    trace = []
    for _ in range(turns):
        tool = agent.choose_tool()
        agent.observe(call_tool(tool, VOCAB))
        trace.append(tool)
    return trace


if __name__ == "__main__":
    params = init_params(jax.random.PRNGKey(0))
    agent = Agent(params, "You are a harbour assistant. Use tools when needed.")
    steps = run_episode(agent, "When is high water today and will it rain?")
    print("tools used:", steps, "context length:", agent.context.shape[0])
