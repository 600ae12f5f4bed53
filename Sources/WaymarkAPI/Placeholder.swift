// The local API; see docs/api.md.
