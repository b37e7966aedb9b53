"""The benchmark kit every bench stands on: `stack` (the processes it runs against), `client` (a
scripted browser page), `stats` (the figures), `command` (options and a guarded run). A bench
module is then a scenario: what its pages do, when, and which figures it prints."""
