"""The one tenant partitioning: a Dagster partition is a tenant."""

import dagster as dg

# The partitions' name, for the instance's dynamic-partition calls (`tenants.name` is typed
# optional: Dagster's definitions built from a function have none).
TENANTS = "tenants"
tenants = dg.DynamicPartitionsDefinition(name=TENANTS)
