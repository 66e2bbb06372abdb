SELECT edge_type, layer, count(*)
FROM edges
WHERE tenant_id = %(tenant)s
GROUP BY edge_type, layer
ORDER BY edge_type, layer
