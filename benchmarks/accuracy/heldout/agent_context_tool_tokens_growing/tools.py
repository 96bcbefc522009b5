"""Fake tool backends for the agent loop: each returns a token list of its own length."""

TOOL_OUTPUTS = {
    "search": "top result: tide tables for the harbour, high water at 14:02",
    "calculator": "42.5",
    "weather": "overcast, wind 12 knots from the south west, visibility good",
}


def tokenize(text, vocab_size):
    return [(ord(c) * 31 + i) % vocab_size for i, c in enumerate(text)]


def call_tool(name, vocab_size):
    return tokenize(TOOL_OUTPUTS[name], vocab_size)
