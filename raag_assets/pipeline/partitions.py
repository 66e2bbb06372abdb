"""The one tenant partitioning: a Dagster partition is a tenant."""

import dagster as dg

tenants = dg.DynamicPartitionsDefinition(name="tenants")
