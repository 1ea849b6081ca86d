"""Staff: accounts, passwords, logins and lockouts, bearer tokens and the staff routes."""
