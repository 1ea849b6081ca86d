"""The HTTP kernel every slice builds on: problems, guards, bodies, rate limit, consistency,
health and the request context. It imports no slice."""
