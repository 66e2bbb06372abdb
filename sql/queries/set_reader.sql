-- As the tenant's reader role, its schema of views first: formatted with sql.Identifier
-- (role, then schema) by store.db.tenant_reader; one statement string, one round trip.
SET LOCAL ROLE {}; SET LOCAL search_path = {}, public
