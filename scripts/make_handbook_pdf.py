"""Regenerate examples/hr-processes-handbook.pdf, the example corpus's PDF document.

Headings are bold and larger, so the PDF exercises font-based heading detection.
Run: .venv/bin/python scripts/make_handbook_pdf.py
"""

from pathlib import Path

from fpdf import FPDF

TITLE = "HR Processes Handbook"
SECTIONS: list[tuple[str, str, list[str]]] = [
    (
        "1",
        "Scope",
        [
            "This handbook describes how HR processes at Northwind Logistics are carried out. It "
            "applies to all employees and to every Line Manager, and it is effective from "
            "January 1, 2024.",
        ],
    ),
    (
        "2",
        "Requesting Leave",
        [
            "Leave is requested through the HR system. The steps below must be followed in order.",
        ],
    ),
    (
        "2.1",
        "Step 1: Check the Balance",
        [
            "Before requesting leave, the employee checks their remaining balance for the Leave "
            "Year in the HR system.",
        ],
    ),
    (
        "2.2",
        "Step 2: Submit the Request",
        [
            "The employee submits the request at least 10 working days before the first day of "
            "leave. After Step 1, the request states the dates and the type of leave.",
        ],
    ),
    (
        "2.3",
        "Step 3: Manager Review",
        [
            "Following Step 2, the Line Manager reviews the request within 3 working days and "
            "approves or declines it under Section 5.1.",
        ],
    ),
    (
        "2.4",
        "Step 4: Confirmation",
        [
            "Once approved, HR confirms the leave and updates the balance. Step 4 completes the "
            "process.",
        ],
    ),
    (
        "3",
        "Recording Sick Leave",
        [
            "An employee who is sick must inform their Line Manager before 10:00 on the first day "
            "of absence. A medical certificate is required for absences of more than 3 days.",
        ],
    ),
    (
        "4",
        "Probation",
        [
            "New employees serve a probation period of 6 months. During probation, annual leave "
            "accrues but may only be taken with the approval of the Line Manager.",
        ],
    ),
    (
        "5",
        "Approvals",
        [
            "This section sets out who approves what.",
        ],
    ),
    (
        "5.1",
        "Approval Process",
        [
            "Leave of up to 10 consecutive working days is approved by the Line Manager in the HR "
            "system. Leave of more than 10 consecutive working days, and any extension of leave by "
            "working from home, requires written permission from the immediate Line Manager.",
            "The Line Manager must decide within 3 working days. A request that is not decided "
            "within that time is escalated to HR.",
        ],
    ),
    (
        "5.2",
        "Escalation",
        [
            "If the Line Manager declines a request under the preceding section, the employee may "
            "ask HR to review the decision. HR decides within 5 working days; its decision is "
            "final.",
        ],
    ),
]


def build(path: Path) -> None:
    pdf = FPDF(format="A4")
    pdf.set_creator("raag example corpus")
    pdf.set_title(TITLE)
    pdf.set_auto_page_break(auto=True, margin=20)
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 18)
    pdf.multi_cell(0, 10, TITLE)
    pdf.ln(4)
    for number, heading, paragraphs in SECTIONS:
        if number == "5":
            pdf.add_page()  # so the handbook spans pages and page numbers matter
        pdf.set_font("Helvetica", "B", 13 if "." not in number else 11)
        pdf.multi_cell(0, 7, f"{number} {heading}")
        pdf.ln(1)
        pdf.set_font("Helvetica", "", 10)
        for paragraph in paragraphs:
            pdf.multi_cell(0, 5, paragraph)
            pdf.ln(3)
    pdf.output(str(path))


if __name__ == "__main__":
    build(Path(__file__).resolve().parents[1] / "examples" / "hr-processes-handbook.pdf")
