"""When Dagster's automation sensor (default_automation_condition_sensor) materialises a stage
on its own, outside the landing sensor and the ingest job."""

import dagster as dg

# A stage follows its upstream partition: a UI run of `documents` alone for a tenant brings the
# rest of that tenant's chain up to date. A new code_version re-runs the stage for every tenant
# (the stage itself keeps its rows when inputs and code are as before).
FOLLOW_UPSTREAM = (
    dg.AutomationCondition.eager()
    | (dg.AutomationCondition.code_version_changed() & ~dg.AutomationCondition.in_progress())
).with_label("upstream updated or code changed")
