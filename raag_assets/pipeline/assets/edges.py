import time

import dagster as dg

from raag_assets.core.identity import validate_tenant
from raag_assets.pipeline import stages
from raag_assets.pipeline.metadata import OWNERS, definition_metadata
from raag_assets.pipeline.partitions import tenants
from raag_assets.store import frames
from raag_assets.store import graph as graph_store
from resources import PostgresResource, SpacyResource

from .checks import ENDPOINTS_CHECK, endpoints_check, spec
from .graph_metadata import edge_metadata, errors_table, timing, unchanged
from .policy import FOLLOW_UPSTREAM, GRAPH_BRANCH_FIRST, retry_transient
from .sections import sections

EDGES_VERSION = "29"  # 3: terms of art, citation forms, cue families; 4: section version links;
# 5: standards (RFC 2119 documents too), cue families and definition forms widened, amends;
# 6: every edge names its rule (edges.rule), is_standard reads key words either quoted or bare;
# 7: topics from word runs without a parse, Layer 2 parses only the sentences with its cues
# 8: definitions by condition and after "As used in", party names after template blanks,
# displaced provisions named by what a citation holds, attachments cited in capitals
# 9: quoted attachment letters, ranges repeating their keyword, short names under their
# party's paragraph or after a company's name in passing
# 10: sections cited by their quoted heading (references.quoted_heading), in any document
# 11: parties' names (hence their short names) read from a preamble without a cue, after
# "hereinafter" without parentheses, after "the" where a party is named
# 12: a cited section number of a statute's form the document never takes parked as another
# text's (citation.beyond_own_numbering)
# 13: "Exhibit A-2" one label (not A and 2), three-level schedule numbers, the filing's banner
# after the filer's furniture and its repeats
# 14: a part of an attachment not headed apart ("Exhibit A-1") resolves to the attachment
# 15: document dates (effective_on) and parties' names (hence their short names) read in more
# documents: another document's date with its parties, 'Party B:' ending a name
# 16: not terms of art: a short name of several words after a company's name ("... Co.
# ("Beijing SINA")"), a single word defined as a party ('"Buyer" shall mean the party ...'), a
# class of persons under "when used with respect to" ('a Person that controls ...')
# 17: scopes a rule leaves out say so ('does not apply to x', 'not x'), end where their
# sentence moves on (not at 120 characters), cross section numbers; more rule subjects
# 18: definitions read in a heading that took a wrapped definition's first line, quoted terms
# wrapped over lines, nested parentheses, "(as defined in" another document
# (defines.defined_elsewhere), numbered "Term: means" entries
# 19: the entries of a protocol standard's Types section define their types (type_entry); a
# specification cited by its extension's name; what falls outside the scope of this document
# (an exclusion); such a type is a term of art even in capitals, 'the X extension' no use of X
# 20: Texinfo cross-references ("[Name], page 3", "*note Name::"), a section's own numbered
# clauses and its own heading cite no other section, "sections 2 and 3 above" is no positional
# citation, contents entries led by dots to their page cite nothing, a document printed in full
# as a section of the citing one is cited there, a function call's arguments define nothing
# 21: parties' names (hence their short names) and document dates read as parsing version 8 reads
# them: any script, accented capitals, 'with an effective date of', 'As of <date>,'
# 22: relations that hold on unseen contracts: a strong cue heading what the citation holds
# (depends_on.cue_phrase), the stated dates bounding a term (applies_to.term_bounds /
# term_ends), a term stated by its length from the effective date (applies_to.term_length),
# 'notwithstanding the foregoing or anything in X', 'when' frames a weak cue
# 23: a term whose definition breaks a hyphenated word ("Non- Compete Period") is found
# written whole, so it may now be borne out as a term of art
# 24 (relations34, judged on unseen CUAD contracts): scopes of people denied ("shall not apply
# to", "none of ... apply to"), reported or relative are no plain scope, a duration is no scope,
# a parsed subject running past its verb scopes nothing; depends_on on "shall have been
# complied with", an inverted "Should ..." condition, "terminating ... pursuant to X"; a
# deadline with its hour ("no later than 5:00 p.m., ... time, on <date>", "not later than");
# a clause's "effective on" date of another named document is not its own; "will constitute a
# default under X" / "will have no obligation under X" is no permission granted under X
# 25 (core34, judged on unseen CUAD contracts): a document that cites and defines nothing
# borrows from the tenant only a phrase of two words or more that one live document defines
# (single words led unrelated contracts astray); a party's short name after its full name and
# where it is (term.party_described), after "hereinafter" in the parties' introduction, right
# after a person's in a preamble without "between", or beside "Parties" in one parenthesis; a
# section 'of Exhibit A' or 'thereof' is not this document's (citation.section_of_an_attachment),
# a document named without its article ('of Asset Purchase Agreement') is another document; the
# front matter runs past a contents entry made a section before the body's "1"; sections
# headed by an address line or a list item's tail are gone (SECTIONER_VERSION 14)
# 26 (core35, judged on unseen CUAD contracts, cuadlook7): a name a document gives one of its
# annexes ('the Statement of Work ("SOW") attached hereto as Appendix A') is a term of art and
# its uses cite the annex (references.annex_name); a party's short name after where it is when
# the sentence's predicate precedes its name; an attached instrument's own preamble names its
# parties; an instrument naming itself by its head noun ('This PATENT ASSIGNMENT (the
# "Assignment")'), a term before "Agreement" (an instrument's name) and a definitions section's
# run-in heading are no terms or uses; a label for own words fixed elsewhere is a term of art
# 27 (relations35, judged on unseen CUAD contracts): a sentence runs on past a blank line
# after a comma or a word no sentence ends on (cue.run_on_sentence); a licence or right granted
# to use X limited to a field or a territory is a scope (applies_to_scope.grant_field)
# and 'shall apply only to, and is intended for the benefit of, X' scopes X
# a citation after a comma that, with its list, is the subject of its own verb ('..., and
# Sections 2, 3 and 10 shall survive') is no target of the cue before it (cue.new_subject)
# 28 (judged on unseen CUAD contracts, cuadlook8): a document that quotes no names (its
# quotation marks lost on the way to text) defines by bare parentheses ('(the Effective Date)',
# '(collectively, the Services)': defines.unquoted_parenthetical), its parties' short names
# among them; parties introduced inside the first numbered section when none are before it;
# a word defined as a party's own thing ("means Biocept's ... assay") is a term of art
# 29 (relations36): a conditional clause's citation of the source's own article or exhibit, set
# aside in parentheses or after 'as if' is no dependency (cue.own_container,
# cue.citation_aside, cue.not_a_condition), nor one that says where a thing is ('the periods
# referenced in', 'a Station listed on'); 'As an exception to the Sections above' overrides
# the document


@dg.asset(
    partitions_def=tenants,
    automation_condition=FOLLOW_UPSTREAM,
    op_tags=GRAPH_BRANCH_FIRST,
    deps=[sections],
    code_version=EDGES_VERSION,
    group_name="graph",
    kinds={"postgres", "spacy"},
    owners=OWNERS,
    metadata=definition_metadata("edges", frames.EDGES),
    # Blocking: term_uses, topic_links and Layer 3 build on this stage's edges, terms and
    # parked references; an edge to a missing section means the graph was written wrong (a
    # document whose extraction fails is left out and recorded, never half-written), and
    # further layers would only spread it.
    check_specs=[spec(ENDPOINTS_CHECK, "edges", blocking=True)],
    description="Layer 1 (patterns, metadata, file names, dates, fuzzy matching) and Layer 2 "
    "(spaCy parse) edges: references, overrides, supersedes, amends, defines, depends_on, "
    "precedes, applies_to, effective_on, applies_to_scope; defined terms, section topics, and "
    "references parked for later layers.",
)
@retry_transient
def edges(
    context: dg.AssetExecutionContext, postgres: PostgresResource, nlp: SpacyResource
) -> dg.MaterializeResult:
    tenant = validate_tenant(context.partition_key)
    started = time.perf_counter()
    with postgres.connect() as conn:
        docs = graph_store.documents(conn, tenant, history=True)
        rows = graph_store.sections_frame(conn, tenant)
        secs = stages.section_infos(rows)
        fingerprint = graph_store.inputs_fingerprint(docs, secs, EDGES_VERSION, nlp.model)
        if graph_store.fingerprint(conn, tenant, "edges") == fingerprint:
            return unchanged(
                context, conn, tenant, "edges", [endpoints_check(conn, tenant, "edges")]
            )
        earlier = graph_store.sections_frame(conn, tenant, earlier=True)
        out = stages.edge_frames(tenant, docs, rows, earlier, nlp.parse)
        result = out.extraction
        with conn.transaction():  # the whole stage or nothing: readers never see half a graph
            graph_store.write_edges(conn, tenant, "edges", out.edges)
            graph_store.write_terms(conn, tenant, out.terms)
            graph_store.replace_topics(
                conn, tenant, result.topics, {s.section_id: s.doc_id for s in secs}
            )
            graph_store.replace_unresolved(conn, tenant, result.parked)
            graph_store.replace_errors(conn, tenant, "edges", result.errors)
            graph_store.set_fingerprint(conn, tenant, "edges", fingerprint)
            graph_store.forget_fingerprints(
                conn, tenant, ["term_uses", "topic_links", "resolved_references"]
            )
        check = endpoints_check(conn, tenant, "edges")
    for doc_id, reason in sorted(result.errors.items()):
        context.log.warning(f"extraction failed for {doc_id!r}: {reason}")
    return dg.MaterializeResult(
        check_results=[check],
        metadata={
            **edge_metadata(result.edges, secs),
            "terms": len(result.terms),
            "parked": len(result.parked),
            "failed_documents": len(result.errors),
            "failures": errors_table(result.errors),
            "sections": len(secs),
            **timing(started, len(secs)),
        },
    )
