"""Photo -> grid geometry + givens + confidences."""
