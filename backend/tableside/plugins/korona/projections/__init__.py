"""Read models: projections folded from the global event order into their own tables.

The projections (`live`, `protocol`, `tables`, `history`) write a batch's rows and their
tracking positions (`projection_tracking`) in one transaction; `ProjectionRunner` keeps them
caught up as a consumer of the process's one tail loop (`runner.Tail`);
`rebuild` empties one and folds it again from position 0 to the same bytes.
"""

from tableside.plugins.korona.projections.history import HistoryProjection
from tableside.plugins.korona.projections.live import LiveProjection
from tableside.plugins.korona.projections.protocol import ProtocolProjection
from tableside.plugins.korona.projections.tables import TablesProjection


def all_projections() -> list:
    """Every projection, in the order the runner applies them."""
    return [LiveProjection(), ProtocolProjection(), TablesProjection(), HistoryProjection()]


__all__ = ["all_projections"]
