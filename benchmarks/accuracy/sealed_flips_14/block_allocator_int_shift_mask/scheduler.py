"""A toy decoding scheduler: each request holds one cache block per 4 generated tokens."""

from dataclasses import dataclass, field


@dataclass
class Request:
    rid: int
    length: int
    generated: int = 0
    blocks: list = field(default_factory=list)


class Scheduler:
    def __init__(self, allocator, tokens_per_block=4):
        self.allocator = allocator
        self.tokens_per_block = tokens_per_block
        self.running = []

    def admit(self, request):
        request.blocks.append(self.allocator.allocate())
        self.running.append(request)

    def step(self):
        for request in list(self.running):
            request.generated += 1
            if request.generated >= request.length:
                for block in request.blocks:
                    self.allocator.free_block(block)
                self.running.remove(request)
            elif request.generated % self.tokens_per_block == 0:
                request.blocks.append(self.allocator.allocate())
