"""The word lists the extraction rules share (spaCy's lex_attrs): months, numerals, document
and people nouns, quotation marks. One definition each; a rule that needs a variant composes
it from these rather than copying the list."""

# Month names and their abbreviations -> month number.
MONTH_NUMBERS: dict[str, int] = {
    m: i
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for m in names
}
# A month, full or abbreviated (match case-insensitively).
MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
# A month's full name as written in a date line (case-sensitive).
MONTH_NAME = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
)
# A full date: "January 1, 2024", "1 January 2024", "2024-01-01".
DATE = (
    rf"(?:{MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+{MONTH}\.?,?\s+\d{{4}}"
    r"|\d{4}-\d{2}-\d{2})"
)
YEAR = r"(?:19|20)\d{2}"
# The units a document attaches to itself and cites by letter or number (Exhibit A, Schedule 2).
UNIT_NOUNS = r"(?:exhibit|schedule|annex|appendix|attachment)"

# People and roles, plural -> singular: the head nouns of scopes ("all full-time employees").
PEOPLE_SINGULAR = {
    "employees": "employee",
    "workers": "worker",
    "contractors": "contractor",
    "managers": "manager",
    "members": "member",
    "users": "user",
    "roles": "role",
    "persons": "person",
    "individuals": "individual",
    "licensees": "licensee",
    "recipients": "recipient",
    "customers": "customer",
    "students": "student",
    "residents": "resident",
    "tenants": "tenant",
    **{
        f"{w}s": w
        for w in (
            "consultant",
            "agent",
            "supplier",
            "vendor",
            "visitor",
            "volunteer",
            "intern",
            "officer",
            "director",
            "subscriber",
            "patient",
        )
    },
}

# The people nouns as a regex alternation (match case-insensitively): each singular or plural
# ("employees?"), and the collective nouns ("staff", "people").
PEOPLE_NOUNS = "|".join([*(f"{w}s?" for w in PEOPLE_SINGULAR.values()), "staff", "people"])

# Nouns a document title ends with: what makes "the HR Handbook" a document name.
DOC_NOUNS = {
    "policy",
    "handbook",
    "agreement",
    "license",
    "licence",
    "guideline",
    "guidelines",
    "guide",
    "manual",
    "procedure",
    "procedures",
    "contract",
    "amendment",
    "standard",
    "plan",
    "code",
    "regulation",
    "regulations",
    "charter",
}

# Numbers as contracts write them in words: "three (3) years", "twenty-four (24) months",
# "the first anniversary", "Amendment No. 2" / "the Second Amendment".
CARDINAL_WORDS = (
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen",
)  # fmt: skip
TENS_WORDS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
ORDINAL_WORDS = (
    "first", "second", "third", "fourth", "fifth", "sixth",
    "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth",
)  # fmt: skip


# A number of 1..99 in words as a pattern ("three", "twenty-four"), the numbers words_to_int
# reads; the longer word is tried first where one begins another ("seventeen", "seven").
NUMBER_IN_WORDS = (
    rf"(?:(?:{'|'.join(TENS_WORDS)})(?:-(?:{'|'.join(CARDINAL_WORDS[:9])}))?"
    rf"|{'|'.join(sorted(CARDINAL_WORDS, key=len, reverse=True))})"
)


def words_to_int(text: str) -> int | None:
    """'three' -> 3, 'twenty-four' -> 24, 'thirty' -> 30; None for what is no number of 1..99
    in words."""
    tens, _, unit = text.strip().lower().partition("-")
    if tens in TENS_WORDS and (not unit or unit in CARDINAL_WORDS[:9]):
        return 10 * (TENS_WORDS.index(tens) + 2) + (CARDINAL_WORDS.index(unit) + 1 if unit else 0)
    return CARDINAL_WORDS.index(tens) + 1 if tens in CARDINAL_WORDS and not unit else None


# Roman numerals as section labels are written ("Article VIII"): up to C.
ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def roman_to_int(text: str) -> int | None:
    """'XIV' -> 14; None for what is no numeral of 1..399."""
    if not text or any(c not in ROMAN_VALUES for c in text.upper()):
        return None
    values = [ROMAN_VALUES[c] for c in text.upper()]
    total = sum(
        -v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values)
    )
    return total if 0 < total < 400 else None


def int_to_roman(n: int) -> str:
    out = ""
    for value, numeral in (
        (100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"),
        (1, "I"),
    ):  # fmt: skip
        while n >= value:
            out += numeral
            n -= value
    return out


def _upper_ranges(first: int, last: int) -> str:
    """The capital letters between two code points as a character-class body ("À-ÖØ-Þ...")."""
    caps = [c for c in range(first, last + 1) if chr(c).isupper()]
    out, start = [], None
    for i, c in enumerate(caps):
        start = c if start is None else start
        if i + 1 == len(caps) or caps[i + 1] != c + 1:
            out.append(chr(start) if start == c else f"{chr(start)}-{chr(c)}")
            start = None
    return "".join(out)


# A capital letter of the Latin, Greek or Cyrillic alphabets, accented ones too, as the body
# of a character class: a name in capitals is "MÜLLER S.A." or "ÉNERGIE DU NORD" as well as
# "ACME INC." ([A-Z] alone ends it at the accent).
UPPER = "A-Z" + _upper_ranges(0xC0, 0x52F)
