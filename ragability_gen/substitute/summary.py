"""What substitution did, counted for the CLI summary (the audit file has the details per instance)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class SubstituteSummary:
    """What substitution did: counts for the CLI summary."""

    instances: int = 0
    substituted: int = 0
    repaired: int = 0
    excluded: Counter[str] = field(default_factory=Counter)
    repairs: Counter[str] = field(default_factory=Counter)
    entities: Counter[str] = field(default_factory=Counter)
    dates: int = 0
    urls_removed: int = 0
    suspected: int = 0
    suspects: Counter[str] = field(default_factory=Counter)
    reviewer: str = ""
    review: Counter[str] = field(default_factory=Counter)
    model: str = ""

    def lines(self) -> list[str]:
        kept = self.substituted + self.repaired
        out = [f"substituted {kept} of {self.instances} instances ({self.repaired} after repair), "
               f"excluded {sum(self.excluded.values())}; NER model {self.model}"]
        if self.entities:
            out.append(f"  entities replaced: {sum(self.entities.values())} ("
                       + ", ".join(f"{k} {v}" for k, v in sorted(self.entities.items())) + ")")
        out.append(f"  date expressions shifted: {self.dates}")
        out += [f"  repaired {n}: {r}" for r, n in sorted(self.repairs.items())]
        out += [f"  excluded {n}: {r}" for r, n in sorted(self.excluded.items())]
        if self.suspects:
            out.append(f"  leak scan: {self.suspected} instances with suspects ("
                       + ", ".join(f"{k} {v}" for k, v in sorted(self.suspects.items())) + "); see 'suspects' in "
                       "the audit file (--strict leaves them out)")
        else:
            out.append("  leak scan: no suspects")
        if self.reviewer:
            r = self.review
            out.append(f"  reviewer {self.reviewer}: {r['reviewed']} instances reviewed, {r['added']} names added, "
                       f"{r['restored']} words restored, {r['ignored']} findings not applicable, "
                       f"{r['error']} without a valid reply")
        if self.urls_removed:
            out.append(f"  source URLs removed from metadata: {self.urls_removed}")
        return out
