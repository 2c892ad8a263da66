"""Pure-Python logical Sudoku solver: grid model, techniques, step log, rating, uniqueness."""
