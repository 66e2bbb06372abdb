-- The planner's estimate of the tenant's chunks matching a tsquery (its text %(match)s, a
-- constant, so the estimate comes from the lexemes' frequencies in the column statistics);
-- nothing is read but the statistics. The plan as JSON: [{"Plan": {"Plan Rows": ...}}].
EXPLAIN (FORMAT JSON)
SELECT 1 FROM chunks
WHERE tenant_id = %(tenant)s AND tsv @@ to_tsquery('simple', %(match)s::text)
