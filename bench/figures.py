"""How the benchmarks print their timings: milliseconds, and a median/p99/max summary."""

from __future__ import annotations

import statistics


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def summary(times: list[float]) -> str:
    """The median, the 99th percentile (the sample at that rank) and the slowest."""
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"median {ms(statistics.median(ordered))}, p99 {ms(p99)}, max {ms(ordered[-1])} "
        f"({len(ordered)} samples)"
    )
