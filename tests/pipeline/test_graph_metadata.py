"""What the Dagster UI shows of a graph stage's run: counts per type, layer and rule, and
sample edges that name their rule."""

from raag_assets.core.model import Edge, SectionInfo
from raag_assets.pipeline.assets.graph_metadata import edge_metadata


def test_edge_metadata_counts_edges_per_rule_and_names_the_rule_in_the_sample() -> None:
    sections = [SectionInfo(f"s{n}", "policy", n, str(n), f"Part {n}", 1, None, "") for n in (1, 2)]

    def cite(n: int, rule: str) -> Edge:
        return Edge(
            "references",
            1,
            "policy",
            "s1",
            f"Section {n}",
            f"policy § {n}",
            0.9,
            dst_doc_id="policy",
            dst_section_id="s2",
            position=n,
            rule=rule,
        )

    edges = [cite(1, "references.section_label"), cite(2, "references.section_label")]
    edges.append(
        Edge(
            "defines",
            1,
            "policy",
            "s2",
            '"Leave Year" means',
            "leave year",
            1.0,
            term="Leave Year",
            rule="defines.quoted_means",
        )
    )
    meta = edge_metadata(edges, sections)
    counts = meta["rule_counts"].value  # type: ignore[attr-defined]
    assert "| references.section_label | references | 2 |" in counts
    assert "| defines.quoted_means | defines | 1 |" in counts
    assert counts.index("references.section_label") < counts.index("defines.quoted_means")
    sample = meta["sample"].value  # type: ignore[attr-defined]
    assert sample.splitlines()[0].endswith("| rule |")
    assert "defines.quoted_means |" in sample.splitlines()[-1]
