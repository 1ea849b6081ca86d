"""The federation's public faces (issue 49, point 4; decision 0174): a Litestar Router the
federation's app mounts with one line (`router.public_router()`), its reads (`reads.py`) of the
archive, the register and the season's lists, and the face in pwa/federation.html."""
