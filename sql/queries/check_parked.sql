-- Parked and resolved references, parked ones without a reason, and Layer 3 edges with no
-- reference marked resolved behind them (the last two should be none).
SELECT count(*) FILTER (WHERE u.status = 'parked'),
       count(*) FILTER (WHERE u.status = 'resolved'),
       count(*) FILTER (WHERE u.status = 'parked' AND btrim(u.reason) = ''),
       (SELECT count(*) FROM edges e
        WHERE e.tenant_id = %(tenant)s AND e.stage = 'resolved_references'
          AND NOT EXISTS (SELECT 1 FROM unresolved_references r
                          WHERE r.tenant_id = e.tenant_id AND r.status = 'resolved'
                            AND r.src_section_id = e.src_section_id
                            AND r.matched_text = e.matched_text))
FROM unresolved_references u
WHERE u.tenant_id = %(tenant)s
