"""Charts as SVG text: accuracy with confidence intervals, and label distributions.

Rendered by matplotlib's SVG backend without pyplot (no display, no global figure state), with text
kept as text (small, searchable files). The SVG is made fit to inline in an HTML page: no XML
prolog, no metadata block, and element ids prefixed per chart so that several charts on one page
do not share ids. matplotlib is imported on first use: it costs half a second, which every other
command would otherwise pay.
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

Interval = tuple[float, float | None, float | None]
"""A value with its lower and upper bound (bounds None when undefined, e.g. a mean of one value)."""

_PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
            "#9c755f", "#bab0ac"]
_LABEL_COLOURS = ["#59a14f", "#edc948", "#e15759", "#4e79a7", "#b07aa1", "#76b7b2", "#9c755f", "#bab0ac"]
_RC: dict[Any, Any] = {"svg.fonttype": "none", "svg.hashsalt": "ragability-gen", "font.size": 9,
                       "axes.spines.top": False, "axes.spines.right": False}


@contextlib.contextmanager
def _figure(width: float, height: float) -> Iterator[Figure]:
    import matplotlib as mpl
    from matplotlib.figure import Figure

    with mpl.rc_context(_RC):
        yield Figure(figsize=(width, height))


def _svg(fig: Figure, prefix: str) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, flags=re.S)
    text = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}-{m.group(1)}"', text)
    text = re.sub(r'(href="#|url\(#)([^")]+)', lambda m: f"{m.group(1)}{prefix}-{m.group(2)}", text)
    return text


def interval_bars(prefix: str, title: str, categories: Sequence[str], series: dict[str, list[Interval | None]],
                  xlabel: str, share: bool = True) -> str:
    """Horizontal bars, one group per category and one bar per series (LLM), with interval whiskers.

    Args:
        prefix: Unique id prefix for this chart's SVG elements.
        series: Per series name, one value (with bounds) or None per category.
        share: Values are shares: the axis runs 0-100%.
    """
    k = max(1, len(series))
    with _figure(7.5, 0.9 + 0.2 * len(categories) * k + 0.12 * len(categories)) as fig:
        ax = fig.subplots()
        height = 0.8 / k
        for s, (name, values) in enumerate(series.items()):
            offset = (s - (k - 1) / 2) * height
            points = [(c + offset, v) for c, v in enumerate(values) if v is not None]
            ax.barh([y for y, _ in points], [v[0] for _, v in points], height=height * 0.9,
                    color=_PALETTE[s % len(_PALETTE)], label=name)
            whiskers = [(y, v, lo, hi) for y, (v, lo, hi) in points if lo is not None and hi is not None]
            if whiskers:
                ax.errorbar([w[1] for w in whiskers], [w[0] for w in whiskers],
                            xerr=[[v - lo for _, v, lo, _ in whiskers], [hi - v for _, v, _, hi in whiskers]],
                            fmt="none", ecolor="#333333", elinewidth=0.8, capsize=2)
            for y, (value, _, high) in points:
                ax.annotate(f"{value:.0%}" if share else f"{value:.3g}", (value if high is None else high, y),
                            xytext=(3, 0), textcoords="offset points", va="center", fontsize=7, color="#333333")
        ax.set_yticks(range(len(categories)), list(categories))
        ax.invert_yaxis()
        if share:
            ax.set_xlim(0, 1.08)
            ax.xaxis.set_major_formatter(lambda x, _pos: f"{x:.0%}" if x <= 1 else "")
        ax.set_xlabel(xlabel)
        ax.set_title(title, loc="left", fontsize=10)
        ax.grid(axis="x", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
        if k > 1 or len(categories) == 1:
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
        return _svg(fig, prefix)


def stacked_shares(prefix: str, title: str, categories: Sequence[str], labels: Sequence[str],
                   shares: Sequence[Sequence[float]]) -> str:
    """Horizontal 100% bars: per category, the share of each label (the first label is the target)."""
    with _figure(7.5, 0.9 + 0.28 * len(categories)) as fig:
        ax = fig.subplots()
        left = [0.0] * len(categories)
        for j, label in enumerate(labels):
            widths = [row[j] for row in shares]
            ax.barh(range(len(categories)), widths, left=left, height=0.75, label=label,
                    color=_LABEL_COLOURS[j % len(_LABEL_COLOURS)])
            for c, w in enumerate(widths):
                if w >= 0.07:
                    ax.text(left[c] + w / 2, c, f"{w:.0%}", ha="center", va="center", fontsize=7)
            left = [a + w for a, w in zip(left, widths, strict=True)]
        ax.set_yticks(range(len(categories)), list(categories))
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter(lambda x, _pos: f"{x:.0%}")
        ax.set_title(title, loc="left", fontsize=10)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
        return _svg(fig, prefix)


def roc_curves(prefix: str, title: str, curves: Mapping[str, tuple[Sequence[float], Sequence[float]]]) -> str:
    """ROC curves (false positive rate -> true positive rate), one line per series, with the chance diagonal."""
    with _figure(5.5, 4.2) as fig:
        ax = fig.subplots()
        ax.plot([0, 1], [0, 1], color="#bbbbbb", linewidth=0.8, linestyle="--", label="chance")
        for s, (name, (fpr, tpr)) in enumerate(curves.items()):
            ax.plot(list(fpr), list(tpr), color=_PALETTE[s % len(_PALETTE)], linewidth=1.4, label=name,
                    drawstyle="steps-post")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("false positive rate")
        ax.set_ylabel("true positive rate")
        ax.set_title(title, loc="left", fontsize=10)
        ax.grid(color="#dddddd", linewidth=0.6)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False, fontsize=7)
        return _svg(fig, prefix)
