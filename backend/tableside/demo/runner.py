"""Placeholder until the demo lands."""


async def run_demo(ctx) -> None:
    """Nothing yet."""
