"""The plumbing every app may use: errors, hooks, parameters, raw SQL, the client's address,
text, metrics, logs, the publish call. It imports no app; the composition root (harehra_site)
wires it in."""
