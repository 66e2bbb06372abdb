"""Records for the pure-function tests of retrieval: sections, edges and hits."""

from raag_assets.retrieval.model import GraphEdge, Hit, ScoredSection, SectionView


def section(sid: str, doc: str = "doc", **kw) -> SectionView:
    fields = {
        "section_id": sid,
        "doc_id": doc,
        "ordinal": int(kw.pop("ordinal", 0)),
        "label": kw.pop("label", sid),
        "heading": kw.pop("heading", f"Heading {sid}"),
        "text": "text",
        "page_start": None,
        "page_end": None,
        "parent_id": None,
        "title": None,
        "authority_level": kw.pop("authority", None),
        "effective_from": kw.pop("start", None),
        "effective_to": kw.pop("end", None),
    }
    return SectionView(**fields, **kw)


def edge(
    eid: str, kind: str, src: str | None, dst: str | None, conf: float = 1.0, **kw
) -> GraphEdge:
    return GraphEdge(
        eid,
        kind,
        1,
        kw.pop("src_doc", "doc"),
        src,
        kw.pop("dst_doc", "doc"),
        dst,
        kw.pop("term", None),
        None,
        None,
        None,
        kw.pop("text", kind),
        "",
        conf,
        None,
        kw.pop("rule", None),
    )


def hit(s: SectionView, score: float) -> ScoredSection:
    return ScoredSection(s, 0, score, hit=Hit(s.section_id, score, 1, 1, 0))
