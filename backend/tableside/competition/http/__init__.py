"""The competition's HTTP face: routes, reads and their DTOs (`/api/competitions/...`)."""
