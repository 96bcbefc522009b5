"""Serve a handful of requests of different lengths through the block allocator."""

from allocator import BlockAllocator
from scheduler import Request, Scheduler


def main():
    scheduler = Scheduler(BlockAllocator())
    lengths = [5, 9, 3, 7, 6, 4]
    for step in range(24):
        if step < len(lengths):
            scheduler.admit(Request(rid=step, length=lengths[step]))
        scheduler.step()
    print("free blocks at the end:", scheduler.allocator.num_free())


if __name__ == "__main__":
    main()
