"""95% confidence intervals: Wilson for shares, Student's t for means.

Wilson's score interval stays inside [0, 1] and keeps its coverage for small n and for shares near
0 or 1, where the textbook normal interval (p +- 1.96 se) collapses to a point. The t quantile is
computed exactly for integer degrees of freedom (closed-form t distribution, bisection), so no
SciPy is needed.
"""

from __future__ import annotations

import math
from functools import cache
from statistics import NormalDist

CONFIDENCE = 0.95
Z = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)


def wilson(successes: int, n: int, z: float = Z) -> tuple[float, float] | None:
    """Wilson score interval for a share ``successes / n``; None when n is 0."""
    if n <= 0:
        return None
    p = successes / n
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / n + z2n / (4 * n))
    # at 0 or n successes the bound is exactly 0 or 1; floating point would leave a speck
    return (0.0 if successes == 0 else centre - half), (1.0 if successes == n else centre + half)


def _t_central_mass(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with integer ``df`` (Abramowitz & Stegun 26.7.3/26.7.4)."""
    theta = math.atan(t / math.sqrt(df))
    s, c2 = math.sin(theta), math.cos(theta) ** 2
    if df % 2:
        if df == 1:
            return 2 * theta / math.pi
        term = total = math.cos(theta)
        for k in range(1, (df - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        return 2 / math.pi * (theta + s * total)
    term = total = 1.0
    for k in range(1, df // 2):
        term *= c2 * (2 * k - 1) / (2 * k)
        total += term
    return s * total


@cache
def t_quantile(df: int, confidence: float = CONFIDENCE) -> float:
    """The two-sided critical value of Student's t: P(|T| <= q) = confidence."""
    if df < 1:
        raise ValueError("t_quantile needs at least 1 degree of freedom")
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    if df > 100:  # Cornish-Fisher expansion: within 1e-10 of the exact value from here on, and faster
        return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
                + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
                + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * df**4))
    lo, hi = 0.0, 2 * z
    while _t_central_mass(hi, df) < confidence:
        lo, hi = hi, hi * 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if _t_central_mass(mid, df) < confidence:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2


def mean_interval(n: int, total: float, total_sq: float) -> tuple[float | None, float | None, float | None]:
    """Mean and its t interval from the count, sum and sum of squares; the interval needs n >= 2."""
    if n <= 0:
        return None, None, None
    mean = total / n
    if n < 2:
        return mean, None, None
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    half = t_quantile(n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half
