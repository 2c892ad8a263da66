"""What composes the solver, scanner and overlay: the CLI, batch runs."""
