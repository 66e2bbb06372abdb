"""Layer 1 definitions: a term defined in a section ('"Force Majeure" means', '(the
"Licensor")', 'hereinafter referred to as', an entry of a definitions section). Each form is a
rule of graph.rules; every `defines` edge carries the id of the form that found its term."""

import re
from collections.abc import Sequence

from raag_assets.core.model import Edge, SectionInfo
from raag_assets.graph.keys import term_key
from raag_assets.graph.overlaps import inside
from raag_assets.graph.rules import Rule, rule

QUOTED_MEANS = rule(
    "defines.quoted_means",
    "definition",
    'a quoted term followed by a defining verb: "X" means / shall mean / refers to / includes',
    edge_type="defines",
    confidence=1.0,
    pattern=(
        # the term may wrap onto the next line ('"Competing Computer Products\n\nRetailer"
        # means': a flattened line split back, or a hard-wrapped one)
        r"(?:^|(?<=[\s(.;:]))(?:(?:To|A|An|The|Each)\s+)?[“\"]"
        r"(?P<term>[^“”\"\n]{1,60}?(?:\s*\n\s*[^“”\"\n]{1,40}?)?)[”\"]"
        r"(?:\s*\((?:or|and)\s+[“\"](?P<alias>[^“”\"\n]{1,40})[”\"]\))?"
        # words between ('as used in Section 3.01'), or an aside ('(including "Controlled")')
        r"(?P<between>(?:,?\s+[\w'’-]+(?:\.\d+)*){0,7}?(?:\s*\([^()\n]{1,120}\))?)\s*,?\s*"
        r"(?P<verb>(?:also\s+)?means?|shall\s+mean|refers?\s+to|shall\s+refer\s+to|"
        r"(?:is|shall\s+be)\s+defined\s+as|(?:shall\s+)?ha(?:s|ve)\s+the\s+meanings?|includes?|"
        r"which\s+means|"
        r"is\s+(?:either|any|a|an)|are\s+(?:all|any|terms|those|certain)|"
        # 'shall be any State in which', not 'shall be the sole property of'
        r"shall\s+be\s+(?:any|all|equal\s+to|the(?!\s+(?:same|sole|exclusive|property|"
        r"responsibility)\b)))\b"
    ),
    examples=(
        '"Business Day" means any day on which banks are open.',
        'The "Services" shall mean the work described in the order.',
        '"Affiliate" (or "Affiliates") refers to any entity under common control.',
        '"Components" mean the parts listed in the order.',
        '"Special Link"means a tagged link.',
        '"Gross Sales" as used in this Section 3.01 shall mean all amounts invoiced.',
        '"Control" (including the terms "Controlling" and "Controlled") shall mean the power.',
        '"Sales Territory" shall be any country in which the Distributor has an office.',
        '"Competing Computer Products\n\nRetailer" means any retailer of computers.',
        'any Integra Affiliates."Integra Products" means any implantable device.',
        'The "Shortfall" shall be the amount by which the orders fall short of the forecast.',
    ),
    counter=(
        'The word "Title" is set in capitals.',
        "Business Day means any weekday.",
        'The mark "Acme" (as registered) is used on the goods.',
        '"Joint Inventions" shall be the sole property of the Company.',
    ),
)
# 'Net Sales means the gross amount ...', 'For the purpose of this Agreement, Confidential
# Information shall mean ...': a capitalised phrase of two words or more, without quotes,
# opening a sentence (or after "For the purposes of this Agreement,") with "means".
UNQUOTED_MEANS = rule(
    "defines.unquoted_means",
    "definition",
    "a capitalised phrase without quotes opening a sentence with 'means' / 'shall mean' "
    "('Net Sales means ...')",
    edge_type="defines",
    confidence=0.9,
    pattern=(
        r"(?:^|(?<=[.;:]\s)|(?<=\n)|(?<=\bAgreement,\s)|(?<=\bherein,\s))(?:The\s+term\s+)?"
        r"(?P<term>(?!(?:This|The|That|Such|Each|Any|All|No|Section|Article|Clause)\b)"
        r"[A-Z][\w'’-]*(?:\s+(?:of\s+)?[A-Z][\w'’-]*){1,4})\s+(?:shall\s+mean|means)\s"
    ),
    examples=(
        "Net Sales means the gross amount invoiced, less returns.",
        "For the purposes of this Agreement, Confidential Information shall mean all data.",
        "payable monthly. Standard Business Hours means 9 a.m. to 5 p.m.",
    ),
    counter=(
        "This Agreement means the whole contract.",
        "the sum that Net Sales means to the buyer",
        '"Net Sales" means the gross amount invoiced.',
    ),
)
# A verb or predicate defined with its object between: 'To "Preserve the Title" of such a
# section when you modify the Document means'; 'An MMC is "eligible for relicensing" if'.
VERBAL = rule(
    "defines.verbal",
    "definition",
    'a quoted verb or predicate defined: To "X" ... means; is "X" if / when / where',
    edge_type="defines",
    confidence=1.0,
    pattern=(
        r"\bTo\s+[“\"](?P<term>[^“”\"\n]{1,60}?)[”\"](?:\s+[\w'’-]+){0,12}?,?\s+means\b"
        r"|\b(?:is|are)\s+[“\"](?P<pred>[^“”\"\n]{1,60}?)[”\"]\s+(?:if|when|where)\b"
    ),
    examples=(
        'To "convey" a work means to make copies available to others.',
        'A member is "in good standing" if all dues are paid.',
    ),
    counter=('The member is "in good standing".',),
)
# An event or state defined by when it holds: '"Cause" shall exist if ...', '... a "Change of
# Control" shall be deemed to have occurred'.
OCCURS_WHEN = rule(
    "defines.occurs_when",
    "definition",
    'a quoted event or state defined by when it holds: "X" shall exist / shall occur / shall be '
    "deemed to have occurred",
    edge_type="defines",
    confidence=1.0,
    pattern=(
        r"(?:^|(?<=[\s(]))(?:(?:A|An|The|a|an|the)\s+)?[“\"](?P<term>[^“”\"\n]{1,60}?)[”\"]"
        r"\s+(?:(?:shall|will)\s+(?:be\s+deemed\s+to\s+)?|(?:is|are)\s+deemed\s+to\s+)"
        r"(?:exist|occur|have\s+occurred)\b"
    ),
    examples=(
        '"Cause" shall exist if the other party is in material breach.',
        'If the buyer declines, a "Renewal Default" shall be deemed to have occurred.',
        'A "Ratings Event" shall occur when the rating falls below BBB.',
    ),
    counter=(
        "Cause shall exist if the other party is in material breach.",
        'The notice of "Cause" shall be given in writing.',
    ),
)
# An unquoted term given its meaning after 'As used in this Agreement': 'As used in this
# Agreement, force majeure shall mean ...', 'As used herein, attorneys' fees will be deemed
# to be ...' (quoted terms are defines.quoted_means').
AS_USED_MEANS = rule(
    "defines.as_used_means",
    "definition",
    "an unquoted term after 'As used in this Agreement' / 'As used herein' with a defining verb: "
    "means / shall mean / will be deemed to be / includes / refers to",
    edge_type="defines",
    confidence=0.9,
    pattern=(
        r"\b(?i:as)\s+used\s+(?:herein|in\s+this\s+[A-Za-z]+)\s*,\s+"
        r"(?:the\s+(?:term|words?|phrase|expression)\s+)?"
        r"(?P<term>(?!(?i:the|a|an|any|all|each|every|such|capitali[sz]ed|following|references?)\b)"
        r"[A-Za-z][\w'’-]*(?:\s+(?!(?:shall|will|means?|includes?|is|are|refers?)\b)"
        r"[A-Za-z][\w'’-]*){0,3})\s+(?:means|shall\s+mean|will\s+mean|"
        r"(?:shall|will)\s+be\s+deemed\s+to\s+(?:mean|be|include)|(?:shall\s+)?include[s]?|"
        r"(?:shall\s+)?refers?\s+to)\b"
    ),
    examples=(
        "As used in this Agreement, force majeure shall mean any act of God.",
        "As used herein, attorneys' fees will be deemed to be the full fees charged.",
        "as used in this Contract, business day means a weekday.",
    ),
    counter=(
        "As used herein, the following terms shall have the meanings below.",
        "As used in this Agreement, any reference to the masculine includes the feminine.",
        'As used herein, "Product" means the goods.',
        "As used in this Agreement, capitalized terms have their defined meanings.",
    ),
)
# '... is called a "modified version"', 'Each licensee is addressed as "you"'
CALLED = rule(
    "defines.called",
    "definition",
    'a term given by naming: is called / considered / deemed / known as "X", addressed as "X"',
    edge_type="defines",
    confidence=1.0,
    pattern=(
        r"\b(?:(?:is|are)\s+(?:also\s+)?(?:called|considered|deemed)|"
        r"(?:(?:is|are|also|commonly|collectively|hereinafter)\s+)?known\s+as|addressed\s+as)"
        r"\s+(?:(?:a|an|the)\s+)?"
        r"(?:[\w]+['’]s\s+)?[“\"](?P<term>[^“”\"\n]{1,60}?)[”\"]"
    ),
    examples=(
        'A copy with changes is called a "modified version".',
        'Each reader is addressed as "you".',
        'the receiving unit, known as "Base Equipment", and its cables',
    ),
    counter=('The reader said "you" twice.', 'a unit known for its "Base" model'),
)
HEADING_TERM = rule(
    "defines.heading_term",
    "definition",
    "a section headed by a quoted term whose text starts with 'means' / 'refers to'",
    edge_type="defines",
    confidence=1.0,
    pattern=(
        r"^[“\"](?P<term>[^“”\"]{1,60})[”\"]"
        r"(?:\s*\((?:or|and)\s+[“\"](?P<alias>[^“”\"]{1,40})[”\"]\))?"
    ),
    examples=('"Software"', '"Contributor" (or "Contributors")'),
    counter=("Software", 'The "Software"'),
)
HEADED_MEANING = rule(
    "defines.headed_meaning",
    "definition",
    "a section headed by a term without quotes whose text starts with 'means' / 'shall mean'",
    edge_type="defines",
    confidence=1.0,
    pattern=(
        r"^(?P<term>[A-Z][\w'’&/-]*(?:\s+(?:[A-Z][\w'’&/-]*|of|or|and|the|for|to|in|on)){0,5})$"
    ),
    examples=("Developed Intellectual Property", "Affiliate"),
    counter=("the goods", "Payment Terms and Conditions of the Sale of All Goods Delivered Here"),
)
# the text of a section headed by a quoted term starts with its meaning
_STARTS_DEFINITION = re.compile(r"^(?:means|shall\s+mean|refers\s+to|is\s+defined\s+as)\b")
# '(the "Enterprise License")', '("NTL")', '(each, a "Party")': a term defined in passing.
PARENTHETICAL = rule(
    "defines.parenthetical",
    "definition",
    'quoted names in a parenthesis joined only by glue words: (the "Supplier"), ("ABC")',
    edge_type="defines",
    confidence=1.0,
    # short parentheses may stand inside: '(clauses (i) and (ii), the "Conditions")', '("Part(s)")'
    pattern=r"\((?P<inner>(?:[^()]|\([^()]{1,12}\)){2,400})\)",
    examples=('Acme Limited (the "Supplier") agrees', 'the Example Company ("EXCO")'),
    counter=("the product, as defined herein, ships",),
)
# Inside a parenthesis, a quoted name after what it names: '(such date, the "Notice Date")',
# '(collectively, "Costs")', '(Acme and Beta, each a "Party" and together the "Parties")',
# '(together with its successors, the "Lender")', '(referred to below as the "Buyer")'.
PARENTHESIS_LABEL = rule(
    "defines.parenthesis_label",
    "definition",
    'inside a parenthesis, a quoted name given after a description: (such date, the "X"), '
    '(collectively, "X"), (A and B, each a "X"), (together with ..., the "X")',
    edge_type="defines",
    confidence=1.0,
    pattern=(
        r"(?:[,;]\s*(?:(?:and|or)\s+)?"
        r"(?:(?:collectively|together|individually|jointly|severally|each|respectively)\s*,?\s*)*"
        r"|\b(?:each|collectively|together|individually|jointly|severally|respectively)\s*,?\s*"
        r"|\bin\s+(?:each|either|any)\s+(?:such\s+)?case\s*,?\s*"
        r"|\b(?:together|collectively|along)\s+with\b[^“”\"()]{1,80}?,?\s*"
        r"|\b(?:referred\s+to|known|designated)\b[^“”\".;]{0,60}?\bas\s+"
        r"|\b(?:hereinafter|hereafter|hereunder)\s+)"
        r"(?:(?:the|a|an|each\s+an?)\s+)?[“\"](?P<term>[^“”\"\n]{1,60}?)[”\"]"
    ),
    examples=(
        '(such date, the "Notice Date")',
        '(all such costs, collectively, "Costs")',
        '(Acme and Beta each a "Party")',
        '(together with its successors and assigns, the "Lender")',
        '(each such period is referred to here as a "Renewal Term")',
        '(in each case an "Indemnified Party")',
    ),
    counter=('(see Exhibit "B")', '(for example "Standard" or "Premium")'),
)
# A filing whose quotation marks were lost on the way to text (CUAD has 17 of 207 such on its
# look half) names its terms in parentheses bare: '(the Effective Date)', '(collectively, the
# Services)', '(each a Milestone Deliverable)', '(Developer )'. Read only in a document that
# quotes no names at all (`quotes_names`), where such a parenthesis is how it defines; in one
# that quotes its terms, a bare '(the Act)' or '(Canada)' is an aside. The parenthesis
# follows the words it names on the same line ('____ (Signature)' names nothing) and ends
# the name: a capitalised word after it means it sits inside a longer name ('the Contracts
# (Rights of Third Parties) Act').
UNQUOTED_PARENTHETICAL = rule(
    "defines.unquoted_parenthetical",
    "definition",
    "in a document that quotes no names, a capitalised name alone in a parenthesis after what "
    "it names: (the Effective Date), (collectively, the Services), (each a Change Order)",
    edge_type="defines",
    confidence=0.9,
    pattern=(
        r"(?:(?<=[^\W_])|(?<=[^\W_][,;:)’'”\"])|(?<=[^\W_]\s)|(?<=[^\W_][,;:)’'”\"]\s))\("
        r"(?:(?:hereinafter|hereafter)(?:\s+(?:referred\s+to|called)\s+as)?\s+"
        r"|(?:collective(?:ly)?|together|individually|jointly|each)\s*,?\s*"
        r"(?:(?:referred\s+to\s+)?as\s+)?)?"
        r"(?:(?:the|a|an)\s+)?"
        # not a citation, a version or a copyright sign: '(Section 4)', '(Rev. B)', '(C)'
        r"(?P<term>(?!(?:Section|Article|Exhibit|Schedule|Annex|Appendix|Clause|Page|See|"
        r"Including|Inclusive|Rev|Revision|Version|Ver|V|No|Copyright)\b)(?![A-Z]\s*\))"
        r"[A-Z][\w&’'.-]*(?:\s(?:[A-Z][\w&’'.-]*|of|and|for|to|in|on|the)){0,5})"
        # a note may follow the name: '(the SOW; as provided in Appendix A hereto)'
        r"\s*(?:;[^()\n]{1,80})?\)"
        r"(?!\s*[A-Z][a-z])"
    ),
    examples=(
        "made December 3rd, 2018 (the Effective Date) by and between",
        "all related services (collectively, the Services), and",
        "deliver to Client such Deliverable (each a Milestone Deliverable) including",
        "a Delaware limited liability company (Developer ), and",
        "Missouri Insurance Company (MICOA) agrees",
        '"Application Phase 1" (collectively, the Subject Program), and',
        "the statement of work (the SOW; as provided in Appendix A hereto).",
    ),
    counter=(
        "Signed: ________ (Signature)",
        "under the Contracts (Rights of Third Parties) Act 1999",
        "as set out below (Section 4.2) and",
        "the goods (as defined below) ship",
        "(the Effective Date) opens the line",
        "the Leave Policy (Rev. B) replaces",
        "Copyright (C) 1989 the authors",
    ),
)
# A document "quotes names" when its text holds quoted capitalised names ('"Product"',
# '“Licensee”'); three or more, so a stray quotation does not count.
_QUOTED_NAME = re.compile(r"[“\"][A-Z][^“”\"\n]{0,40}[”\"]")


def quotes_names(sections: Sequence[SectionInfo]) -> bool:
    """Whether a document marks its names with quotation marks (most do): if not, its bare
    parenthetical names are its definitions (defines.unquoted_parenthetical)."""
    found = 0
    for s in sections:
        found += len(_QUOTED_NAME.findall(s.heading)) + len(_QUOTED_NAME.findall(s.text))
        if found >= 3:
            return True
    return False


# A parenthesis that gives examples or a translation names nothing: '(e.g. "A" or "B")',
# '(including, without limitation, "Fast Track")'.
_EXEMPLIFYING = re.compile(
    r"\s*(?:e\.\s?g\.|i\.\s?e\.|including|includes|such\s+as|for\s+example|by\s+way\s+of|"
    r"see\b|cf\.|translation|formerly|previously|also\s+see)",
    re.IGNORECASE,
)
# A function call in a manual's example ('result=asn1_write_value(cert, "name", "NEW", 1)'):
# the parenthesis is glued to the function's name and opens with an unquoted argument and a
# comma. Its quoted strings are arguments, not names it gives.
CALL_ARGUMENTS = rule(
    "defines.not_call_arguments",
    "definition",
    "a parenthesis glued to a word, its first item unquoted before a comma: a function call's "
    "arguments in code, which name nothing",
    pattern=r"(?<=\w)\((?=[^()\"“”,\n]{1,30},)",
    examples=('result=asn1 write value(cert, "tbsCertificate.subject", "NEW", 1)',),
    counter=('Acme Limited (the "Supplier")', 'Beta LLC("Company")', '(such date, the "Date")'),
)
# examples given anywhere in a parenthesis: what follows them is no name
_EXAMPLES = re.compile(r"\b(?:e\.\s?g\.|i\.\s?e\.|such\s+as|for\s+example)", re.IGNORECASE)
# what may follow a name given in a parenthesis: its end, a stop, or the next name
_NAME_ENDS = re.compile(
    r"\s*[,.;:]?\s*(?:$|[,;]|(?:and|or|if|when|where|provided|as|in\s+each\s+case|each|"
    r"collectively|together|individually)\b)",
    re.IGNORECASE,
)
# '(each such divested entity or line of business, a "Divested Entity")': the parenthesis
# describes what the term names, then gives it.
EACH_SUCH = rule(
    "defines.each_such",
    "definition",
    'inside a parenthesis: each such <thing>, a "Term"',
    edge_type="defines",
    confidence=1.0,
    pattern=(
        r"^\s*(?:each|any|every|all)\s+such\b[^“”\"]{0,160},\s*(?:a|an|the|each\s+a|each\s+an)\s+"
        r"[“\"](?P<term>[^“”\"]{1,60}?)[”\"]\s*$"
    ),
    examples=('each such office or branch, an "Outlet"',),
    counter=('each office, an "Outlet"',),
)
# Fields of a signature block, and a company's name, are no headed definitions.
FORM_FIELD = rule(
    "definition.form_field",
    "definition",
    "a signature-block field or a company name, which no headed entry defines",
    pattern=(
        r"(?:^|\s)(?:By|Name|Title|Its|Date|Signature|Address|Attention|Attn|Email|Fax|Telephone)$"
        r"|\b(?i:inc|incorporated|ltd|limited|llc|llp|plc|gmbh|corp|corporation)\.?$"
    ),
    examples=("Name", "Acme Holdings Inc."),
    counter=("Business Day",),
)
_QUOTED = re.compile(r"[“\"](?P<term>[^“”\"]{1,80}?)[”\"]")
# the words a parenthesis of names may have besides them: '("GRC" or "the Company")'
_PAREN_GLUE = re.compile(
    r"(?:the|a|an|this|each|any|such|collectively|individually|together|jointly|severally|"
    r"hereinafter|herein|hereafter|hereunder|referred|to|as|and|or|being|called|also|known|"
    r"license|licence|agreement|[,;:])*",
    re.IGNORECASE,
)
# '... are sometimes referred to collectively herein as the "Parties" and individually as a
# "Party"': adverbs between, and a second name after "and ... as".
REFERRED_TO_AS = rule(
    "defines.referred_to_as",
    "definition",
    'hereinafter referred to as / called "X" (and individually as "Y")',
    edge_type="defines",
    confidence=1.0,
    pattern=(
        r"\b(?:(?:hereinafter|hereafter|herein)\s+(?:referred\s+to\s+as|called)|"
        # 'referred to herein as', 'referred to at times in this Section as'
        r"(?:being\s+)?referred\s+to\s+(?:(?!as\b)[\w,]+\s+){0,8}?as)\s+(?:the\s+|a\s+|an\s+)?"
        r"[“\"](?P<term>[^“”\"\n]{1,60}?)[”\"]"
        r"(?:,?\s+(?:and|or)\s+(?:(?:each|individually|separately|collectively|together|jointly|"
        r"at\s+times)\s+)*as\s+"
        r"(?:the\s+|a\s+|an\s+)?[“\"](?P<term2>[^“”\"\n]{1,60}?)[”\"])?"
    ),
    flags=re.IGNORECASE,
    examples=(
        'Acme Limited, hereinafter referred to as "the Seller", agrees',
        'together referred to as the "Owners" and individually as an "Owner"',
        'is referred to at times in this Section as the "Buyer" and together as the "Buyers"',
    ),
    counter=("as referred to in the schedule",),
)
# A section of definitions: its heading, or the sentence that opens it, says so.
DEFINITIONS_SECTION = rule(
    "definition.definitions_section",
    "definition",
    "a heading that marks a section of definitions, whose headed entries define terms",
    pattern=(
        r"\bdefinitions?\b|\bdefined\s+terms\b|\binterpretation\b|"
        r"\bfollowing\s+(?:terms|words|expressions)\b[^.]{0,60}\bmeanings?\b|"
        r"\bterms\s+(?:shall\s+)?have\s+the\s+(?:following|respective)\s+meanings?\b"
    ),
    flags=re.IGNORECASE,
    examples=("Definitions", "Defined Terms and Interpretation"),
    counter=("Payment Terms",),
)
# In a section's text only the sentence that opens a list of definitions marks one (the word
# "definition" in passing does not).
DEFINITIONS_LEAD = rule(
    "definition.definitions_lead",
    "definition",
    "the sentence that opens a list of definitions in a section's text",
    pattern=(
        r"\bfollowing\s+(?:terms|words|expressions)\b[^.]{0,60}\bmeanings?\b|"
        r"\bterms\s+(?:shall\s+)?have\s+the\s+(?:following|respective)\s+meanings?\b|"
        r"\bas\s+used\s+(?:herein|in\s+this\s+\w+)\s*,?\s+the\s+following\b"
    ),
    flags=re.IGNORECASE,
    examples=(
        "In this contract the following terms have the meanings given below.",
        "As used in this Policy, the following words apply.",
    ),
    counter=("See the definition of a Business Day.",),
)
# In a definitions section, an entry headed by the term: "Business Day. Any day other than",
# "Affiliate: any entity", "object code means ...".
HEADED_ENTRY = rule(
    "defines.headed_entry",
    "definition",
    "in a definitions section, an entry headed by its term: 'Term. Meaning', 'Term: meaning'",
    edge_type="defines",
    confidence=1.0,
    pattern=(
        # the entry may be numbered ("(a)", "1.", "1.1.1")
        r"(?:^|\n\s*\n|;\s+|(?<=[.:]\s))\s*(?:\(?[a-z0-9]{1,4}[.)]\s+|\d{1,3}(?:\.\d{1,3})+\.?\s+)?"
        r"(?!(?:The|A|An|This|That|These|Any|Each|All|No|In|If|For)\s)"
        r"(?P<term>[A-Z][\w'’&/-]*(?:\s+(?:[A-Z][\w'’&/-]*|of|or|and|the|for|to|in|on)){0,6})"
        # the spaces after the stop are left to the next entry's anchor ("Authority.  Note ...")
        # then a stop and the meaning, or the defining verb ("PRC Laws: means any law")
        r"(?:\s*(?:\.|:|—|–)(?=\s+[A-Z(“\"])|\s*[.:]?\s+(?=(?:means|shall\s+mean|refers\s+to)\b))"
    ),
    examples=(
        "Business Day. Any day other than a Sunday.",
        "Affiliate: Any entity it controls.",
        "1.1.2 Trade Secrets: means any technical information.",
    ),
    counter=("the goods are delivered on time",),
)
# Several terms given one meaning: '"Authority" and "Authorities" means', 'The terms "hereof",
# "herein" or "hereunder" shall refer to'.
TERM_LIST = rule(
    "defines.term_list",
    "definition",
    'several quoted terms given one meaning: "X" and "Y" mean, "X", "Y" or "Z" shall refer to',
    edge_type="defines",
    confidence=1.0,
    pattern=(
        r"(?P<terms>[“\"][^“”\"\n]{1,60}[”\"](?:\s*,\s*(?:and\s+|or\s+)?[“\"][^“”\"\n]{1,60}[”\"]|"
        r"\s+(?:and|or)\s+[“\"][^“”\"\n]{1,60}[”\"])+)"
        r"(?:\s*,?\s*(?:and|or)\s+(?:any\s+)?similar\s+(?:expressions|words|terms))?"
        r"(?:\s*\([^()\n]{1,80}\))?\s*"
        r"(?:(?:shall\s+)?(?:means?|refers?\s+to|mean\s+and\s+refer\s+to|refer\s+to|includes?)|"
        r"(?:shall\s+)?ha(?:s|ve)\s+(?:the\s+(?:respective\s+)?meanings?|"
        # derived from the term just defined: '"Controlled" and "Controlling" shall have a
        # corresponding meaning'
        r"(?:a\s+|the\s+)?(?:corresponding|correlative)\s+meanings?))\b"
    ),
    examples=(
        '"Vendor" and "Vendors" mean the seller of the goods.',
        '"Writing" or "Written" (whether or not capitalised) means a paper document.',
        'the terms "Member" and "Associate" shall have the respective meanings set out below',
        '"Owned" and "Owning" shall have a corresponding meaning.',
        '"Licensing" and "Licensed" have correlative meanings.',
    ),
    counter=('"Vendor" means the seller of the goods.',),
)

# An entry of a list of definitions opened by its quoted term and a dash or colon, at the start
# of a line, a sentence or an item: '"Kiosk" - A free-standing unit ...', '(iii) "SOW" - The
# statement of work', '"Affiliate": Any entity ...'.
QUOTED_ENTRY = rule(
    "defines.quoted_entry",
    "definition",
    'an entry opened by its quoted term and a dash or colon: "X" - A ..., (iii) "X": The ...',
    edge_type="defines",
    confidence=1.0,
    pattern=(
        r"(?:^|(?<=[.;:])[ \t]+|\n)[ \t]*(?P<item>\(?(?:[a-z]{1,2}|[ivx]{1,5}|\d{1,3})[.)][ \t]+)?"
        # an item of a numbered list may give its meaning in lower case ('(xxv) "SHIPMENT
        # DATE" - the date of delivery'); a bare quoted word before a dash needs a capital
        r"[“\"](?P<term>[^“”\"\n]{1,60}?)[”\"][ \t]*(?:-{1,2}|–|—|:)[ \t]+"
        r"(?(item)(?=[A-Za-z(“\"])|(?=[A-Z(“\"]))"
    ),
    flags=re.MULTILINE,
    examples=(
        '"Kiosk" - A free-standing unit in a mall.',
        'for the stores.  "Owner" - Each person holding an interest.',
        '(iii) "SOW": The statement of work attached.',
        '(xxv) "SHIPMENT DATE" - the date of delivery of Products.',
    ),
    counter=('Schedule "2" - Development Plan', 'He wrote "Stop" - and left.'),
)

# A term borrowed from another document or a rule, which only that one defines: 'the Common
# Stock (as defined in the Securities Purchase Agreement)', 'Beneficial Ownership (as defined
# in Rule 13d-3 under the Exchange Act)'. This document's anchor for the term is here (GRAPH_GOLD:
# a definition); defined in a part of this document ('(as defined in Section 2.1)', '(as
# defined below)', '(as defined in Exhibit A)') it is a use of the term, not a definition.
DEFINED_ELSEWHERE = rule(
    "defines.defined_elsewhere",
    "definition",
    "a capitalised term followed by '(as defined in' another document or a rule, not a part of "
    "this one",
    edge_type="defines",
    confidence=0.9,
    pattern=(
        # a determiner opening a sentence is no part of the term ('No Common Stock (as ...')
        r"(?<![\w'’&-])(?:(?:The|A|An|No|Each|Any|All|Such|Every|Its|Their|Our|Your|Certain)\s+)?"
        r"(?P<term>[A-Z][\w'’&-]*(?:\s+(?:of\s+)?[A-Z][\w'’&-]*){0,4})\s+"
        r"\(as\s+defined\s+(?:in|under|by)\s+"
        r"(?!(?i:this|these|such|said|the\s+(?:next|preceding|following|foregoing))\b)"
        r"(?!(?i:sections?|articles?|clauses?|paragraphs?|exhibits?|schedules?|appendix|"
        r"appendices|annex|annexes|attachments?|addend\w*|sub\w*|part|recitals?|preamble|"
        r"herein|hereunder|hereof|hereto|below|above|§))"
        r"(?:the\s+)?[A-Z0-9]"
    ),
    examples=(
        "the Common Stock (as defined in the Securities Purchase Agreement) is issued",
        "any Beneficial Ownership (as defined in Rule 13d-3 under the Exchange Act)",
    ),
    counter=(
        "the Net Revenue (as defined in Section 1e.) is paid",
        "all Proprietary Information (as defined below)",
        "the Purchase Schedule (as defined in this next Section)",
        "the Equipment (as defined in Exhibit A) is delivered",
    ),
)

Found = tuple[int, str, str, Rule]  # (position, term, evidence, the rule that found it)
# the trailing words that leave a headed entry unfinished ("Rights of")
_CONNECTIVES = ("of", "or", "and", "the", "for", "to", "in", "on")


def states_definition(sentence: str) -> bool:
    """A sentence that defines a term ('"Affiliate" means ...'): its citations are part of the
    definition, not relations of the section."""
    return QUOTED_MEANS.search(sentence) is not None


# a heading that names a term in passing: 'APPENDIX N - Return Material Authorization ("RMA")'
_NAMED = re.compile(r"\((?:the\s+|a\s+|an\s+)?[“\"][^“”\"\n]{1,60}[”\"]\)")


def definition_text(section: SectionInfo) -> str:
    """The text a section's definitions are read in, which their positions count in: its
    text, after its heading when the heading states a definition itself. A numbered
    definition wrapped over lines may lose its first line to the heading ('1.10 "IND" means
    the Investigational New Drug Application, as defined by the' over 'United States Federal
    Food, Drug and Cosmetic Act ...'); a heading the text repeats is read once."""
    heading = section.heading.strip()
    if not heading or heading == section.label or heading in section.text[: len(heading) + 16]:
        return section.text
    if not (QUOTED_MEANS.search(heading) or TERM_LIST.search(heading) or _NAMED.search(heading)):
        return section.text
    return f"{heading}\n{section.text}"


def definitions(section: SectionInfo, quoted: bool = True) -> list[Edge]:
    """'"Force Majeure" means ...', '"X" refers to', '"X" shall mean', and a definition
    section whose heading is the quoted term and whose text starts with "means"; in a document
    that quotes no names (`quoted` False: `quotes_names`), its bare parenthetical names too."""
    text = definition_text(section)
    found = [
        *([] if quoted else _bare_parentheses(text)),
        *_by_heading(section),
        *_by_verb(text),
        *_by_naming(text),
        *_by_list(text),
        *_by_entry(text),
        *_by_reference_name(text),
        *_in_parentheses(text),
        *_borrowed(text),
        *_headed_entries(section, text),
    ]
    return [e for f in found if (e := defines_edge(section, f)) is not None]


def _by_heading(section: SectionInfo) -> list[Found]:
    if not _STARTS_DEFINITION.match(section.text):
        return []
    evidence = f"{section.heading} {section.text[:40]}".strip()
    heading = HEADING_TERM.search(section.heading)
    if not heading:
        bare = HEADED_MEANING.search(section.heading)
        return [(0, bare.group("term"), evidence, HEADED_MEANING)] if bare else []
    terms = [heading.group("term"), heading.group("alias")]
    return [(0, t, evidence, HEADING_TERM) for t in terms if t]


def _by_verb(text: str) -> list[Found]:
    """'"X" means', with its alias '"X" (or "Y") means'; not the last of a list of terms
    given one meaning ('"Fee" and "Fees" mean': defines.term_list)."""
    lists = [(m.start(), m.end()) for m in TERM_LIST.finditer(text)]
    found: list[Found] = []
    for m in QUOTED_MEANS.finditer(text):
        if inside(m.start(), lists):
            continue
        terms = [m.group("term"), m.group("alias")]
        found.extend((m.start(), t, m.group(0), QUOTED_MEANS) for t in terms if t)
    for m in UNQUOTED_MEANS.finditer(text):
        found.append((m.start("term"), m.group("term"), m.group(0).strip(), UNQUOTED_MEANS))
    starts = {f[0] for f in found}
    for m in AS_USED_MEANS.finditer(text):
        if m.start("term") not in starts:  # 'As used herein, Net Sales means': one definition
            found.append((m.start("term"), m.group("term"), m.group(0), AS_USED_MEANS))
    return found


def _by_naming(text: str) -> list[Found]:
    """'is called "X"', then the verbal forms 'To "X" ... means', 'is "X" if', and an event by
    when it holds ('"Cause" shall exist if')."""
    found: list[Found] = [
        (m.start(), m.group("term"), m.group(0), CALLED) for m in CALLED.finditer(text)
    ]
    for m in VERBAL.finditer(text):
        found.append((m.start(), m.group("term") or m.group("pred"), m.group(0), VERBAL))
    found.extend(
        (m.start("term"), m.group("term"), m.group(0), OCCURS_WHEN)
        for m in OCCURS_WHEN.finditer(text)
    )
    return found


def _by_list(text: str) -> list[Found]:
    return [
        (m.start() + q.start(), q.group("term"), m.group(0), TERM_LIST)
        for m in TERM_LIST.finditer(text)
        for q in _QUOTED.finditer(m.group("terms"))
    ]


def _by_entry(text: str) -> list[Found]:
    return [
        (m.start("term"), m.group("term"), m.group(0).strip(), QUOTED_ENTRY)
        for m in QUOTED_ENTRY.finditer(text)
    ]


def _by_reference_name(text: str) -> list[Found]:
    found: list[Found] = []
    for m in REFERRED_TO_AS.finditer(text):
        found.append((m.start(), m.group("term"), m.group(0), REFERRED_TO_AS))
        if m.group("term2"):
            found.append((m.start("term2"), m.group("term2"), m.group(0), REFERRED_TO_AS))
    return found


def _borrowed(text: str) -> list[Found]:
    return [
        (m.start("term"), m.group("term"), m.group(0), DEFINED_ELSEWHERE)
        for m in DEFINED_ELSEWHERE.finditer(text)
    ]


def _in_parentheses(text: str) -> list[Found]:
    found: list[Found] = []
    for m in PARENTHETICAL.finditer(text):
        inner = m.group("inner")
        # a name given inside a parenthesis of its own: '(End User License Agreement
        # ("EULA"))', '(including the Americans with Disabilities Act ("ADA"))'
        for nested in re.finditer(r"\(([^()]{2,12})\)", inner):
            found.extend((m.start(), term, m.group(0), by) for term, by in _named_in(nested[1]))
        # a run of quoted tokens ('("CHARSET" "US-ASCII")') is a syntax example, and a
        # parenthesis of examples names nothing
        if re.search(r"[”\"]\s*[“\"]", inner) or _EXEMPLIFYING.match(inner):
            continue
        if CALL_ARGUMENTS.regex.match(text, m.start()):
            continue  # a function call's arguments
        if each := EACH_SUCH.search(inner):
            found.append((m.start(), each.group("term"), m.group(0), EACH_SUCH))
            continue
        found.extend((m.start(), term, m.group(0), by) for term, by in _named_in(inner))
    return found


# 'clause 14 (Intellectual Property)': a citation with its target's heading, not a name given
_CITED_BEFORE = re.compile(
    r"\b(?i:clauses?|sections?|paragraphs?|articles?|schedules?|parts?|annex|exhibit)"
    r"\s+[\dA-Z][\w.]*\s*$"
)


def _bare_parentheses(text: str) -> list[Found]:
    """defines.unquoted_parenthetical, but a signature block's field ('/s/ Jo Roe
    (Signature)') and a citation's heading ('clause 14 (Intellectual Property)')."""
    return [
        (m.start(), m.group("term"), m.group(0), UNQUOTED_PARENTHETICAL)
        for m in UNQUOTED_PARENTHETICAL.finditer(text)
        if not FORM_FIELD.regex.fullmatch(m.group("term"))
        and not _CITED_BEFORE.search(text, max(0, m.start() - 40), m.start())
    ]


def _named_in(inner: str) -> list[tuple[str, Rule]]:
    """The names a parenthesis gives, in order: each quoted name led by glue words only (from
    the opening or the name before: '(the "Supplier")', '("GRC" or "the Company")') or by a
    description (defines.parenthesis_label), and followed by the end, a stop or the next name."""
    out: list[tuple[str, Rule]] = []
    boundary, chained = 0, True
    for q in _QUOTED.finditer(inner):
        lead = inner[boundary : q.start()]
        by: Rule | None = None
        glue = _PAREN_GLUE.fullmatch("".join(lead.split())) is not None
        if _EXAMPLES.search(inner, 0, q.start()):
            break  # 'such as "A", "B"': examples, from there on
        if chained and glue:
            by = PARENTHETICAL
        elif boundary and glue:
            by = None  # the next of a series of quoted words that names nothing
        elif (
            label := PARENTHESIS_LABEL.regex.search(inner, boundary, q.end())
        ) and label.end() == q.end():
            by = PARENTHESIS_LABEL
        term = q.group("term")
        if by and (term[-1:] in ",.;" or _NAME_ENDS.match(inner, q.end())):
            out.append((term, by))
        boundary, chained = q.end(), by is not None
    return out


def _headed_entries(section: SectionInfo, text: str) -> list[Found]:
    """The entries of a definitions section, marked by its heading or by the sentence that
    opens the list (the entries follow it)."""
    marker = DEFINITIONS_SECTION.search(section.heading) or DEFINITIONS_LEAD.search(text)
    if not marker:
        return []
    start = 0 if marker.string is section.heading else marker.end()
    found: list[Found] = []
    last_end = -1
    for m in HEADED_ENTRY.finditer(text, start):
        term = m.group("term")
        if not text[last_end : m.start("term")].strip(" .:;\n") and last_end >= 0:
            # a name right after an entry is its definition: "FINRA. Financial Industry
            # Regulatory Authority."; the name after that definition is the next entry
            last_end = -1
            continue
        last_end = m.end()
        if term.split()[-1].lower() in _CONNECTIVES:
            continue
        if DEFINITIONS_SECTION.regex.fullmatch(term) or _own_heading(term, section):
            continue  # the run-in heading "Definitions." itself, or "License Definitions."
        if FORM_FIELD.search(term):
            continue  # a signature block ("ACME INC. By: ... Name: Jo Bloggs Title: CEO")
        for part in re.split(r"\s+or\s+", term):
            found.append((m.start("term"), part, m.group(0).strip(), HEADED_ENTRY))
    return found


def _own_heading(term: str, section: SectionInfo) -> bool:
    """The entry is the section's run-in heading ("Kubient License Definitions. Certain
    capitalized terms ..."), a heading that marks the definitions, not a term."""
    heading = " ".join(section.heading.split()).rstrip(" .:")
    return bool(DEFINITIONS_SECTION.regex.search(term)) and term.casefold() == heading.casefold()


def defines_edge(section: SectionInfo, found: Found) -> Edge | None:
    """The `defines` edge of a found term, once tidied; None when what is left is no term."""
    position, term, evidence, by = found
    # '"Component(s)"': the drafter's optional plural; the term is "Component", whose
    # pattern finds both numbers
    term = re.sub(r"(?<=\w)\((?i:s|es)\)\s*$", "", term.strip())  # "CUSTOMER(S)" too
    # a file type keeps its dot ('(".pdf")'); other stops and commas around a term go
    term = " ".join(re.sub(r"-{2,}", " ", term).split()).strip(" ,:;")
    term = term if re.fullmatch(r"\.[A-Za-z]{2,5}", term) else term.strip(" ,.:;")
    if not term or len(term.split()) > 6 or not re.match(r"\.?[^\W\d_]|\d+\s+[A-Z][a-z]", term):
        return None  # a term is words ("1933 Act" too), not "{", "#" or "%"
    return by.edge(
        src_doc_id=section.doc_id,
        src_section_id=section.section_id,
        matched_text=evidence,
        normalized_target=term_key(term),
        term=term,
        position=position,
    )
