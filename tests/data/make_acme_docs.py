"""Writes the two binary documents of the Acme demo collection: a Word file and a PDF.

Run ``python tests/data/make_acme_docs.py`` after editing the texts below; the files are
committed, so using the collection needs neither python-docx nor fpdf2 for writing, only for reading.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parents[2] / "corpora" / "acme-docs"

COMPLIANCE = ("Acme Data Protection and Compliance Policy", [
    ("Scope", ["This policy applies to every employee, contractor and site of Acme Garden Systems."]),
    ("Retention", ["Personal data of customers is kept for 7 years after the end of the contract.",
                   "Backups of customer systems are kept for 90 days."]),
    ("Incidents", ["Security incidents must be reported to the compliance office within 72 hours.",
                   "The data protection officer is Ilse Marrow."]),
    ("Access", ["Passwords must be at least 10 characters long.",
                "Internal audits take place every 6 months."]),
])

SECURITY = ("Acme Information Security Handbook", [
    ("Reporting", ["Security incidents must be reported to the compliance office within 24 hours.",
                   "The data protection officer is Ilse Marrow."]),
    ("Data handling", ["Personal data of customers is kept for 10 years after the end of the contract.",
                       "Backups of customer systems are kept for 90 days."]),
    ("Accounts", ["Passwords must be at least 12 characters long.",
                  "Internal audits take place every 6 months."]),
])


def write_docx(path: Path, title: str, sections: list[tuple[str, list[str]]]) -> None:
    import docx

    doc = docx.Document()
    doc.core_properties.title = title
    doc.core_properties.author = "Acme Compliance Office"
    doc.add_heading(title, level=1)
    for heading, paragraphs in sections:
        doc.add_heading(heading, level=2)
        for p in paragraphs:
            doc.add_paragraph(p)
    doc.save(str(path))


def write_pdf(path: Path, title: str, sections: list[tuple[str, list[str]]]) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_creation_date(datetime(2024, 5, 1, tzinfo=timezone.utc))  # fixed, so rebuilding changes nothing
    pdf.set_title(title)
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.multi_cell(0, 10, title, new_x="LMARGIN", new_y="NEXT")
    for heading, paragraphs in sections:
        pdf.set_font("Helvetica", "B", 13)
        pdf.multi_cell(0, 9, heading, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", "", 11)
        for p in paragraphs:
            pdf.multi_cell(0, 6, p, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
    pdf.output(str(path))


if __name__ == "__main__":
    write_docx(HERE / "compliance-policy.docx", *COMPLIANCE)
    write_pdf(HERE / "security-handbook.pdf", *SECURITY)
