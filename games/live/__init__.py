"""The live transport: sockets, their consumers, and the pushes they carry."""
