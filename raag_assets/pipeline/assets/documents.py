import datetime as dt
import time

import dagster as dg

from raag_assets.core.errors import BadDocument
from raag_assets.core.identity import doc_id_from_name, validate_tenant
from raag_assets.core.model import ParsedDocument
from raag_assets.ingest.parsing import parse_file
from raag_assets.pipeline.metadata import DOCUMENTS, OWNERS, definition_metadata, table_metadata
from raag_assets.pipeline.partitions import tenants
from raag_assets.store.db import add_tenant
from raag_assets.store.documents import (
    archive_version,
    count_live_chunks,
    delete_documents_not_in,
    document_versions,
    insert_earlier_version,
    place_version,
    replace_skipped_files,
    tenant_summary,
    update_version_periods,
    upsert_document,
)
from raag_assets.store.graph import forget_fingerprints
from resources import LandingResource, PostgresResource

from .checks import VERSIONS_CHECK, spec, versions_check
from .policy import retry_transient

PARSER_VERSION = "12"  # 3: PDF spaces by 0.15 em, running headers and footers, spans word by word;
# 4: a file name's comma stays in its doc_id; 5: the title kept where a running header
# repeats it, or after a legend on its line; parties read in more introductions
# 6: dates, titles and parties read in more documents (effective once both parties sign,
# a form's 'Contract start:', titles opening with 'License', 'Party B:' ending a name)
# 7: plain-text lines keep their indent (sectioning reads a standard's indented blocks)
# 8: titles and parties' names in accented capitals or a script without case, no place after
# "the laws of" as a party, numbered party lists; dates 'with an effective date of', 'concluded
# on', 'As of <date>,' opening a sentence of the opening, dates day first with dots (01.03.2003)
# 9: 'The' (or another determiner) alone is no party's name
# 10 (relations34): another document's date is not this one's when its name is followed by
# 'entered into by and between <parties with a parenthesis>,' or 'made' before the date
# 11: each line keeps where its characters lie in the raw text exactly (Line.shifts: the
# spaces normalising collapsed), so a section or chunk cut inside a line starts at its text;
# a PDF's running legend in small type is furniture on its first page and over two pages
# 12 (textforms36): a hard-wrapped plain text's title is read from its wrapped lines joined
# (a title cut at a wrap, a legend wrapped past the lines a title is looked for in)
LANDING_STATE = "landing_fingerprint"  # metadata key: the folder state this run read
# stage_fingerprints' row for the state a whole successful ingest left (run.chain_state);
# deleted here when a run starts, so a run of any origin (sensor, UI) voids it
UP_TO_DATE = "ingest"


@dg.asset(
    partitions_def=tenants,
    code_version=PARSER_VERSION,
    group_name="ingest",
    kinds={"postgres", "pdf"},
    owners=OWNERS,
    metadata=definition_metadata("documents", DOCUMENTS),
    # Blocking: a superseded version's chunks left live would be sectioned, embedded and
    # linked as if current; no bad file can cause it (those are skipped before placement),
    # only a broken version placement, so the chain stops there.
    check_specs=[spec(VERSIONS_CHECK, "documents", blocking=True)],
    description="The tenant's landed files, parsed (PDF, Markdown, text) and normalised, "
    "with metadata; unreadable files are skipped with a reason.",
)
@retry_transient
def documents(
    context: dg.AssetExecutionContext, postgres: PostgresResource, landing: LandingResource
) -> dg.MaterializeResult:
    tenant = validate_tenant(context.partition_key)
    started = time.perf_counter()
    today = dt.date.today()  # a new version that states no date is in force from today
    # read before the files: a change made while this runs makes the sensor run again
    folder_state = landing.fingerprint(tenant)
    added: list[str] = []
    changed: list[str] = []
    unchanged: list[str] = []
    versions: list[str | None] = []  # archived or inserted earlier versions
    returned: dict[str, str] = {}
    parsed: dict[str, ParsedDocument] = {}
    skipped: dict[str, str] = {}
    with postgres.connect() as conn:
        add_tenant(conn, tenant)  # a tenant the landing sensor found has no partitions yet
        forget_fingerprints(conn, tenant, [UP_TO_DATE])
        for path in landing.files(tenant):
            try:
                doc = parse_file(path, landing.max_file_bytes)
            except BadDocument as exc:
                skipped[path.name] = str(exc)
                context.log.warning(f"skipped {path.name!r}: {exc}")
                continue
            if doc.doc_id in parsed:
                skipped[path.name] = (
                    f"doc_id {doc.doc_id!r} is already used by {parsed[doc.doc_id].source_name!r}"
                )
                continue
            parsed[doc.doc_id] = doc
            place = place_version(
                document_versions(conn, tenant, doc.doc_id),
                doc.content_hash,
                doc.effective_from,
                today,
            )
            if place.action in ("unchanged", "returned"):
                unchanged.append(doc.doc_id)
                if place.action == "returned":  # the content of an earlier version, not a new one
                    returned[doc.doc_id] = place.same_as or ""
                continue
            (added if place.action == "new" else changed).append(doc.doc_id)
            with conn.transaction():  # one document per transaction: a failure loses no other
                if place.action == "live":  # keep the version it replaces
                    versions.append(archive_version(conn, tenant, doc.doc_id, place.starts, today))
                if place.action == "earlier":  # a late arrival takes its place by its date
                    versions.append(
                        insert_earlier_version(conn, tenant, doc, place.starts, place.version)
                    )
                else:
                    upsert_document(conn, tenant, doc, place.starts, place.version)
                update_version_periods(conn, tenant, doc.doc_id)
        # A skipped file keeps whatever was stored for it before (by its name, or by the file
        # it was read from when its metadata named it otherwise); only files gone are removed.
        keep = set(parsed) | {doc_id_from_name(name) for name in skipped}
        with conn.transaction():
            removed = delete_documents_not_in(conn, tenant, keep, skipped)
            replace_skipped_files(conn, tenant, skipped)
            count_live_chunks(conn, tenant)  # removed documents took chunks with them
        check = versions_check(conn, tenant)
        stored = tenant_summary(conn, tenant)
    return dg.MaterializeResult(
        check_results=[check],
        metadata={
            "documents": len(parsed),
            "added": len(added),
            "changed": len(changed),
            "unchanged": len(unchanged),
            "removed": dg.MetadataValue.json(removed),
            "earlier_versions_kept": dg.MetadataValue.json(versions),
            "returned_to_earlier_version": dg.MetadataValue.json(returned),
            "skipped": len(skipped),
            "skipped_files": dg.MetadataValue.md(_skipped_table(skipped)),
            "preview": dg.MetadataValue.md(_preview(parsed)),
            "seconds": round(time.perf_counter() - started, 2),
            LANDING_STATE: folder_state,
            # every row of the tenant's table: live documents and the earlier versions kept
            **table_metadata(
                DOCUMENTS, stored["documents"] + stored["earlier_versions"], table="documents"
            ),
        },
    )


def _skipped_table(skipped: dict[str, str]) -> str:
    if not skipped:
        return "_none_"
    rows = [f"| `{name}` | {reason} |" for name, reason in sorted(skipped.items())]
    return "\n".join(["| file | reason |", "| --- | --- |", *rows])


def _preview(parsed: dict[str, ParsedDocument], limit: int = 20) -> str:
    rows = [
        f"| {d.doc_id} | {d.format} | {d.page_count or ''} | {len(d.lines)} | "
        f"{', '.join(d.meta.tags)} |"
        for d in sorted(parsed.values(), key=lambda d: d.doc_id)[:limit]
    ]
    return "\n".join(
        ["| doc_id | format | pages | lines | tags |", "| --- | --- | --- | --- | --- |", *rows]
    )
